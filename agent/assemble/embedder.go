package assemble

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/sourcegraph/conc/pool"
)

// An Embedder turns texts into vectors: an *llm.Client of the project's
// embedding configuration.
type Embedder interface {
	Embed(ctx context.Context, texts []string) (*llm.Embeddings, error)
}

// A VectorCache keeps vectors by model and [TextHash]: the store
// (store.Store's TextVectors and PutTextVectors), or [MemVectors].
type VectorCache interface {
	TextVectors(ctx context.Context, model string, hashes []string) (map[string][]float32, error)
	PutTextVectors(ctx context.Context, model string, vecs map[string][]float32) error
}

// Embedding is how vectors are had: the model (the cache key), the
// endpoint and the cache.
type Embedding struct {
	// Model names the embedding model; vectors are cached under it.
	Model    string
	Embedder Embedder
	// Cache keeps the vectors; nil keeps none beyond the call.
	Cache VectorCache
	// Batch bounds the texts of one call (default 64); BatchBytes their
	// total size (default 64 KiB: a few dozen passages, well inside an
	// endpoint's limits).
	Batch, BatchBytes int
	// MaxCalls bounds the calls of one EmbedChapters (0: no bound); what
	// is left is embedded by the next.
	MaxCalls int
	// Concurrency is how many calls may be in flight at once (default
	// 1); the first failure stops the others.
	Concurrency int
	// Cooldown, when set, is how long a failed endpoint is left alone:
	// the nodes of a run then fall back to the lexical search at once
	// rather than each waiting out the client's retries.
	Cooldown time.Duration

	mu        sync.Mutex
	downUntil time.Time
	downErr   error
	// known are the passage vectors of the last EmbedChapters, by
	// TextHash: the next snapshot of a project differs by a few passages,
	// and reads only those from the cache. Replaced whole, never changed.
	known      map[string][]float32
	knownModel string
}

// EmbedReport says what [EmbedChapters] did.
type EmbedReport struct {
	// Texts are the distinct passage texts; Cached those the cache held;
	// Embedded those the endpoint embedded now, in Calls calls.
	Texts, Cached, Embedded, Calls int
	// Err is why some texts have no vector (the endpoint failed, or the
	// bound on calls was reached); the vectors made before it are kept.
	Err error
}

// EmbedChapters returns the vectors of snap's chapter passages: from the
// cache, and for the texts it lacks from the endpoint in bounded batches
// (then put in the cache, so that unchanged text is never embedded
// again). An endpoint that fails ends the embedding, never the caller's
// work: the vectors had so far are returned, and the report's Err (and
// the Vectors' Note) says why the rest are missing.
func (e *Embedding) EmbedChapters(ctx context.Context, snap Snapshot) (*Vectors, EmbedReport) {
	var rep EmbedReport
	var hashes []string
	texts := map[string]string{}
	for _, c := range snap.Chapters() {
		for _, p := range c.Passages {
			if p.End > len(c.L2) || p.Start > p.End {
				continue
			}
			t := c.L2[p.Start:p.End]
			if isBlank(t) {
				continue
			}
			h := TextHash(t)
			if _, ok := texts[h]; !ok {
				texts[h] = t
				hashes = append(hashes, h)
			}
		}
	}
	rep.Texts = len(hashes)
	vecs, err := e.vectors(ctx, hashes, texts, &rep, true)
	rep.Err = err
	e.mu.Lock()
	e.known, e.knownModel = vecs, e.Model
	e.mu.Unlock()
	v := NewVectors(e.Model, snap, vecs)
	if err != nil && v.Missing > 0 {
		v.Note = err.Error()
	}
	return v, rep
}

// EmbedQuery returns the vector of text (a node's [QueryText]), from the
// cache or the endpoint.
func (e *Embedding) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return e.query(ctx, text, true)
}

func (e *Embedding) query(ctx context.Context, text string, call bool) ([]float32, error) {
	if isBlank(text) {
		return nil, errors.New("embed the prompt: it is empty")
	}
	h := TextHash(text)
	var rep EmbedReport
	vecs, err := e.vectors(ctx, []string{h}, map[string]string{h: text}, &rep, call)
	if err != nil {
		return nil, err
	}
	return vecs[h], nil
}

// Semantic returns the similarity input of an assembly of node n over
// the snapshot vecs were made of. It never fails: what went wrong is in
// its Unavailable, which the assembly's provenance states.
func (e *Embedding) Semantic(ctx context.Context, vecs *Vectors, n Node) *Semantic {
	return e.semantic(ctx, vecs, n, true)
}

// CachedSemantic is Semantic without calling the endpoint: the prompt's
// vector comes from the cache or not at all (then the assembly is
// lexical and says the prompt is not embedded yet). A live preview (the
// editor's hover) uses it, to stay fast and make no calls.
func (e *Embedding) CachedSemantic(ctx context.Context, vecs *Vectors, n Node) *Semantic {
	return e.semantic(ctx, vecs, n, false)
}

func (e *Embedding) semantic(ctx context.Context, vecs *Vectors, n Node, call bool) *Semantic {
	switch {
	case vecs == nil || vecs.Dims == 0:
		why := "the manuscript has no vectors"
		if vecs != nil && vecs.Note != "" {
			why += " (" + vecs.Note + ")"
		}
		return &Semantic{Vectors: vecs, Unavailable: why}
	case isBlank(QueryText(n)):
		return &Semantic{Vectors: vecs, Unavailable: "the prompt has no text of its own"}
	}
	q, err := e.query(ctx, QueryText(n), call)
	if err != nil {
		return &Semantic{Vectors: vecs, Unavailable: err.Error()}
	}
	return &Semantic{Vectors: vecs, Query: q}
}

