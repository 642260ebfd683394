package assemble

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Similarity of meaning, when the project configures an embedding model,
// joins the lexical search of the manuscript. Assembly stays a pure
// function of its inputs: the vectors are computed ahead (see
// [Embedding.EmbedChapters] and [Embedding.EmbedQuery], which cache them
// by model and content hash) and given to [Assemble] in
// [Options.Semantic]; Assemble itself never calls a model.
//
// The unit is the passage, as the passage index holds it: it is what the
// evidence is, and what an embedding model reads well (a few hundred
// tokens). A chapter ranks by its closest passage; the mean of its
// passages' vectors stands for it in the arc-first scan of a long work.

// Vectors are the unit-length vectors of a snapshot's chapter passages,
// from one embedding model. They are immutable once made; one Vectors
// serves every assembly over the same snapshot.
type Vectors struct {
	// Model is the embedding model the vectors come from.
	Model string
	// Dims is the length of every vector.
	Dims int
	// Passages counts the passages of the snapshot; Missing those without
	// a vector (the endpoint failed before they were embedded).
	Passages, Missing int
	// Note says why vectors are missing ("" when none is).
	Note string

	chapters map[string]*chapterVectors
}

// chapterVectors are the vectors of one chapter's passages.
type chapterVectors struct {
	hash   string      // the chapter's content hash they were made for
	starts []int       // passage starts, as the snapshot's Passages
	vecs   [][]float32 // unit length; nil where the passage has none
	mean   []float32   // unit-length mean of vecs; nil when none has one
}

// Semantic is what an assembly needs to rank by meaning: the snapshot's
// vectors and the node's text embedded by the same model.
type Semantic struct {
	Vectors *Vectors
	// Query is the vector of the node's text ([QueryText]).
	Query []float32
	// Weight is how much the ranking by meaning counts against the
	// lexical one; 0 takes DefaultSemanticWeight.
	Weight float64
	// Unavailable says why embeddings could not be used for this node
	// (the endpoint failed, no vectors yet); the assembly then ranks
	// lexically and its provenance says so.
	Unavailable string
}

// QueryText is the text of node n that [EmbedQuery] embeds: the author's
// prompt, without the upstream outputs (they describe the story so far,
// not what the node is about).
func QueryText(n Node) string { return strings.TrimSpace(n.Text) }

// TextHash is the content hash under which a text's vector is cached:
// hex SHA-256 of the text.
func TextHash(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// NewVectors assembles the vectors of snap's passages from vecs, which
// maps the [TextHash] of a passage's text to its vector (any length; it
// is scaled to unit length). Vectors of another length than the first
// one met, zero vectors and passages vecs lacks count as missing.
func NewVectors(model string, snap Snapshot, vecs map[string][]float32) *Vectors {
	v := &Vectors{Model: model, chapters: map[string]*chapterVectors{}}
	for _, c := range snap.Chapters() {
		cv := &chapterVectors{hash: c.Hash, starts: make([]int, len(c.Passages)), vecs: make([][]float32, len(c.Passages))}
		var sum []float64
		for i, p := range c.Passages {
			cv.starts[i] = p.Start
			if p.End > len(c.L2) || p.Start > p.End {
				continue
			}
			text := c.L2[p.Start:p.End]
			if isBlank(text) {
				continue // nothing to mean; not counted
			}
			v.Passages++
			x := unit(vecs[TextHash(text)])
			if x == nil || (v.Dims != 0 && len(x) != v.Dims) {
				v.Missing++
				continue
			}
			if v.Dims == 0 {
				v.Dims = len(x)
			}
			cv.vecs[i] = x
			if sum == nil {
				sum = make([]float64, len(x))
			}
			for j, f := range x {
				sum[j] += float64(f)
			}
		}
		if sum != nil {
			m := make([]float32, len(sum))
			for j, f := range sum {
				m[j] = float32(f)
			}
			cv.mean = unit(m)
		}
		v.chapters[c.Path] = cv
	}
	return v
}

// unit returns x scaled to unit length, or nil for an empty or zero
// vector (or one holding NaN or Inf).
func unit(x []float32) []float32 {
	if len(x) == 0 {
		return nil
	}
	var s float64
	for _, f := range x {
		s += float64(f) * float64(f)
	}
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return nil
	}
	n := math.Sqrt(s)
	out := make([]float32, len(x))
	for i, f := range x {
		out[i] = float32(float64(f) / n)
	}
	return out
}

// dot is the dot product of two vectors of the same length, in float32
// with eight running sums (it is the inner loop of ranking thousands of
// passages). Each product is rounded by an explicit conversion, which Go
// guarantees is never fused with the add: the same vectors give the same
// bits on every machine, whether or not it has fused multiply-add.
func dot(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x, y := a[i:i+8:i+8], b[i:i+8:i+8]
		s0 += float32(x[0] * y[0])
		s1 += float32(x[1] * y[1])
		s2 += float32(x[2] * y[2])
		s3 += float32(x[3] * y[3])
		s4 += float32(x[4] * y[4])
		s5 += float32(x[5] * y[5])
		s6 += float32(x[6] * y[6])
		s7 += float32(x[7] * y[7])
	}
	for ; i < len(a); i++ {
		s0 += float32(a[i] * b[i])
	}
	return float64(((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)))
}

