package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/project"
	bolt "go.etcd.io/bbolt"
)

// Sources of relations.
const (
	SourceFrontMatter = "front-matter" // declared in a file; replaced when the file is re-indexed
	SourceCuration    = "curation"     // added by curation or an approved agent edit; kept until removed
)

// Relation is a typed link from one resource to another.
type Relation struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
}

func relKey(r Relation) []byte { return []byte(joinKey(r.From, r.Kind, r.To, r.Source)) }
func relRevKey(r Relation) []byte {
	return []byte(joinKey(r.To, r.Kind, r.From, r.Source))
}

func putRelation(tx *bolt.Tx, r Relation) error {
	if err := tx.Bucket(bRelations).Put(relKey(r), []byte("{}")); err != nil {
		return err
	}
	return tx.Bucket(bRelationsTo).Put(relRevKey(r), []byte("{}"))
}

func deleteRelation(tx *bolt.Tx, r Relation) error {
	if err := tx.Bucket(bRelations).Delete(relKey(r)); err != nil {
		return err
	}
	return tx.Bucket(bRelationsTo).Delete(relRevKey(r))
}

// deleteRelationsFrom removes the relations leaving from with source.
func deleteRelationsFrom(tx *bolt.Tx, from, source string) error {
	rels := scanRelations(tx, bRelations, from, false)
	for _, r := range rels {
		if r.Source == source {
			if err := deleteRelation(tx, r); err != nil {
				return err
			}
		}
	}
	return nil
}

func scanRelations(tx *bolt.Tx, bucket []byte, p string, reverse bool) []Relation {
	prefix := []byte(p + "\x00")
	var out []Relation
	c := tx.Bucket(bucket).Cursor()
	for k, _ := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, _ = c.Next() {
		parts := strings.Split(string(k), "\x00")
		if len(parts) != 4 {
			continue
		}
		r := Relation{From: parts[0], Kind: parts[1], To: parts[2], Source: parts[3]}
		if reverse {
			r.From, r.To = r.To, r.From
		}
		out = append(out, r)
	}
	return out
}

// Relations returns the relations leaving a resource, by kind then target.
func (s *Store) Relations(from string) ([]Relation, error) {
	var out []Relation
	err := s.view(func(tx *bolt.Tx) error {
		out = scanRelations(tx, bRelations, project.ResourcePath(from), false)
		return nil
	})
	return out, err
}

// RelationsTo returns the relations arriving at a resource, by kind then
// origin.
func (s *Store) RelationsTo(to string) ([]Relation, error) {
	var out []Relation
	err := s.view(func(tx *bolt.Tx) error {
		out = scanRelations(tx, bRelationsTo, project.ResourcePath(to), true)
		return nil
	})
	return out, err
}

// AddRelation records a relation; Source defaults to SourceCuration.
// Relations from front matter belong to the indexer and cannot be added
// here.
func (s *Store) AddRelation(ctx context.Context, r Relation) error {
	r, err := checkRelation(r)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error { return putRelation(tx, r) })
}

// RemoveRelation deletes a relation added with AddRelation.
func (s *Store) RemoveRelation(ctx context.Context, r Relation) error {
	r, err := checkRelation(r)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error { return deleteRelation(tx, r) })
}

func checkRelation(r Relation) (Relation, error) {
	if r.Source == "" {
		r.Source = SourceCuration
	}
	if r.Source == SourceFrontMatter {
		return r, fmt.Errorf("relation %s -> %s: front matter relations come from the files", r.From, r.To)
	}
	for _, p := range []*string{&r.From, &r.To} {
		c, err := project.CleanRel(*p)
		if err != nil {
			return r, fmt.Errorf("relation: %w", err)
		}
		*p = project.ResourcePath(c)
	}
	if r.Kind == "" || strings.ContainsRune(r.Kind+r.Source, 0) {
		return r, fmt.Errorf("relation %s -> %s: kind is required", r.From, r.To)
	}
	return r, nil
}
