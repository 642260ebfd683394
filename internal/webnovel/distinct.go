package webnovel

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// ManifestFile is where [Generate] with Distinct writes the [Manifest],
// relative to the project: outside the knowledge folders, so no part of
// the product reads it.
const ManifestFile = "generated.json"

// A Manifest says where each source chapter's text went in a book made
// with Distinct.
type Manifest struct {
	Seed         uint64         `json:"seed"`
	Chapters     int            `json:"chapters"`
	ChapterChars int            `json:"chapter_chars"`
	OriginalPass int            `json:"original_pass"`
	Passes       []ManifestPass `json:"passes"`
	Sources      []SourceMap    `json:"sources"`
}

// A ManifestPass is one dealing of the books: the chapters it fills.
type ManifestPass struct {
	Pass      int  `json:"pass"`
	First     int  `json:"first"`
	Last      int  `json:"last"`
	Disguised bool `json:"disguised"`
	// Complete says the pass holds every source chapter (the last pass
	// may be cut short by the chapter count).
	Complete bool `json:"complete"`
}

// A SourceMap maps one chapter of a source book to the generated
// chapters holding its text.
type SourceMap struct {
	Book    string `json:"book"`
	Chapter int    `json:"chapter"`
	// Original are the chapters of the undisguised pass, which hold this
	// source chapter's text as it is and nothing else.
	Original []int `json:"original"`
	// Copies are the chapters of each disguised pass holding some of its
	// text (with the names replaced), which may hold other source
	// chapters' text too.
	Copies []PassChapters `json:"copies,omitempty"`
}

// PassChapters are the chapters of one pass.
type PassChapters struct {
	Pass     int   `json:"pass"`
	Chapters []int `json:"chapters"`
}