// semantic is an assembly's usable similarity input.
type semantic struct {
	vecs   *Vectors
	query  []float32
	weight float64
}

// semanticOf checks s and returns what the assembly can use, or nil and
// the note its provenance gives instead.
func semanticOf(s *Semantic) (*semantic, string) {
	if s == nil {
		return nil, ""
	}
	const lexical = "; the manuscript was searched lexically only"
	switch {
	case s.Unavailable != "":
		return nil, "embeddings unavailable: " + s.Unavailable + lexical
	case s.Vectors == nil || s.Vectors.Dims == 0:
		return nil, "embeddings unavailable: the manuscript has no vectors yet" + lexical
	}
	q := unit(s.Query)
	if q == nil {
		return nil, "embeddings unavailable: the prompt has no vector" + lexical
	}
	if len(q) != s.Vectors.Dims {
		return nil, fmt.Sprintf("embeddings unavailable: the prompt's vector has %d dimensions, the manuscript's %d%s", len(q), s.Vectors.Dims, lexical)
	}
	w := s.Weight
	if w <= 0 {
		w = DefaultSemanticWeight
	}
	return &semantic{vecs: s.Vectors, query: q, weight: w}, ""
}

// note is what the provenance says of usable embeddings.
func (s *semantic) note() string {
	v := s.vecs
	n := fmt.Sprintf("embeddings: %s, %d passages", v.Model, v.Passages-v.Missing)
	if v.Missing > 0 {
		n += fmt.Sprintf(" (%d without a vector", v.Missing)
		if v.Note != "" {
			n += ": " + v.Note
		}
		n += ")"
	}
	return n
}

// scored is an id with its search score.
type scored struct {
	id    string
	score float64
}

func byScore(x, y scored) int {
	if c := cmp.Compare(y.score, x.score); c != 0 {
		return c
	}
	return cmp.Compare(x.id, y.id)
}

// rrfK is the constant of reciprocal-rank fusion: rank r counts
// 1/(rrfK+r), so that no score scale has to be matched; a small constant
// keeps the top ranks apart.
const rrfK = 10

// DefaultSemanticWeight is how much the ranking by meaning counts in the
// fusion against the lexical ranking (1). A model, when configured, may
// only add: a small weight reorders what both searches find without
// overturning the lexical evidence, and what only the model finds enters
// through semanticExtras. Measured on the shared Pride and Prejudice sets
// with the scripted stand-in (a bag of words, a weak signal): weights of
// 0.5 and more lost evidence at 8k; 0.2 kept the main set's figures and
// moved the hard set's evidence by one query either way.
const DefaultSemanticWeight = 0.2

// semanticExtras are the passages (and chapters, half as many) that only
// the ranking by meaning finds, placed right after the lexical core
// whatever their fused rank: what a paraphrase finds gets its chance.
const semanticExtras = 4

// semanticRanks are the similarity rankings of one assembly, for the
// reasons it gives.
type semanticRanks struct {
	chCos, pCos map[string]float64 // cosine by chapter path, by passage id
	lexCh, lexP map[string]bool    // found by the lexical search
}

// scopeChapters returns the chapter paths whose mean vectors are closest
// to the query, best first: the arc-first scan of a long work keeps the
// arcs that hold them.
func (s *semantic) scopeChapters(chs []*Chapter, k int) []string {
	var r []scored
	for _, c := range chs {
		cv := s.vecs.chapters[c.Path]
		if cv == nil || cv.mean == nil || cv.hash != c.Hash {
			continue
		}
		r = append(r, scored{c.Path, dot(s.query, cv.mean)})
	}
	slices.SortFunc(r, byScore)
	out := make([]string, 0, k)
	for i := 0; i < len(r) && i < k; i++ {
		out = append(out, r[i].id)
	}
	return out
}

