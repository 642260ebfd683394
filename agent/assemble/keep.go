package assemble

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/summarize"
	"github.com/flowcabal/flowcabal/textsearch"
)

// A Keeper keeps Role A's derived data across processes, as opaque values
// by key: the project store is one (store.Store).
type Keeper interface {
	// ReadRoleA calls fn with the values of keys, nil for a missing one;
	// they are valid only during fn.
	ReadRoleA(keys []string, fn func(values [][]byte) error) error
	// PutRoleA writes kv in one transaction; a nil value deletes.
	PutRoleA(kv map[string][]byte) error
}

// Keys of what a Builder keeps. A text's record is "t/" and its content
// hash.
const (
	keyManifest = "x/manifest"
	keyChapters = "x/chapters"
	keyPassages = "x/passages"
	keyArcs     = "x/arcs"
	keyText     = "t/"
)

// keptFormat changes whenever what is kept changes meaning; kept indexes
// of another format are rebuilt.
const keptFormat = 1

// manifest says what the kept indexes hold.
type manifest struct {
	Format int `json:"format"`
	// Probe is [probe] of the builder that made them: indexes made by an
	// analyser that cuts or folds text otherwise are rebuilt.
	Probe    string            `json:"probe"`
	Chapters map[string]string `json:"chapters"` // path -> content hash
	Arcs     map[string]string `json:"arcs"`     // path -> [arcSignature]
}

// textRecord is what is kept of a chapter's text: its passages and its
// extractive summary.
type textRecord struct {
	Passages   []int  `json:"p"` // start, end, start, end…
	Summarized bool   `json:"s,omitempty"`
	L0         string `json:"l0,omitempty"`
	L1         string `json:"l1,omitempty"`
	L0Tokens   int    `json:"t0,omitempty"`
	L1Tokens   int    `json:"t1,omitempty"`
	Method     string `json:"m,omitempty"`
}

func recordOf(d *derived) []byte {
	r := textRecord{Passages: make([]int, 0, 2*len(d.passages)), Summarized: d.summarized}
	for _, p := range d.passages {
		r.Passages = append(r.Passages, p.Start, p.End)
	}
	if d.summarized {
		r.L0, r.L1, r.L0Tokens, r.L1Tokens, r.Method = d.summary.L0, d.summary.L1, d.summary.L0Tokens, d.summary.L1Tokens, d.summary.Method
	}
	b, _ := json.Marshal(r)
	return b
}

func derivedOf(data []byte) (*derived, bool) {
	var r textRecord
	if json.Unmarshal(data, &r) != nil || len(r.Passages)%2 != 0 {
		return nil, false
	}
	d := &derived{kept: true, summarized: r.Summarized, passages: make([]textsearch.Passage, 0, len(r.Passages)/2)}
	for i := 0; i < len(r.Passages); i += 2 {
		d.passages = append(d.passages, textsearch.Passage{Start: r.Passages[i], End: r.Passages[i+1]})
	}
	if r.Summarized {
		d.summary = summarize.Summary{L0: r.L0, L1: r.L1, L0Tokens: r.L0Tokens, L1Tokens: r.L1Tokens, Method: r.Method}
	}
	return d, true
}

// probeText exercises the analyser's folding, bigrams, stemming and
// passage cutting.
const probeText = "賈寶玉笑道：「林妹妹，你往哪裡去？」黛玉不答。\n\n孫悟空掣出金箍棒，喝聲「變」！\n\nElizabeth was walking; the Bennets' carriages passed. It's Mr. Darcy's.\n"

// probe sums up how the builder analyses text, cuts passages and
// summarises.
func (b *Builder) probe() string {
	h := sha256.New()
	fmt.Fprintf(h, "%q\n%v\n%s\n", b.an.Terms(probeText), textsearch.Passages(probeText, 0), summarize.Method)
	return hex.EncodeToString(h.Sum(nil))
}

