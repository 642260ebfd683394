package store

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/project"
	bolt "go.etcd.io/bbolt"
)

// Embedding is a vector of a resource's content from an embedding model.
type Embedding struct {
	Path  string `json:"path"`
	Model string `json:"model"`
	// Hash is the content hash the vector was computed from; a vector
	// whose hash is not the resource's current one is never returned.
	Hash   string    `json:"hash"`
	Vector []float32 `json:"vector"`
}

// PutEmbedding stores the vector of a resource's content (hash as
// Resource.Hash was when the text was embedded).
func (s *Store) PutEmbedding(ctx context.Context, e Embedding) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if e.Model == "" || len(e.Vector) == 0 || e.Hash == "" {
		return fmt.Errorf("put embedding of %s: model, hash and vector are required", e.Path)
	}
	for _, x := range e.Vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("put embedding of %s: vector holds NaN or Inf", e.Path)
		}
	}
	c, err := project.CleanRel(e.Path)
	if err != nil {
		return fmt.Errorf("put embedding: %w", err)
	}
	e.Path = project.ResourcePath(c)
	return s.update(func(tx *bolt.Tx) error {
		return putJSON(tx.Bucket(bEmbeddings), joinKey(e.Model, e.Path), e)
	})
}

// Nearest returns the k resources whose current content's vector (from
// model) is closest to query by cosine similarity, best first. Brute
// force: at a few thousand resources it is a millisecond.
func (s *Store) Nearest(ctx context.Context, model string, query []float32, k int) ([]Hit, error) {
	if k <= 0 {
		k = 10
	}
	qn := norm(query)
	if qn == 0 {
		return nil, fmt.Errorf("nearest: zero query vector")
	}
	var out []Hit
	prefix := model + "\x00"
	err := s.view(func(tx *bolt.Tx) error {
		res := tx.Bucket(bResources)
		c := tx.Bucket(bEmbeddings).Cursor()
		for key, v := c.Seek([]byte(prefix)); key != nil && strings.HasPrefix(string(key), prefix); key, v = c.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			var e Embedding
			if err := unmarshal(v, &e); err != nil {
				return err
			}
			var r Resource
			if ok, err := getJSON(res, e.Path, &r); err != nil || !ok || r.Hash != e.Hash || len(e.Vector) != len(query) {
				continue
			}
			var dot float64
			for i, x := range e.Vector {
				dot += float64(x) * float64(query[i])
			}
			if n := norm(e.Vector); n > 0 {
				out = append(out, Hit{Path: e.Path, Score: dot / (n * qn)})
			}
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Path < out[j].Path
	})
	if len(out) > k {
		out = out[:k]
	}
	return out, err
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}
