package store

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
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

// Text vectors are kept by content rather than by resource: passages of
// chapters and the text of prompts have no resource path, and equal text
// is embedded once whatever file holds it. Their keys live in the
// embeddings bucket under a prefix that starts with "\x00", which no
// model name can (a resource vector's key starts with its model), so
// [Store.Nearest] never meets them.
const textVectorPrefix = "\x00text\x00"

// textVector is a text vector as stored: the vector as base64 of
// little-endian float32s, a quarter of its JSON size as numbers.
type textVector struct {
	Model  string `json:"model"`
	Hash   string `json:"hash"`
	Dims   int    `json:"dims"`
	Vector string `json:"vector"`
}

// TextVectors returns the vectors from model of the texts whose content
// hashes are given, for those it holds. A hash it has no vector for is
// not in the map.
func (s *Store) TextVectors(ctx context.Context, model string, hashes []string) (map[string][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := map[string][]float32{}
	if model == "" || len(hashes) == 0 {
		return out, nil
	}
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bEmbeddings)
		for _, h := range hashes {
			if _, ok := out[h]; ok {
				continue
			}
			var tv textVector
			ok, err := getJSON(b, textVectorPrefix+joinKey(model, h), &tv)
			if err != nil {
				return fmt.Errorf("text vector %s: %w", h, err)
			}
			if !ok {
				continue
			}
			v, err := decodeVector(tv.Vector, tv.Dims)
			if err != nil {
				return fmt.Errorf("text vector %s: %w", h, err)
			}
			out[h] = v
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read text vectors: %w", err)
	}
	return out, nil
}

// PutTextVectors stores vectors from model by the content hash of the
// text each was computed from, in one transaction.
func (s *Store) PutTextVectors(ctx context.Context, model string, vecs map[string][]float32) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if model == "" {
		return fmt.Errorf("put text vectors: the model is required")
	}
	hashes := make([]string, 0, len(vecs))
	for h, v := range vecs {
		if h == "" || len(v) == 0 {
			return fmt.Errorf("put text vectors: a hash and a vector are required")
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("put text vector %s: vector holds NaN or Inf", h)
			}
		}
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	return s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bEmbeddings)
		for _, h := range hashes {
			v := vecs[h]
			tv := textVector{Model: model, Hash: h, Dims: len(v), Vector: encodeVector(v)}
			if err := putJSON(b, textVectorPrefix+joinKey(model, h), tv); err != nil {
				return err
			}
		}
		return nil
	})
}

func encodeVector(v []float32) string {
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(buf)
}

func decodeVector(s string, dims int) ([]float32, error) {
	buf, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("decode vector: %w", err)
	}
	if len(buf) != 4*dims || dims == 0 {
		return nil, fmt.Errorf("decode vector: %d bytes for %d dimensions", len(buf), dims)
	}
	v := make([]float32, dims)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
	}
	return v, nil
}

// Model answers that Role A caches live in the same bucket, by the hash
// of everything the model was asked (its configuration, prompt and
// schema), so that asking again with the same input gives the same
// answer without a call: Role A's intent refinement stays deterministic.
// They are beside the vectors because they are of the same kind, derived
// from text by a model and worth keeping across runs; a bucket of their
// own would need a new schema version.
const answerPrefix = "\x00answer\x00"

// cachedAnswer is an answer as stored.
type cachedAnswer struct {
	Key    string          `json:"key"`
	Answer json.RawMessage `json:"answer"`
}

// CachedAnswer returns the JSON answer cached under key (a hash of the
// model's input), and whether there is one.
func (s *Store) CachedAnswer(ctx context.Context, key string) (json.RawMessage, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	var a cachedAnswer
	var ok bool
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		ok, err = getJSON(tx.Bucket(bEmbeddings), answerPrefix+key, &a)
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("cached answer %s: %w", key, err)
	}
	return a.Answer, ok, nil
}

// PutCachedAnswer caches a JSON answer under key.
func (s *Store) PutCachedAnswer(ctx context.Context, key string, answer json.RawMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if key == "" || !json.Valid(answer) {
		return fmt.Errorf("put cached answer: a key and a JSON answer are required")
	}
	return s.update(func(tx *bolt.Tx) error {
		return putJSON(tx.Bucket(bEmbeddings), answerPrefix+key, cachedAnswer{Key: key, Answer: answer})
	})
}
