package assemble

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
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
	// SeekRoleA calls fn, for each of keys (each after prefix), with the
	// value of the greatest key at or before it that starts with prefix
	// (nil when none), in one read; it fails when guard is missing.
	SeekRoleA(guard, prefix string, keys []string, fn func(i int, value []byte) error) error
	// ScanRoleA calls fn with every key that starts with prefix and its
	// value, in key order.
	ScanRoleA(prefix string, fn func(key string, value []byte) error) error
	// PutRoleA writes kv in one transaction; a nil value deletes.
	PutRoleA(kv map[string][]byte) error
}

// Keys of what a Builder keeps. A text's record is "t/" and its content
// hash. Each index (c: chapters, p: passages) is kept as a base,
// written whole at a cold build and when its delta has grown, under
// "b/" and the base's generation ("b/GEN/c/d" its documents table,
// "b/GEN/c/t/" and a block's first term a block of postings), and a
// delta ("x/delta/c") rewritten at each change.
const (
	keyManifest = "x/manifest"
	keyDelta    = "x/delta/"
	keyBase     = "b/"
	keyText     = "t/"
)

// The indexes kept, by the letter of their keys. Arcs are searched from
// the chapter index (Index.SearchGroups); format 4 kept an arc index
// too ("a"), whose keys a new base deletes.
var keptKinds = [2]string{"c", "p"}

// keptFormat changes whenever what is kept changes meaning; kept indexes
// of another format are rebuilt.
const keptFormat = 5

// compactAt says when a delta is folded into a new base: when the
// chapters changed since the base are more than this share of the book
// (and more than compactMin), the next write rewrites the base.
const (
	compactShare = 10 // per cent
	compactMin   = 32
)

// manifest says what the kept indexes hold.
type manifest struct {
	Format int `json:"format"`
	// Probe is [probe] of the builder that made them: indexes made by an
	// analyser that cuts or folds text otherwise are rebuilt.
	Probe string `json:"probe"`
	// Gen names the base the deltas apply to.
	Gen      string            `json:"gen"`
	Chapters map[string]string `json:"chapters"` // path -> content hash
	// Summaries are the texts other than chapters whose records are
	// kept (arcs, entity files, meta, profiles, summaries): path ->
	// content hash.
	Summaries map[string]string `json:"summaries,omitempty"`
}

func baseKey(gen, kind, part string) string { return keyBase + gen + "/" + kind + "/" + part }

// A text's record is what is kept of a chapter's (or an arc's) text: its
// passages and its extractive summary. It is read for every chapter at
// every start, so it is a few varints and strings rather than JSON
// (decoding 3,000 JSON records cost about 90 ms):
//
//	recordMagic
//	uvarint n, then n passage spans (start, then end less start)
//	byte 1 when summarised, then L0, L1, Method (uvarint length, bytes)
//	and uvarint L0Tokens, L1Tokens; byte 0 otherwise
const recordMagic = "R1"

func recordOf(d *derived) []byte {
	n := len(recordMagic) + 1 + 4*len(d.passages)
	if d.summarized {
		n += len(d.summary.L0) + len(d.summary.L1) + len(d.summary.Method) + 16
	}
	b := append(make([]byte, 0, n), recordMagic...)
	b = binary.AppendUvarint(b, uint64(len(d.passages)))
	for _, p := range d.passages {
		b = binary.AppendUvarint(b, uint64(p.Start))
		b = binary.AppendUvarint(b, uint64(p.End-p.Start))
	}
	if !d.summarized {
		return append(b, 0)
	}
	b = append(b, 1)
	for _, s := range []string{d.summary.L0, d.summary.L1, d.summary.Method} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(d.summary.L0Tokens))
	return binary.AppendUvarint(b, uint64(d.summary.L1Tokens))
}