// fuse blends the lexical rankings of chapters and passages with their
// similarity to the query by reciprocal-rank fusion. inScope are the
// chapters searched (before the one being written, in the arcs scanned).
// Ties go by id: the same inputs give the same order.
func (s *semantic) fuse(inScope map[string]*Chapter, chRank, pRank []scored) ([]scored, []scored, *semanticRanks) {
	sr := &semanticRanks{chCos: map[string]float64{}, pCos: map[string]float64{}, lexCh: map[string]bool{}, lexP: map[string]bool{}}
	// Passage ids are made only for the best: ties are broken by the
	// chapter's path and the passage's start, a total order without them.
	type hit struct {
		c     *Chapter
		i     int
		score float64
	}
	var hs []hit
	var cs []scored
	for path, c := range inScope {
		cv := s.vecs.chapters[path]
		if cv == nil || cv.hash != c.Hash || len(cv.starts) != len(c.Passages) {
			continue // vectors of another version of the chapter
		}
		best := math.Inf(-1)
		for i, v := range cv.vecs {
			if v == nil {
				continue
			}
			x := dot(s.query, v)
			best = math.Max(best, x)
			hs = append(hs, hit{c, i, x})
		}
		if !math.IsInf(best, -1) {
			cs = append(cs, scored{path, best})
		}
	}
	slices.SortFunc(hs, func(x, y hit) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		if c := cmp.Compare(x.c.Path, y.c.Path); c != 0 {
			return c
		}
		return cmp.Compare(x.c.Passages[x.i].Start, y.c.Passages[y.i].Start)
	})
	ps := make([]scored, 0, min(len(hs), passagesRanked))
	for _, h := range hs[:min(len(hs), passagesRanked)] {
		p := h.c.Passages[h.i]
		ps = append(ps, scored{PassageID(h.c.Path, p.Start, p.End), h.score})
	}
	slices.SortFunc(cs, byScore)
	ps = closest(ps, passagesRanked)
	cs = closest(cs, maxChapters)
	for _, x := range ps {
		sr.pCos[x.id] = x.score
	}
	for _, x := range cs {
		sr.chCos[x.id] = x.score
	}
	for _, x := range chRank {
		sr.lexCh[x.id] = true
	}
	for _, x := range pRank {
		sr.lexP[x.id] = true
	}
	fc := withExtras(rrf(chRank, cs, s.weight), cs, sr.lexCh, coreChapters, semanticExtras/2)
	fp := withExtras(rrf(pRank, ps, s.weight), ps, sr.lexP, corePassages, semanticExtras)
	return fc, fp, sr
}

// semanticFloor is the part of the best cosine a candidate needs to be
// ranked by meaning at all: the ranks of fusion ignore scores, and a text
// that shares nothing with the prompt must not enter as "similar".
const semanticFloor = 0.5

// closest keeps at most n of xs (sorted best first) whose cosine is
// positive and at least semanticFloor of the best one's.
func closest(xs []scored, n int) []scored {
	if len(xs) == 0 {
		return xs
	}
	floor := math.Max(0, semanticFloor*xs[0].score)
	i := 0
	for i < len(xs) && i < n && xs[i].score > floor {
		i++
	}
	return xs[:i]
}

// rrf fuses two rankings, each best first: the lexical one a, and b by
// meaning, which counts w as much.
func rrf(a, b []scored, w float64) []scored {
	f := map[string]float64{}
	for r, x := range a {
		f[x.id] += 1 / float64(rrfK+r+1)
	}
	for r, x := range b {
		f[x.id] += w / float64(rrfK+r+1)
	}
	out := make([]scored, 0, len(f))
	for id, x := range f {
		out = append(out, scored{id, x})
	}
	slices.SortFunc(out, byScore)
	return out
}

// chapterReason says why a chapter ranks where it does: lexical is the
// lexical search's reason.
func (sr *semanticRanks) chapterReason(path, lexical string) string {
	if sr == nil {
		return lexical
	}
	c, sem := sr.chCos[path]
	switch {
	case !sem:
		return lexical
	case !sr.lexCh[path]:
		return fmt.Sprintf("similar in meaning to the prompt (cos %.2f); %s", c, lexical)
	default:
		return fmt.Sprintf("%s; similar in meaning to the prompt (cos %.2f)", lexical, c)
	}
}

// passageReason is chapterReason for a passage; lexical is called only
// when the lexical search found it.
func (sr *semanticRanks) passageReason(id string, rank, chapter int, lexical func() string) string {
	if sr == nil {
		return lexical()
	}
	c, sem := sr.pCos[id]
	switch {
	case !sem:
		return lexical()
	case !sr.lexP[id]:
		return fmt.Sprintf("passage rank %d: similar in meaning to the prompt (cos %.2f) in chapter %d", rank, c, chapter)
	default:
		return fmt.Sprintf("%s; similar in meaning to the prompt (cos %.2f)", lexical(), c)
	}
}

// withExtras moves the best n items of sem that the lexical search did
// not find (lex) up to just after the first core items of fused, when
// fusion ranked them lower; they keep their fused order.
func withExtras(fused, sem []scored, lex map[string]bool, core, n int) []scored {
	var extra []string
	for _, x := range sem {
		if len(extra) == n {
			break
		}
		if !lex[x.id] {
			extra = append(extra, x.id)
		}
	}
	if len(extra) == 0 || len(fused) <= core {
		return fused
	}
	move := map[string]bool{}
	for _, id := range extra {
		if i := slices.IndexFunc(fused, func(x scored) bool { return x.id == id }); i > core {
			move[id] = true
		}
	}
	if len(move) == 0 {
		return fused
	}
	out := make([]scored, 0, len(fused))
	var moved []scored
	for _, x := range fused {
		if move[x.id] {
			moved = append(moved, x)
		}
	}
	for i, x := range fused {
		if i == core {
			out = append(out, moved...)
		}
		if !move[x.id] {
			out = append(out, x)
		}
	}
	return out
}
