package store

import (
	"context"
	"math"
	"slices"
	"testing"
)

func TestTextVectors(t *testing.T) {
	ctx := context.Background()
	s, root := indexed(t)
	r1, _ := s.Resource("manuscript/chapter-01")
	if err := s.PutEmbedding(ctx, Embedding{Path: r1.Path, Model: "emb", Hash: r1.Hash, Vector: []float32{1, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	vecs := map[string][]float32{
		"h1": {0.25, -1.5, 3},
		"h2": {float32(math.Pi), 0, -0},
	}
	if err := s.PutTextVectors(ctx, "emb", vecs); err != nil {
		t.Fatal(err)
	}
	if err := s.PutTextVectors(ctx, "other", map[string][]float32{"h1": {9}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		model  string
		hashes []string
		want   map[string][]float32
	}{
		{"emb", []string{"h1", "h2", "h3"}, vecs},
		{"emb", []string{"h2", "h2"}, map[string][]float32{"h2": vecs["h2"]}},
		{"other", []string{"h1", "h2"}, map[string][]float32{"h1": {9}}},
		{"none", []string{"h1"}, map[string][]float32{}},
		{"", []string{"h1"}, map[string][]float32{}},
	} {
		got, err := s.TextVectors(ctx, tc.model, tc.hashes)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.model, tc.hashes, err)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s %v: got %d vectors, want %d", tc.model, tc.hashes, len(got), len(tc.want))
		}
		for h, v := range tc.want {
			if !slices.Equal(got[h], v) {
				t.Errorf("%s %s: got %v, want %v (bit for bit)", tc.model, h, got[h], v)
			}
		}
	}
	// Text vectors share the bucket with resource vectors and never show
	// in Nearest, whatever the model is called.
	hits, err := s.Nearest(ctx, "emb", []float32{1, 0, 0}, 10)
	if err != nil || len(hits) != 1 || hits[0].Path != r1.Path {
		t.Errorf("nearest = %+v, %v; want only the resource vector", hits, err)
	}
	// They survive a reopen: the cache is durable.
	s.Close()
	s2 := openStore(t, root, Options{})
	got, err := s2.TextVectors(ctx, "emb", []string{"h1"})
	if err != nil || !slices.Equal(got["h1"], vecs["h1"]) {
		t.Errorf("after reopen: %v, %v", got, err)
	}
	for _, bad := range []map[string][]float32{
		{"": {1}},
		{"h": nil},
		{"h": {float32(math.NaN())}},
		{"h": {float32(math.Inf(1))}},
	} {
		if err := s2.PutTextVectors(ctx, "emb", bad); err == nil {
			t.Errorf("PutTextVectors(%v) accepted", bad)
		}
	}
	if err := s2.PutTextVectors(ctx, "", map[string][]float32{"h": {1}}); err == nil {
		t.Error("PutTextVectors without a model accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s2.TextVectors(cctx, "emb", []string{"h1"}); err == nil {
		t.Error("TextVectors ignored a cancelled context")
	}
}

func TestCachedAnswers(t *testing.T) {
	ctx := context.Background()
	s, _ := indexed(t)
	if _, ok, err := s.CachedAnswer(ctx, "k1"); ok || err != nil {
		t.Fatalf("empty cache: %v %v", ok, err)
	}
	if err := s.PutCachedAnswer(ctx, "k1", []byte(`{"entities":["甲"]}`)); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.CachedAnswer(ctx, "k1")
	if err != nil || !ok || string(got) != `{"entities":["甲"]}` {
		t.Errorf("got %s %v %v", got, ok, err)
	}
	for _, bad := range []struct{ key, answer string }{{"", `{}`}, {"k", `{"a":`}, {"k", ``}} {
		if err := s.PutCachedAnswer(ctx, bad.key, []byte(bad.answer)); err == nil {
			t.Errorf("PutCachedAnswer(%q, %q) accepted", bad.key, bad.answer)
		}
	}
	// Answers never show among vectors.
	if v, _ := s.TextVectors(ctx, "k1", []string{"k1"}); len(v) != 0 {
		t.Errorf("an answer read as a vector: %v", v)
	}
}