// vectors returns the vectors of hashes: cached, else embedded. The map
// holds what could be had; the error says why the rest could not.
func (e *Embedding) vectors(ctx context.Context, hashes []string, texts map[string]string, rep *EmbedReport, call bool) (map[string][]float32, error) {
	if e.Model == "" {
		return map[string][]float32{}, errors.New("no embedding model is configured")
	}
	out := map[string][]float32{}
	e.mu.Lock()
	known := e.known
	if e.knownModel != e.Model {
		known = nil
	}
	e.mu.Unlock()
	var ask []string
	for _, h := range hashes {
		if v, ok := known[h]; ok {
			out[h] = v
		} else {
			ask = append(ask, h)
		}
	}
	if e.Cache != nil && len(ask) > 0 {
		got, err := e.Cache.TextVectors(ctx, e.Model, ask)
		if err != nil {
			return out, fmt.Errorf("read cached vectors: %w", err)
		}
		for h, v := range got {
			out[h] = v
		}
	}
	rep.Cached = len(out)
	var todo []string
	for _, h := range hashes {
		if _, ok := out[h]; !ok {
			todo = append(todo, h)
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	if !call {
		return out, fmt.Errorf("%d texts are not embedded yet", len(todo))
	}
	if e.Embedder == nil {
		return out, fmt.Errorf("%d texts have no vector and no endpoint is configured", len(todo))
	}
	if err := e.down(); err != nil {
		return out, err
	}
	batch, bytes := e.Batch, e.BatchBytes
	if batch <= 0 {
		batch = 64
	}
	if bytes <= 0 {
		bytes = 64 << 10
	}
	var parts [][]string
	for len(todo) > 0 {
		n, size := 0, 0
		for n < len(todo) && n < batch && (n == 0 || size+len(texts[todo[n]]) <= bytes) {
			size += len(texts[todo[n]])
			n++
		}
		parts = append(parts, todo[:n])
		todo = todo[n:]
	}
	var bounded error
	if e.MaxCalls > 0 && len(parts) > e.MaxCalls {
		left := 0
		for _, p := range parts[e.MaxCalls:] {
			left += len(p)
		}
		bounded = fmt.Errorf("%d texts left to embed after %d calls (the bound)", left, e.MaxCalls)
		parts = parts[:e.MaxCalls]
	}
	var mu sync.Mutex // out and rep
	p := pool.New().WithErrors().WithFirstError().WithContext(ctx).WithCancelOnError().WithMaxGoroutines(max(1, e.Concurrency))
	for _, part := range parts {
		p.Go(func(ctx context.Context) error {
			if ctx.Err() != nil {
				return nil // another batch failed: this one is not sent
			}
			in := make([]string, len(part))
			for i, h := range part {
				in[i] = texts[h]
			}
			mu.Lock()
			rep.Calls++
			mu.Unlock()
			res, err := e.Embedder.Embed(ctx, in)
			if err == nil && len(res.Vectors) != len(in) {
				err = fmt.Errorf("%d vectors for %d texts", len(res.Vectors), len(in))
			}
			if err == nil && slices.ContainsFunc(res.Vectors, func(v []float32) bool { return unit(v) == nil }) {
				err = errors.New("a zero or invalid vector")
			}
			if err != nil {
				err = fmt.Errorf("embed with %s: %w", e.Model, err)
				if ctx.Err() == nil {
					e.fail(err)
				}
				return err
			}
			got := make(map[string][]float32, len(part))
			for i, h := range part {
				got[h] = res.Vectors[i]
			}
			if e.Cache != nil {
				if err := e.Cache.PutTextVectors(ctx, e.Model, got); err != nil {
					return fmt.Errorf("cache vectors: %w", err)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			maps.Copy(out, got)
			rep.Embedded += len(part)
			return nil
		})
	}
	if err := p.Wait(); err != nil {
		return out, err
	}
	return out, bounded
}

// down returns the endpoint's last failure while it is left alone.
func (e *Embedding) down() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.downErr != nil && time.Now().Before(e.downUntil) {
		return fmt.Errorf("%w (not asked again until %s)", e.downErr, e.downUntil.Format(time.TimeOnly))
	}
	return nil
}

func (e *Embedding) fail(err error) {
	if e.Cooldown <= 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.downErr, e.downUntil = err, time.Now().Add(e.Cooldown)
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\n' && r != '\t' && r != '\r' && r != '\u3000' {
			return false
		}
	}
	return true
}

// MemVectors is a [VectorCache] in memory, for work without a store (the
// evaluation). Safe for concurrent use.
type MemVectors struct {
	mu sync.Mutex
	m  map[string][]float32 // model "\x00" hash
}

// TextVectors implements [VectorCache].
func (m *MemVectors) TextVectors(ctx context.Context, model string, hashes []string) (map[string][]float32, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string][]float32{}
	for _, h := range hashes {
		if v, ok := m.m[model+"\x00"+h]; ok {
			out[h] = v
		}
	}
	return out, nil
}

// PutTextVectors implements [VectorCache].
func (m *MemVectors) PutTextVectors(ctx context.Context, model string, vecs map[string][]float32) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string][]float32{}
	}
	for h, v := range vecs {
		m.m[model+"\x00"+h] = slices.Clone(v)
	}
	return nil
}