// keptIndexes are the manuscript's indexes as read from the Keeper and
// brought up to date by one Build.
type keptIndexes struct {
	b                        *Builder
	chapters, passages, arcs *textsearch.Index
	hashes                   []string                        // of the Build's chapters, in its order
	old                      map[string]string               // chapter path -> hash the indexes held when read
	oldPassages              map[string][]textsearch.Passage // of chapters changed or removed
	oldArcs, arcsNow         map[string]string
	loaded, changed          bool
	gone                     []string // hashes whose records are no longer needed
}

// loadKept reads the kept indexes for a Build of chs, or makes empty
// ones when none are kept (or they cannot be used); nil without a Keeper.
func (b *Builder) loadKept(chs []ChapterDoc) *keptIndexes {
	if b.Keep == nil {
		return nil
	}
	kx := &keptIndexes{b: b, hashes: make([]string, len(chs)), oldArcs: map[string]string{}, arcsNow: map[string]string{},
		old: map[string]string{}, oldPassages: map[string][]textsearch.Passage{}}
	now := make(map[string]string, len(chs))
	for i, c := range chs {
		kx.hashes[i] = hashOf(c.Text)
		now[c.Path] = kx.hashes[i]
	}
	kx.load(now)
	if !kx.loaded {
		dict := textsearch.NewDict()
		kx.chapters, kx.passages, kx.arcs = textsearch.NewIndexDict(0, 0, dict), textsearch.NewIndexDict(0, 0, dict), textsearch.NewIndexDict(0, 0, dict)
		kx.old, kx.oldArcs, kx.oldPassages = map[string]string{}, map[string]string{}, map[string][]textsearch.Passage{}
		kx.changed = true
	}
	// The records of the chapters as they are now, in one read.
	keys := make([]string, 0, len(chs))
	for _, h := range kx.hashes {
		if b.cached(h) == nil {
			keys = append(keys, keyText+h)
		}
	}
	_ = b.Keep.ReadRoleA(keys, func(vals [][]byte) error {
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, v := range vals {
			if v == nil {
				continue
			}
			if d, ok := derivedOf(v); ok {
				h := strings.TrimPrefix(keys[i], keyText)
				if b.derived[h] == nil {
					b.derived[h] = d
				}
			}
		}
		return nil
	})
	return kx
}

func (b *Builder) cached(h string) *derived {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.derived[h]
}