// ReadManifest reads the manifest of a project made with Distinct.
func ReadManifest(root string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(root, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("webnovel: read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("webnovel: read manifest %s: %w", filepath.Join(root, ManifestFile), err)
	}
	return &m, nil
}

// Source returns the map of chapter n of book, or nil.
func (m *Manifest) Source(book string, n int) *SourceMap {
	for i := range m.Sources {
		if m.Sources[i].Book == book && m.Sources[i].Chapter == n {
			return &m.Sources[i]
		}
	}
	return nil
}

// generateDistinct deals the passes of a Distinct book and writes its
// chapters and manifest.
func generateDistinct(dir string, o Options, paras []paragraph, rep *Report) error {
	orig := o.OriginalPass
	if orig == 0 {
		orig = 2
	}
	if orig < 1 {
		return fmt.Errorf("webnovel: the original pass must be 1 or later, not %d", orig)
	}
	dis, err := newDisguiser(o.Entities)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	man := Manifest{Seed: o.Seed, Chapters: o.Chapters, ChapterChars: o.ChapterChars, OriginalPass: orig}
	type key struct {
		book string
		ch   int
	}
	srcIndex := map[key]int{}
	for _, p := range paras {
		k := key{p.book, p.chapter}
		if _, ok := srcIndex[k]; !ok {
			srcIndex[k] = len(man.Sources)
			man.Sources = append(man.Sources, SourceMap{Book: p.book, Chapter: p.chapter})
		}
	}
	ch := 0 // chapters written
	var body strings.Builder
	bodyLen := 0
	var from []int // source indexes of the chapter being filled
	flush := func(pass int) error {
		if bodyLen == 0 {
			return nil
		}
		ch++
		text := fmt.Sprintf("# 第%d章\n\n", ch) + body.String()
		if err := write(dir, ChapterDir(ch)+"/content.md", text); err != nil {
			return err
		}
		rep.Chars += int64(utf8.RuneCountInString(text))
		rep.Bytes += int64(len(text))
		for _, s := range from {
			sm := &man.Sources[s]
			if pass == orig {
				sm.Original = append(sm.Original, ch)
				continue
			}
			if n := len(sm.Copies); n == 0 || sm.Copies[n-1].Pass != pass {
				sm.Copies = append(sm.Copies, PassChapters{Pass: pass})
			}
			c := &sm.Copies[len(sm.Copies)-1]
			if !slices.Contains(c.Chapters, ch) {
				c.Chapters = append(c.Chapters, ch)
			}
		}
		body.Reset()
		bodyLen, from = 0, from[:0]
		return nil
	}
	add := func(text string, src int) {
		body.WriteString(text)
		body.WriteString("\n\n")
		bodyLen += utf8.RuneCountInString(text)
		if !slices.Contains(from, src) {
			from = append(from, src)
		}
	}
	for pass := 1; ch < o.Chapters; pass++ {
		first := ch + 1
		complete := true
		if pass == orig {
			// Each source chapter is cut into whole chapters of its own,
			// as many as its size asks, of about equal size.
			for lo := 0; lo < len(paras) && complete; {
				hi := lo
				total := 0
				for hi < len(paras) && paras[hi].book == paras[lo].book && paras[hi].chapter == paras[lo].chapter {
					total += utf8.RuneCountInString(paras[hi].text)
					hi++
				}
				parts := max(1, (total+o.ChapterChars/2)/o.ChapterChars)
				src := srcIndex[key{paras[lo].book, paras[lo].chapter}]
				done, part := 0, 1
				for i := lo; i < hi; i++ {
					add(paras[i].text, src)
					done += utf8.RuneCountInString(paras[i].text)
					if i == hi-1 || (part < parts && done >= total*part/parts) {
						if ch == o.Chapters {
							complete = false
							break
						}
						if err := flush(pass); err != nil {
							return err
						}
						part++
					}
				}
				lo = hi
			}
		} else {
			names := dis.draw(o.Seed, pass)
			want := o.ChapterChars*85/100 + rng.IntN(o.ChapterChars*30/100+1)
			for i, p := range paras {
				if ch == o.Chapters {
					complete = false
					break
				}
				add(dis.apply(p.text, names), srcIndex[key{p.book, p.chapter}])
				if bodyLen >= want || i == len(paras)-1 {
					// A pass ends with its own chapter, so the original
					// pass starts a chapter.
					if err := flush(pass); err != nil {
						return err
					}
					want = o.ChapterChars*85/100 + rng.IntN(o.ChapterChars*30/100+1)
				}
			}
		}
		body.Reset()
		bodyLen, from = 0, from[:0]
		if ch >= first {
			man.Passes = append(man.Passes, ManifestPass{Pass: pass, First: first, Last: ch, Disguised: pass != orig, Complete: complete})
		}
		rep.Passes = pass
	}
	rep.Chapters = ch
	data, err := json.MarshalIndent(man, "", " ")
	if err != nil {
		return err
	}
	return write(dir, ManifestFile, string(data)+"\n")
}

// A disguiser replaces the names the entity files declare: in a
// disguised pass every episode is some other people's, so a search by
// name must tell the original from its copies, as it must tell one
// character's scenes from another's in a real long book.
type disguiser struct {
	folder  *textsearch.Folder
	matcher *textsearch.Matcher
	// surfaces are the declared names, folded, in a fixed order: each
	// character's full name first, then its given name, then the rest.
	surfaces []string
	given    map[string]string // folded given name -> folded full name it is derived from
	taken    map[string]bool   // declared surfaces, folded
	bigrams  map[string]bool   // bigrams of the declared surfaces, folded
	pool     []rune            // the characters names are drawn from
}

func newDisguiser(entityDirs []string) (*disguiser, error) {
	d := &disguiser{folder: textsearch.NewFolder(), given: map[string]string{}, taken: map[string]bool{}, bigrams: map[string]bool{}}
	var entries []textsearch.MatchEntry
	var ents []*knowledge.Entity
	for _, dir := range entityDirs {
		p, errs := knowledge.LoadProject(dir)
		if p == nil {
			return nil, fmt.Errorf("webnovel: read entities of %s: %v", dir, errs)
		}
		ents = append(ents, p.Entities...)
	}
	slices.SortFunc(ents, func(a, b *knowledge.Entity) int { return strings.Compare(a.Path, b.Path) })
	seen := map[string]bool{}
	addSurface := func(s string) {
		f := d.folder.Fold(s)
		if seen[f] {
			return
		}
		seen[f] = true
		d.surfaces = append(d.surfaces, f)
	}
	for _, e := range ents {
		names := e.Names()
		addSurface(names[0])
		// A three-character Chinese name's given name is how the text
		// mostly calls the character (寶玉 of 賈寶玉), as Role A's
		// matcher assumes too.
		if rs := []rune(d.folder.Fold(e.Name)); e.Kind == "character" && len(rs) == 3 && allCJK(rs) {
			g := string(rs[1:])
			if !seen[g] {
				d.given[g] = string(rs)
			}
			addSurface(g)
			names = append(names, g)
		}
		for _, n := range names[1:] {
			addSurface(n)
		}
		entries = append(entries, textsearch.MatchEntry{Key: e.Path, Names: names, Exclude: e.Exclude})
	}
	pool := map[rune]bool{}
	for _, s := range d.surfaces {
		d.taken[s] = true
		rs := []rune(s)
		for i, r := range rs {
			if textsearch.IsCJK(r) {
				pool[r] = true
			}
			if i > 0 {
				d.bigrams[string(rs[i-1:i+1])] = true
			}
		}
	}
	for r := range pool {
		d.pool = append(d.pool, r)
	}
	slices.Sort(d.pool)
	if len(d.pool) < 10 {
		return nil, fmt.Errorf("webnovel: the entity files declare too few Chinese names (%d characters) to disguise the passes", len(d.pool))
	}
	d.matcher = textsearch.NewMatcher(d.folder, entries)
	return d, nil
}

func allCJK(rs []rune) bool {
	for _, r := range rs {
		if !textsearch.IsCJK(r) {
			return false
		}
	}
	return true
}

// draw returns the names of one disguised pass: each declared surface
// (folded) to another of the same length, drawn from the seed and the
// pass, that is no declared name and shares no two-character run with
// one; a given name is the end of its full name's replacement.
func (d *disguiser) draw(seed uint64, pass int) map[string]string {
	rng := rand.New(rand.NewPCG(seed, uint64(pass)*0x9e3779b97f4a7c15+1))
	out := make(map[string]string, len(d.surfaces))
	used := map[string]bool{}
	fresh := func(n int, ok func(string) bool) string {
		var s string
		for try := 0; ; try++ {
			rs := make([]rune, n)
			for i := range rs {
				rs[i] = d.pool[rng.IntN(len(d.pool))]
			}
			s = string(rs)
			clean := !d.taken[s] && !used[s] && ok(s)
			for i := 1; clean && i < n; i++ {
				clean = !d.bigrams[string(rs[i-1:i+1])]
			}
			if clean || try > 10000 {
				return s
			}
		}
	}
	for _, s := range d.surfaces {
		if _, done := out[s]; done {
			continue
		}
		if full, ok := d.given[s]; ok {
			if r, ok := out[full]; ok {
				g := string([]rune(r)[1:])
				out[s], used[g] = g, true
				continue
			}
		}
		var givenOf string
		for g, full := range d.given {
			if full == s {
				givenOf = g
			}
		}
		r := fresh(utf8.RuneCountInString(s), func(c string) bool {
			// The given name cut from it must be free too.
			return givenOf == "" || (!d.taken[string([]rune(c)[1:])] && !used[string([]rune(c)[1:])])
		})
		out[s], used[r] = r, true
	}
	return out
}

// apply replaces every declared name in text by its name in names. A
// replacement may form a declared name with the text beside it (富如 +
// 來 is 如來): the text is read again until none is left.
func (d *disguiser) apply(text string, names map[string]string) string {
	for range 8 {
		out := d.applyOnce(text, names)
		if out == text {
			break
		}
		text = out
	}
	return text
}

func (d *disguiser) applyOnce(text string, names map[string]string) string {
	ms := d.matcher.Find(text)
	if len(ms) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if m.Start < last {
			continue // an ambiguous name: one mention per entity at one span
		}
		r, ok := names[d.folder.Fold(text[m.Start:m.End])]
		if !ok {
			continue
		}
		b.WriteString(text[last:m.Start])
		b.WriteString(r)
		last = m.End
	}
	b.WriteString(text[last:])
	return b.String()
}