// derivedOf reads a record recordOf wrote; false when it is not one
// (another format's, or damaged), and the text is analysed again.
func derivedOf(data []byte) (*derived, bool) {
	if len(data) < len(recordMagic) || string(data[:len(recordMagic)]) != recordMagic {
		return nil, false
	}
	data = data[len(recordMagic):]
	bad := false
	uv := func() int {
		v, n := binary.Uvarint(data)
		if n <= 0 || v > math.MaxInt32 {
			bad = true
			return 0
		}
		data = data[n:]
		return int(v)
	}
	str := func() string {
		l := uv()
		if bad || l > len(data) {
			bad = true
			return ""
		}
		s := string(data[:l])
		data = data[l:]
		return s
	}
	np := uv()
	if bad || np > len(data) {
		return nil, false
	}
	d := &derived{kept: true, passages: make([]textsearch.Passage, 0, np)}
	for range np {
		start := uv()
		end := start + uv()
		if bad {
			return nil, false
		}
		d.passages = append(d.passages, textsearch.Passage{Start: start, End: end})
	}
	if len(data) == 0 {
		return nil, false
	}
	d.summarized = data[0] == 1
	data = data[1:]
	if d.summarized {
		d.summary.L0, d.summary.L1, d.summary.Method = str(), str(), str()
		d.summary.L0Tokens, d.summary.L1Tokens = uv(), uv()
	}
	if bad || len(data) != 0 {
		return nil, false
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
	b                  *Builder
	chapters, passages *textsearch.Index
	gen                string                          // the base read, "" when none
	hashes             []string                        // of the Build's chapters, in its order
	old                map[string]string               // chapter path -> hash the indexes held when read
	oldPassages        map[string][]textsearch.Passage // of chapters changed or removed
	oldSums            map[string]string               // arc path -> hash of the text whose record is kept
	loaded, changed    bool
	gone               []string // hashes whose records are no longer needed
}

// loadKept reads the kept indexes for a Build of chs, or makes empty
// ones when none are kept (or they cannot be used); nil without a Keeper.
func (b *Builder) loadKept(chs []ChapterDoc) *keptIndexes {
	if b.Keep == nil {
		return nil
	}
	kx := &keptIndexes{b: b, hashes: make([]string, len(chs)),
		old: map[string]string{}, oldPassages: map[string][]textsearch.Passage{}}
	now := make(map[string]string, len(chs))
	// Hashing the texts a server read (30 MB at 3,000 chapters) is done
	// on every core: the first hover waits for it.
	parallel(len(chs), runtime.GOMAXPROCS(0), func(i int) {
		if c := &chs[i]; c.lazy() || c.Hash != "" {
			kx.hashes[i] = c.Hash
		} else {
			kx.hashes[i] = hashOf(c.Text)
		}
	})
	for i, c := range chs {
		now[c.Path] = kx.hashes[i]
	}
	kx.load(now)
	if !kx.loaded {
		dict := textsearch.NewDict()
		kx.chapters, kx.passages = textsearch.NewIndexDict(0, 0, dict), textsearch.NewIndexDict(0, 0, dict)
		kx.old, kx.oldPassages = map[string]string{}, map[string][]textsearch.Passage{}
		kx.changed = true
	}
	// The records of the chapters as they are now, in one read.
	b.readRecords(kx.hashes)
	return kx
}

// readRecords reads from the Keeper the records of the texts of hashes
// not derived yet, in one read.
func (b *Builder) readRecords(hashes []string) {
	keys := make([]string, 0, len(hashes))
	for _, h := range hashes {
		if b.cached(h) == nil {
			keys = append(keys, keyText+h)
		}
	}
	if len(keys) == 0 {
		return
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
}

func (b *Builder) cached(h string) *derived {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.derived[h]
}

// load reads the manifest, the bases' documents tables and the deltas;
// kx.loaded says whether they can be used for chapters now (path ->
// hash). The bases' postings stay in the Keeper, read a query at a time.
func (kx *keptIndexes) load(now map[string]string) {
	var m manifest
	err := kx.b.Keep.ReadRoleA([]string{keyManifest}, func(vals [][]byte) error {
		if vals[0] == nil {
			return errNotKept
		}
		return json.Unmarshal(vals[0], &m)
	})
	if err != nil {
		return
	}
	kx.gen = m.Gen // its blocks are replaced even when not used
	if m.Format != keptFormat || m.Probe != kx.b.probe() || m.Gen == "" {
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
	for _, k := range keptKinds {
		keys = append(keys, baseKey(m.Gen, k, "d"), keyDelta+k)
	}
	var xs [len(keptKinds)]*textsearch.Index
	dict := textsearch.NewDict()
	err = kx.b.Keep.ReadRoleA(keys, func(vals [][]byte) error {
		for i, p := range paths {
			d, ok := derivedOf(vals[i])
			if vals[i] == nil || !ok {
				return errNotKept
			}
			kx.oldPassages[p] = d.passages
			kx.gone = append(kx.gone, strings.TrimPrefix(keys[i], keyText))
		}
		for i, k := range keptKinds {
			docs, delta := vals[len(paths)+2*i], vals[len(paths)+2*i+1]
			if docs == nil || delta == nil {
				return errNotKept
			}
			guard, prefix := baseKey(m.Gen, k, "d"), baseKey(m.Gen, k, "t/")
			fetch := func(terms []string, fn func(int, []byte) error) error {
				return kx.b.Keep.SeekRoleA(guard, prefix, terms, fn)
			}
			x, err := textsearch.OpenStored(docs, delta, fetch, dict)
			if err != nil {
				return err
			}
			xs[i] = x
		}
		return nil
	})
	if err != nil {
		kx.oldPassages, kx.gone = map[string][]textsearch.Passage{}, nil
		return // rebuilt
	}
	kx.chapters, kx.passages = xs[0], xs[1]
	kx.old, kx.oldSums = m.Chapters, m.Summaries
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

// Keep writes to the builder's Keeper what this snapshot changed in the
// kept indexes and the records of texts not kept yet, and reports
// whether it wrote anything. Without a Keeper it does nothing. After a
// few changes it writes the deltas; when they have grown (or nothing
// was kept) it writes the indexes whole as a new base.
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
	sums := map[string]string{}
	others := slices.Concat(s.meta, s.summaries)
	for _, p := range s.profiles {
		others = append(others, &p.Resource)
	}
	for _, e := range s.entities {
		others = append(others, &e.Resource)
	}
	for _, a := range s.arcs {
		others = append(others, &a.Resource)
	}
	for _, r := range others {
		if d := kx.b.cached(r.Hash); d != nil && d.summarized {
			sums[r.Path] = r.Hash
			if !d.kept {
				kv[keyText+r.Hash] = recordOf(d)
			}
		}
	}
	if !kx.changed && len(kv) == 0 {
		return false, nil
	}
	now := map[string]bool{}
	for _, c := range s.chapters {
		now[c.Hash] = true
	}
	for _, h := range sums {
		now[h] = true
	}
	for _, h := range kx.gone {
		if !now[h] {
			kv[keyText+h] = nil
		}
	}
	for _, h := range kx.oldSums {
		if !now[h] {
			kv[keyText+h] = nil
		}
	}
	gen := kx.gen
	if kx.changed {
		xs := [len(keptKinds)]*textsearch.Index{s.chapterX, s.passageX}
		grown := s.chapterX.DeltaDocs() + s.chapterX.DeadBase()
		rebase := !s.chapterX.Stored() || (grown > compactMin && grown*100 > compactShare*s.chapterX.Len())
		if rebase {
			if err := kx.writeBase(xs, kv); err != nil {
				return false, err
			}
			s.wroteBase = true
			gen = kx.gen
		} else {
			for i, k := range keptKinds {
				data, err := xs[i].EncodeDelta()
				if err != nil {
					return false, err
				}
				kv[keyDelta+k] = data
			}
		}
	}
	m := manifest{Format: keptFormat, Probe: kx.b.probe(), Gen: gen, Chapters: map[string]string{}, Summaries: sums}
	for _, c := range s.chapters {
		m.Chapters[c.Path] = c.Hash
	}
	kv[keyManifest], _ = json.Marshal(m)
	if err := kx.b.Keep.PutRoleA(kv); err != nil {
		return false, err
	}
	for h := range now {
		if d := kx.b.cached(h); d != nil {
			kx.b.mu.Lock()
			d.kept = true
			kx.b.mu.Unlock()
		}
	}
	kx.changed, kx.oldSums = false, sums
	return true, nil
}

// Err returns the first error met reading the kept indexes' postings
// from the Keeper since the snapshot was built (their base replaced by
// another process): its searches since then missed postings, and a new
// snapshot should be built.
func (s *MemSnapshot) Err() error {
	for _, x := range []*textsearch.Index{s.chapterX, s.passageX} {
		if err := x.Err(); err != nil {
			return err
		}
	}
	return nil
}

// WroteBase reports whether [MemSnapshot.Keep] wrote the indexes whole
// (a new base) rather than a delta.
func (s *MemSnapshot) WroteBase() bool { return s.wroteBase }

// writeBase adds to kv the indexes xs as a new base with empty deltas,
// and the deletion of the keys of every other base (and of the whole
// indexes an older format kept). The indexes read from a base are read
// whole first.
func (kx *keptIndexes) writeBase(xs [len(keptKinds)]*textsearch.Index, kv map[string][]byte) error {
	for i, k := range keptKinds {
		if !xs[i].Stored() {
			continue
		}
		prefix := baseKey(kx.gen, k, "t/")
		err := xs[i].Load(func(fn func([]byte) error) error {
			return kx.b.Keep.ScanRoleA(prefix, func(_ string, v []byte) error { return fn(v) })
		})
		if err != nil {
			return fmt.Errorf("read the kept index: %w", err)
		}
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	gen := hex.EncodeToString(rnd[:])
	if err := kx.b.Keep.ScanRoleA(keyBase, func(k string, _ []byte) error {
		kv[k] = nil
		return nil
	}); err != nil {
		return err
	}
	for _, k := range []string{"x/chapters", "x/passages", "x/arcs", keyDelta + "a"} { // formats 1 and 4
		kv[k] = nil
	}
	for i, k := range keptKinds {
		docs, blocks, err := xs[i].EncodeBase()
		if err != nil {
			return err
		}
		kv[baseKey(gen, k, "d")] = docs
		for _, bl := range blocks {
			kv[baseKey(gen, k, "t/")+bl.First] = bl.Data
		}
		// The in-memory index becomes the new base's: its delta is
		// empty.
		kv[keyDelta+k] = textsearch.EmptyDelta(xs[i].Len())
	}
	kx.gen = gen
	return nil
}