// load reads the manifest and the indexes; kx.loaded says whether they
// can be used for chapters now (path -> hash).
func (kx *keptIndexes) load(now map[string]string) {
	var m manifest
	err := kx.b.Keep.ReadRoleA([]string{keyManifest}, func(vals [][]byte) error {
		if vals[0] == nil {
			return errNotKept
		}
		return json.Unmarshal(vals[0], &m)
	})
	if err != nil || m.Format != keptFormat || m.Probe != kx.b.probe() {
		return
	}
	// The passages of the chapters that changed or went must leave the
	// passage index: their spans are in the old texts' records.
	var keys []string
	var paths []string
	for p, h := range m.Chapters {
		if now[p] != h {
			keys = append(keys, keyText+h)
			paths = append(paths, p)
		}
	}
	keys = append(keys, keyChapters, keyPassages, keyArcs)
	xs := []*textsearch.Index{textsearch.NewIndex(0, 0), textsearch.NewIndex(0, 0), textsearch.NewIndex(0, 0)}
	err = kx.b.Keep.ReadRoleA(keys, func(vals [][]byte) error {
		for i, p := range paths {
			d, ok := derivedOf(vals[i])
			if vals[i] == nil || !ok {
				return errNotKept
			}
			kx.oldPassages[p] = d.passages
			kx.gone = append(kx.gone, strings.TrimPrefix(keys[i], keyText))
		}
		for i, x := range xs {
			v := vals[len(paths)+i]
			if v == nil {
				return errNotKept
			}
			if err := x.UnmarshalBinary(v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return // rebuilt
	}
	kx.chapters, kx.passages, kx.arcs = xs[0], xs[1], xs[2]
	kx.old, kx.oldArcs = m.Chapters, m.Arcs
	if kx.oldArcs == nil {
		kx.oldArcs = map[string]string{}
	}
	kx.loaded = true
}

var errNotKept = errors.New("not kept")

// holds reports whether the indexes hold chapter path at content hash.
func (kx *keptIndexes) holds(path, hash string) bool {
	return kx.loaded && kx.old[path] == hash && kx.chapters.Has(path)
}

// drop removes chapter path as the indexes held it.
func (kx *keptIndexes) drop(path string) {
	if _, ok := kx.old[path]; !ok {
		return
	}
	kx.chapters.Remove(path)
	for _, p := range kx.oldPassages[path] {
		kx.passages.Remove(PassageID(path, p.Start, p.End))
	}
	delete(kx.old, path)
}

// dropGone removes the chapters that are no longer in the manuscript.
func (kx *keptIndexes) dropGone(chs []ChapterDoc) {
	have := make(map[string]bool, len(chs))
	for _, c := range chs {
		have[c.Path] = true
	}
	for p := range kx.old {
		if !have[p] {
			kx.drop(p)
			kx.changed = true
		}
	}
}

// arcSignature identifies an arc's index document: its chapters at their
// versions.
func arcSignature(paths []string, hash map[string]string) string {
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%s:%s\n", p, hash[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// arcFresh records arc path over chapter paths and reports whether the
// arc index must (re)index it.
func (kx *keptIndexes) arcFresh(path string, paths []string, chs []*Chapter) bool {
	hash := make(map[string]string, len(paths))
	for _, c := range chs {
		hash[c.Path] = c.Hash
	}
	sig := arcSignature(paths, hash)
	kx.arcsNow[path] = sig
	if kx.loaded && kx.oldArcs[path] == sig && kx.arcs.Has(path) {
		return false
	}
	kx.changed = true
	return true
}

// dropGoneArcs removes arcs that no longer exist.
func (kx *keptIndexes) dropGoneArcs(arcs []*Arc) {
	for p := range kx.oldArcs {
		if _, ok := kx.arcsNow[p]; !ok {
			kx.arcs.Remove(p)
			kx.changed = true
		}
	}
}

// Keep writes to the builder's Keeper what this snapshot changed in the
// kept indexes and the records of texts not kept yet, and reports
// whether it wrote anything. Without a Keeper it does nothing.
func (s *MemSnapshot) Keep() (bool, error) {
	kx := s.kept
	if kx == nil {
		return false, nil
	}
	kv := map[string][]byte{}
	for _, c := range s.chapters {
		if d := kx.b.cached(c.Hash); d != nil && !d.kept {
			kv[keyText+c.Hash] = recordOf(d)
		}
	}
	if !kx.changed && len(kv) == 0 {
		return false, nil
	}
	now := map[string]bool{}
	for _, c := range s.chapters {
		now[c.Hash] = true
	}
	for _, h := range kx.gone {
		if !now[h] {
			kv[keyText+h] = nil
		}
	}
	if kx.changed {
		m := manifest{Format: keptFormat, Probe: kx.b.probe(), Chapters: map[string]string{}, Arcs: kx.arcsNow}
		for _, c := range s.chapters {
			m.Chapters[c.Path] = c.Hash
		}
		kv[keyManifest], _ = json.Marshal(m)
		for k, x := range map[string]*textsearch.Index{keyChapters: s.chapterX, keyPassages: s.passageX, keyArcs: s.arcX} {
			data, err := x.MarshalBinary()
			if err != nil {
				return false, err
			}
			kv[k] = data
		}
	}
	if err := kx.b.Keep.PutRoleA(kv); err != nil {
		return false, err
	}
	for _, c := range s.chapters {
		if d := kx.b.cached(c.Hash); d != nil {
			kx.b.mu.Lock()
			d.kept = true
			kx.b.mu.Unlock()
		}
	}
	kx.changed = false
	return true, nil
}
