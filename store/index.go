package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/sourcegraph/conc/iter"
	bolt "go.etcd.io/bbolt"
)

// Resource kinds that are not entity kinds.
const (
	KindChapter    = "chapter"
	KindManuscript = "manuscript" // a manuscript file that is not a numbered chapter
	KindMeta       = "meta"
	KindProfile    = "profile"
	KindArc        = "arc" // summaries/arc-N.md
	KindSummary    = "summary"
)

// Resource is one indexed knowledge file.
type Resource struct {
	// Path is the resource path authors write after '@':
	// "manuscript/chapter-12", "entities/characters/lydia-bennet".
	Path string `json:"path"`
	// File is the file path relative to the root, with slashes.
	File string `json:"file"`
	// Dir is the knowledge folder: "meta", "entities", …
	Dir string `json:"dir"`
	// Kind is an entity kind ("character", "location", …) or one of the
	// Kind* constants.
	Kind string `json:"kind"`
	// Hash is the hex SHA-256 of the file as indexed.
	Hash string `json:"hash"`
	// BodyHash is the hex SHA-256 of the body (the file without its
	// front matter), the hash Role A keeps its indexes by: with it, Role
	// A learns which chapters changed without reading the book.
	BodyHash string `json:"body_hash,omitempty"`
	// Size is the file size in bytes; Chars the body's length in runes.
	Size  int `json:"size"`
	Chars int `json:"chars"`
	// Chapter is the chapter number of a manuscript chapter, else 0.
	Chapter int `json:"chapter,omitempty"`
	// Title is the entity's name, the front matter's name or title, or
	// the first Markdown heading.
	Title string `json:"title,omitempty"`
	// Names are an entity's name and aliases; Exclude the phrases that
	// contain a name but are not mentions.
	Names   []string `json:"names,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
	// Span is the chapter span an arc summary declares.
	Span [2]int `json:"span,omitempty"`
	// Diagnostics are problems with the file (broken front matter,
	// not UTF-8); the resource is indexed as far as it could be read.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// LevelHash is the content hash whose L0/L1 the resource has; it
	// differs from Hash while new levels are being produced.
	LevelHash string `json:"level_hash,omitempty"`
}

// Diagnostic is a problem with one file, at a 1-based line and column
// (0 when unknown).
type Diagnostic struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// String formats the diagnostic as file:line:col: message.
func (d Diagnostic) String() string {
	switch {
	case d.Line > 0 && d.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Col, d.Message)
	case d.Line > 0:
		return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Message)
	}
	return d.File + ": " + d.Message
}

// IndexReport says what an indexing pass did and what the project holds.
type IndexReport struct {
	Scanned   int `json:"scanned"`
	Added     int `json:"added"`
	Changed   int `json:"changed"`
	Removed   int `json:"removed"`
	Unchanged int `json:"unchanged"`
	// Diagnostics of the files indexed in this pass.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	Stats
}

// Stats counts what the store holds.
type Stats struct {
	Resources  int `json:"resources"`
	Chapters   int `json:"chapters"`
	Characters int `json:"characters"` // entities of kind character
	Entities   int `json:"entities"`
	Arcs       int `json:"arcs"`
	// TextChars is the number of characters (runes) of all bodies.
	TextChars int `json:"text_chars"`
	// PendingSummaries is the number of summary jobs in the queue.
	PendingSummaries int `json:"pending_summaries"`
	// PendingTasks is the number of queued tasks (see Enqueue).
	PendingTasks int `json:"pending_tasks"`
	// WithDiagnostics counts resources whose file has problems.
	WithDiagnostics int `json:"with_diagnostics"`
}

// Progress is told how far an indexing pass is: done of total files, and
// the file just handled.
type Progress func(done, total int, file string)

// scanned is one file read, hashed and parsed, ready to commit.
type scanned struct {
	file    string
	missing bool
	// sig is the file's stat signature as read ("" when not to be
	// recorded); same says the content was not read because the
	// recorded signature matched; refill that the content is unchanged
	// but the resource was indexed without its body's hash.
	sig    string
	same   bool
	refill bool
	res    Resource
	rels   []Relation
	terms  textsearch.TermCounts
}

// Index walks the knowledge folders, indexes every new or changed file
// (by content hash) and forgets removed ones. A file whose stat signature
// (size, times, inode: see statSig) is the one recorded when it was last
// read is taken as unchanged without reading it. Files are read and
// parsed in parallel; the changes commit in one transaction.
func (s *Store) Index(ctx context.Context, progress Progress) (IndexReport, error) {
	return s.index(ctx, progress, false)
}

// Walked returns the knowledge files (paths relative to the root, with
// slashes) that the last [Store.Index] or [Store.Rehash] of this Store
// found, in byte order; nil before one. A caller that just indexed asks
// it rather than stat the files again.
func (s *Store) Walked() []string {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	return s.walked
}

// Rehash is [Store.Index] reading and hashing every file, whatever its
// stat signature says (flowcabal index --rehash).
func (s *Store) Rehash(ctx context.Context, progress Progress) (IndexReport, error) {
	return s.index(ctx, progress, true)
}

func (s *Store) index(ctx context.Context, progress Progress, rehash bool) (IndexReport, error) {
	if s.readOnly {
		return IndexReport{}, ErrReadOnly
	}
	files, err := s.walk()
	if err != nil {
		return IndexReport{}, err
	}
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	s.walked = files
	known, err := s.resourceFiles()
	if err != nil {
		return IndexReport{}, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	for f := range known {
		if !seen[f] {
			files = append(files, f) // gone: scan reports it missing
		}
	}
	rep, err := s.indexFiles(ctx, files, known, progress, rehash)
	if err != nil {
		return rep, err
	}
	if err := s.flushSearch(); err != nil {
		return rep, err
	}
	return rep, nil
}

// Reindex indexes the named files (relative to the root, or absolute
// inside it), as the server does on file-change notifications. A file
// that no longer exists is forgotten; a folder stands for every file in
// it now and every indexed file that was in it (a folder deleted or
// renamed at once); files outside the knowledge folders or not Markdown
// are ignored. Unchanged files cost a read and a hash: the files named
// are always read, whatever their stat signature says, since an editor's
// report of a change is worth more than the file's times.
func (s *Store) Reindex(ctx context.Context, files ...string) (IndexReport, error) {
	if s.readOnly {
		return IndexReport{}, ErrReadOnly
	}
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	s.walked = files
	known, err := s.resourceFiles()
	if err != nil {
		return IndexReport{}, err
	}
	seen := map[string]bool{}
	var rels []string
	add := func(rel string) {
		if !seen[rel] {
			seen[rel] = true
			rels = append(rels, rel)
		}
	}
	for _, f := range files {
		if rel, ok := s.knowledgeFile(f); ok {
			add(rel)
			continue
		}
		dir, ok := s.knowledgeDir(f)
		if !ok {
			continue
		}
		for k := range known {
			if strings.HasPrefix(k, dir+"/") {
				add(k)
			}
		}
		inside, err := s.walkDir(dir)
		if err != nil {
			return IndexReport{}, err
		}
		for _, k := range inside {
			add(k)
		}
	}
	sort.Strings(rels)
	return s.indexFiles(ctx, rels, known, nil, true)
}

// knowledgeDir turns f into a folder path relative to the root, inside a
// knowledge folder (or one itself), and says whether it is one.
func (s *Store) knowledgeDir(f string) (string, bool) {
	if filepath.IsAbs(f) {
		r, err := filepath.Rel(s.root, f)
		if err != nil {
			return "", false
		}
		f = r
	}
	rel, err := project.CleanRel(filepath.ToSlash(f))
	if err != nil || strings.HasSuffix(rel, ".md") {
		return "", false
	}
	top, _, _ := strings.Cut(rel, "/")
	if !slices.Contains(project.KnowledgeDirs, top) {
		return "", false
	}
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") {
			return "", false
		}
	}
	if fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel))); err == nil && !fi.IsDir() {
		return "", false // a file that is not Markdown
	}
	return rel, true
}

// knowledgeFile turns f into a file path relative to the root and says
// whether it is a knowledge file.
func (s *Store) knowledgeFile(f string) (string, bool) {
	if filepath.IsAbs(f) {
		r, err := filepath.Rel(s.root, f)
		if err != nil {
			return "", false
		}
		f = r
	}
	rel, err := project.CleanRel(filepath.ToSlash(f))
	if err != nil || !strings.HasSuffix(rel, ".md") {
		return "", false
	}
	top, _, _ := strings.Cut(rel, "/")
	for _, d := range project.KnowledgeDirs {
		if top == d && rel != d {
			for _, part := range strings.Split(rel, "/") {
				if strings.HasPrefix(part, ".") {
					return "", false
				}
			}
			return rel, true
		}
	}
	return "", false
}

// walk lists the Markdown files of the knowledge folders, relative to the
// root, sorted. Hidden folders and symbolic links are skipped.
func (s *Store) walk() ([]string, error) {
	var files []string
	for _, dir := range project.KnowledgeDirs {
		f, err := s.walkDir(dir)
		if err != nil {
			return nil, err
		}
		files = append(files, f...)
	}
	sort.Strings(files)
	return files, nil
}

// walkDir lists the Markdown files under dir (relative to the root); a
// folder that does not exist has none.
func (s *Store) walkDir(dir string) ([]string, error) {
	var files []string
	base := filepath.Join(s.root, filepath.FromSlash(dir))
	err := filepath.WalkDir(base, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == base {
				return fs.SkipDir
			}
			return err
		}
		if de.IsDir() {
			if p != base && strings.HasPrefix(de.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".md") || strings.HasPrefix(de.Name(), ".") {
			return nil
		}
		rel, err := filepath.Rel(s.root, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index: walk %s: %w", dir, err)
	}
	return files, nil
}

// resourceFiles maps each indexed file to its resource.
func (s *Store) resourceFiles() (map[string]Resource, error) {
	out := map[string]Resource{}
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bResources).ForEach(func(k, v []byte) error {
			var r Resource
			if err := unmarshal(v, &r); err != nil {
				return err
			}
			out[r.File] = r
			return nil
		})
	})
	return out, err
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// indexFiles indexes files; unless rehash, a file whose stat signature
// is the recorded one is not read.
func (s *Store) indexFiles(ctx context.Context, files []string, known map[string]Resource, progress Progress, rehash bool) (IndexReport, error) {
	var rep IndexReport
	files = s.withAlternates(files, known)
	sigs, err := s.statSigs()
	if err != nil {
		return rep, err
	}
	now := time.Now()
	if s.clock != nil {
		now = s.clock()
	}
	total := len(files)
	done := make(chan string, 64)
	finished := make(chan struct{})
	go func() {
		n := 0
		for f := range done {
			n++
			if progress != nil {
				progress(n, total, f)
			}
		}
		close(finished)
	}()
	// A file is read and hashed; only a changed one is parsed and analysed.
	mapper := iter.Mapper[string, *scanned]{MaxGoroutines: 4}
	results := mapper.Map(files, func(f *string) *scanned {
		defer func() { done <- *f }()
		if ctx.Err() != nil {
			return nil
		}
		return s.scan(*f, known, sigs, rehash, now)
	})
	close(done)
	<-finished
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	var changes []*scanned
	newSigs := map[string]string{}
	var refills []Resource
	for i, sc := range results {
		rep.Scanned++
		if sc != nil && !sc.same && sc.sig != sigs[files[i]] {
			newSigs[files[i]] = sc.sig
		}
		if sc != nil && sc.refill {
			refills = append(refills, sc.res)
		}
		old, had := known[files[i]]
		if sc == nil {
			continue
		}
		switch {
		case sc.missing && !had:
			continue
		case had && !sc.missing && old.Hash == sc.res.Hash && old.Path == sc.res.Path:
			rep.Unchanged++
			continue
		}
		changes = append(changes, sc)
	}
	changes, rep.Diagnostics = resolveCollisions(changes, known, rep.Diagnostics)
	for _, sc := range changes {
		_, had := known[sc.file]
		switch {
		case sc.missing:
			rep.Removed++
		case had:
			rep.Changed++
		default:
			rep.Added++
		}
		if !sc.missing {
			rep.Diagnostics = append(rep.Diagnostics, sc.res.Diagnostics...)
		}
	}
	if len(changes) > 0 {
		// The search index is loaded only when it must change, so that a
		// warm start with nothing changed does not pay for it.
		if err := s.loadSearch(ctx); err != nil {
			return rep, err
		}
		if err := s.commit(changes, known, newSigs, refills); err != nil {
			return rep, err
		}
		s.notify()
	} else if len(newSigs) > 0 || len(refills) > 0 {
		// Only signatures moved (a file touched, or read for the first
		// time since this store recorded them), or resources of an older
		// flowcabal gained their bodies' hashes.
		if err := s.update(func(tx *bolt.Tx) error { return putLight(tx, newSigs, refills) }); err != nil {
			return rep, fmt.Errorf("index: %w", err)
		}
	}
	st, err := s.Stats()
	rep.Stats = st
	return rep, err
}

// withAlternates adds to files the other files that give the same
// resource path ("x.md" for "x/content.md" and back), so that when one
// goes or comes, the other is judged again.
func (s *Store) withAlternates(files []string, known map[string]Resource) []string {
	in := make(map[string]bool, len(files))
	for _, f := range files {
		in[f] = true
	}
	var extra []string
	for _, f := range files {
		p := project.ResourcePath(f)
		for _, alt := range []string{p + ".md", p + "/content.md"} {
			if in[alt] {
				continue
			}
			if _, ok := known[alt]; !ok {
				if _, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(alt))); err != nil {
					continue
				}
			}
			in[alt] = true
			extra = append(extra, alt)
		}
	}
	return append(files, extra...)
}

// resolveCollisions keeps one file per resource path
// ("manuscript/chapter-1.md" and "manuscript/chapter-1/content.md" are
// both "manuscript/chapter-1"): the first in byte order wins, whatever
// the order the files were indexed in, so that an incremental index
// agrees with one from scratch. A losing file is reported and left out;
// a losing file that was indexed is forgotten.
func resolveCollisions(changes []*scanned, known map[string]Resource, diags []Diagnostic) ([]*scanned, []Diagnostic) {
	owner := map[string]string{}
	for f, r := range known {
		owner[r.Path] = f
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].file < changes[j].file })
	for _, sc := range changes {
		if sc.missing {
			if r, ok := known[sc.file]; ok && owner[r.Path] == sc.file {
				delete(owner, r.Path)
			}
		}
	}
	var out []*scanned
	for _, sc := range changes {
		if sc.missing {
			out = append(out, sc)
			continue
		}
		p := sc.res.Path
		o, taken := owner[p]
		switch {
		case !taken || o == sc.file:
			owner[p] = sc.file
		case o < sc.file:
			diags = append(diags, Diagnostic{File: sc.file, Message: fmt.Sprintf("ignored: %s is already the resource %s", o, p)})
			continue
		default:
			// sc.file wins over an indexed file: forget that one.
			if _, ok := known[o]; ok {
				out = append(out, &scanned{file: o, missing: true})
			} else {
				out = slices.DeleteFunc(out, func(x *scanned) bool { return x.file == o })
			}
			diags = append(diags, Diagnostic{File: o, Message: fmt.Sprintf("ignored: %s is already the resource %s", sc.file, p)})
			owner[p] = sc.file
		}
		out = append(out, sc)
	}
	return out, diags
}

// scan reads one file; an unchanged file is returned with its old
// resource and nothing parsed. Unless rehash, a known file whose stat
// signature is the recorded one (sigs) is not even read. The signature is
// taken before the file is read: a write after it moves it again.
func (s *Store) scan(file string, known map[string]Resource, sigs map[string]string, rehash bool, now time.Time) *scanned {
	sc := &scanned{file: file}
	full := filepath.Join(s.root, filepath.FromSlash(file))
	fi, err := os.Lstat(full)
	if err != nil || !fi.Mode().IsRegular() {
		sc.missing = true
		return sc
	}
	sc.sig = statSig(fi, now)
	if old, ok := known[file]; ok && !rehash && sc.sig != "" && sigs[file] == sc.sig && (old.BodyHash != "" || old.Kind != KindChapter) {
		sc.res, sc.same = old, true
		return sc
	}
	if fi.Size() > knowledge.MaxFileSize {
		// Not read at all: its size and time stand in for a content hash.
		h := fmt.Sprintf("oversize:%d:%d", fi.Size(), fi.ModTime().UnixNano())
		if old, ok := known[file]; ok && old.Hash == h {
			sc.res = old
			return sc
		}
		r := Resource{Path: project.ResourcePath(file), File: file, Hash: h, Size: int(fi.Size())}
		r.Dir, _, _ = strings.Cut(file, "/")
		r.Kind = kindOf(r, nil)
		r.Diagnostics = []Diagnostic{{File: file, Message: fmt.Sprintf("file is %d bytes, more than the %d a knowledge file may have", fi.Size(), knowledge.MaxFileSize)}}
		sc.res = r
		return sc
	}
	s.reads.Add(1)
	data, err := os.ReadFile(full)
	if err != nil {
		sc.missing, sc.sig = errors.Is(err, fs.ErrNotExist), ""
		if !sc.missing {
			sc.res = Resource{Path: project.ResourcePath(file), File: file, Diagnostics: []Diagnostic{{File: file, Message: err.Error()}}}
		}
		return sc
	}
	h := hashOf(data)
	if old, ok := known[file]; ok && old.Hash == h {
		sc.res = old
		if old.BodyHash == "" {
			// Indexed by an older flowcabal: the resource gains its
			// body's hash, nothing else changes.
			if doc, _ := knowledge.ParseDocument(file, data); doc != nil {
				sc.res.BodyHash, sc.refill = bodyHash(doc.Body), true
			}
		}
		return sc
	}
	s.parse(sc, data, h)
	return sc
}

// bodyHash is the hex SHA-256 of a file's body.
func bodyHash(body string) string {
	sum := sha256.Sum256([]byte(body))
	return hex.EncodeToString(sum[:])
}

// parse fills sc from the file's data.
func (s *Store) parse(sc *scanned, data []byte, h string) {
	file := sc.file
	r := Resource{Path: project.ResourcePath(file), File: file, Hash: h, Size: len(data)}
	r.Dir, _, _ = strings.Cut(file, "/")
	sc.res = r
	if len(data) > knowledge.MaxFileSize || !utf8.Valid(data) {
		msg := "file is not valid UTF-8"
		if len(data) > knowledge.MaxFileSize {
			msg = fmt.Sprintf("file is %d bytes, more than the %d a knowledge file may have", len(data), knowledge.MaxFileSize)
		}
		sc.res.Kind = kindOf(r, nil)
		sc.res.Diagnostics = []Diagnostic{{File: file, Message: msg}}
		return
	}
	doc, err := knowledge.ParseDocument(file, data)
	if doc == nil {
		sc.res.Kind = kindOf(r, nil)
		sc.res.Diagnostics = []Diagnostic{{File: file, Message: err.Error()}}
		return
	}
	r.Diagnostics = appendDiagnostics(nil, file, err)
	r.Chars = utf8.RuneCountInString(doc.Body)
	r.BodyHash = bodyHash(doc.Body)
	r.Title = frontString(doc.Front, "name", "title")
	var ent *knowledge.Entity
	if r.Dir == "entities" && doc.Front != nil {
		e, eerr := knowledge.EntityFromDocument(doc)
		r.Diagnostics = appendDiagnostics(r.Diagnostics, file, eerr)
		if e != nil {
			ent = e
			r.Title = e.Name
			r.Names = e.Names()
			r.Exclude = e.Exclude
			for _, rel := range e.Relations {
				sc.rels = append(sc.rels, Relation{From: r.Path, To: rel.To, Kind: rel.Kind, Source: SourceFrontMatter})
			}
		}
	} else if doc.Front != nil {
		sc.rels = frontRelations(r.Path, doc.Front)
	}
	if r.Title == "" {
		r.Title = firstHeading(doc.Body)
	}
	r.Kind = kindOf(r, ent)
	if n, ok := knowledge.ChapterNumber(r.Path); ok && r.Dir == "manuscript" {
		r.Chapter = n
	}
	if r.Kind == KindArc {
		if a, b, ok := frontSpan(doc.Front); ok {
			r.Span = [2]int{a, b}
		} else if doc.Front != nil && doc.Front["chapters"] != nil {
			r.Diagnostics = append(r.Diagnostics, Diagnostic{File: file, Line: 2, Message: "chapters must be [first, last] chapter numbers"})
		}
	}
	for i := range sc.rels {
		to, err := project.CleanRel(sc.rels[i].To)
		if err != nil {
			r.Diagnostics = append(r.Diagnostics, Diagnostic{File: file, Message: fmt.Sprintf("relation to %q leaves the project", sc.rels[i].To)})
			sc.rels[i].To = ""
			continue
		}
		sc.rels[i].To = project.ResourcePath(to)
	}
	sc.rels = slicesDeleteEmpty(sc.rels)
	sc.res = r
	// What is searched: the names (so that a query for a name finds the
	// entity file) and the body.
	text := doc.Body
	if len(r.Names) > 0 {
		text = strings.Join(r.Names, " ") + "\n" + text
	} else if r.Title != "" {
		text = r.Title + "\n" + text
	}
	// Counted here, on every core, so that the one goroutine that adds
	// the files to the search index touches each distinct term once.
	sc.terms = textsearch.CountTerms(s.search.analyzer().Terms(text))
}

func slicesDeleteEmpty(rels []Relation) []Relation {
	out := rels[:0]
	for _, r := range rels {
		if r.To != "" && r.Kind != "" {
			out = append(out, r)
		}
	}
	return out
}

func appendDiagnostics(ds []Diagnostic, file string, err error) []Diagnostic {
	if err == nil {
		return ds
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var fe *knowledge.FrontMatterError
		if errors.As(e, &fe) {
			ds = append(ds, Diagnostic{File: file, Line: fe.Line, Col: fe.Col, Message: "front matter: " + fe.Msg})
		} else {
			ds = append(ds, Diagnostic{File: file, Message: e.Error()})
		}
	}
	return ds
}

func kindOf(r Resource, e *knowledge.Entity) string {
	switch r.Dir {
	case "entities":
		if e != nil && e.Kind != "" {
			return e.Kind
		}
		dir := path.Base(path.Dir(r.File))
		if dir == "entities" {
			return "entity"
		}
		return strings.TrimSuffix(dir, "s")
	case "manuscript":
		if _, ok := knowledge.ChapterNumber(r.Path); ok {
			return KindChapter
		}
		return KindManuscript
	case "meta":
		return KindMeta
	case "profiles":
		return KindProfile
	case "summaries":
		if _, ok := arcNumber(r.Path); ok {
			return KindArc
		}
		return KindSummary
	}
	return r.Dir
}

// arcNumber reads N from "summaries/arc-N".
func arcNumber(p string) (int, bool) {
	base := path.Base(p)
	if !strings.HasPrefix(base, "arc-") || path.Dir(p) != "summaries" {
		return 0, false
	}
	n := 0
	for _, c := range base[4:] {
		if c < '0' || c > '9' || n > 1e6 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(base) > 4 && n > 0
}

func frontString(front map[string]any, keys ...string) string {
	for _, k := range keys {
		if v, ok := front[k].(string); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func frontSpan(front map[string]any) (int, int, bool) {
	l, ok := front["chapters"].([]any)
	if !ok || len(l) != 2 {
		return 0, 0, false
	}
	a, ok1 := l[0].(int)
	b, ok2 := l[1].(int)
	if !ok1 || !ok2 || a <= 0 || b < a {
		return 0, 0, false
	}
	return a, b, true
}

func frontRelations(from string, front map[string]any) []Relation {
	l, ok := front["relations"].([]any)
	if !ok {
		return nil
	}
	var out []Relation
	for _, item := range l {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		to, _ := m["to"].(string)
		kind, _ := m["kind"].(string)
		if to != "" && kind != "" {
			out = append(out, Relation{From: from, To: to, Kind: kind, Source: SourceFrontMatter})
		}
	}
	return out
}

func firstHeading(body string) string {
	for line := range strings.Lines(body) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") {
			return strings.TrimSpace(strings.TrimLeft(t, "#"))
		}
		if t != "" {
			return ""
		}
	}
	return ""
}

// commit writes the changes and the files' new stat signatures in one
// transaction, then applies them to the in-memory search index.
func (s *Store) commit(changes []*scanned, known map[string]Resource, sigs map[string]string, refills []Resource) error {
	err := s.update(func(tx *bolt.Tx) error {
		if err := putLight(tx, sigs, refills); err != nil {
			return err
		}
		// All removals first: a file may give its resource path to another.
		for _, sc := range changes {
			if old, had := known[sc.file]; had {
				if err := s.forget(tx, old); err != nil {
					return err
				}
			}
		}
		for _, sc := range changes {
			if !sc.missing {
				if err := s.put(tx, sc, known[sc.file]); err != nil {
					return err
				}
			}
		}
		return s.rebuildArcs(tx)
	})
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	s.search.apply(changes, known)
	s.gen.Add(1)
	return nil
}

// putLight records what changes no content: the files' stat signatures
// and the resources that gained their bodies' hashes.
func putLight(tx *bolt.Tx, sigs map[string]string, refills []Resource) error {
	if err := putStatSigs(tx, sigs); err != nil {
		return err
	}
	for _, r := range refills {
		if err := putJSON(tx.Bucket(bResources), r.Path, r); err != nil {
			return err
		}
	}
	return nil
}

// forget removes a resource and what hangs on it (its hash entry and its
// front matter relations); its levels stay, keyed by content, for a file
// that comes back with the same text.
func (s *Store) forget(tx *bolt.Tx, r Resource) error {
	if err := tx.Bucket(bResources).Delete([]byte(r.Path)); err != nil {
		return err
	}
	if r.Hash != "" {
		if err := tx.Bucket(bByHash).Delete([]byte(joinKey(r.Hash, r.Path))); err != nil {
			return err
		}
	}
	return deleteRelationsFrom(tx, r.Path, SourceFrontMatter)
}

func (s *Store) put(tx *bolt.Tx, sc *scanned, old Resource) error {
	r := sc.res
	if old.Path == r.Path && old.LevelHash != "" {
		r.LevelHash = old.LevelHash
	}
	if r.Hash != "" && tx.Bucket(bLevels).Get([]byte(r.Hash)) != nil {
		r.LevelHash = r.Hash
	}
	if err := putJSON(tx.Bucket(bResources), r.Path, r); err != nil {
		return err
	}
	if r.Hash == "" {
		return nil
	}
	if err := tx.Bucket(bByHash).Put([]byte(joinKey(r.Hash, r.Path)), []byte("{}")); err != nil {
		return err
	}
	for _, rel := range sc.rels {
		if err := putRelation(tx, rel); err != nil {
			return err
		}
	}
	if r.LevelHash != r.Hash && summarizable(r) {
		return enqueue(tx, Job{Hash: r.Hash, Kind: JobResource})
	}
	return nil
}

// summarizable reports whether a resource gets L0/L1: one with text.
func summarizable(r Resource) bool { return r.Hash != "" && r.Chars > 0 }

// Resource returns the indexed resource at a resource path (or its file
// path).
func (s *Store) Resource(p string) (Resource, error) {
	p = project.ResourcePath(p)
	var r Resource
	err := s.view(func(tx *bolt.Tx) error {
		ok, err := getJSON(tx.Bucket(bResources), p, &r)
		if err == nil && !ok {
			err = fmt.Errorf("resource %s: %w", p, ErrNotFound)
		}
		return err
	})
	return r, err
}

// ResourceQuery selects resources; zero fields match everything.
type ResourceQuery struct {
	Dir  string // "entities", "manuscript", …
	Kind string // "character", KindChapter, …
	// Prefix matches resource paths that start with it.
	Prefix string
	// FromChapter and ToChapter bound the chapter of chapters (inclusive;
	// 0 means unbounded); setting either keeps only chapters.
	FromChapter, ToChapter int
}

// Resources returns the resources matching q, chapters in chapter order
// first, then the rest by path.
func (s *Store) Resources(q ResourceQuery) ([]Resource, error) {
	var out []Resource
	prefix := q.Prefix
	if prefix == "" && q.Dir != "" {
		// A resource's path starts with its folder: only those keys are
		// read (the summaries among 3,000 chapters cost every resource's
		// decoding otherwise).
		prefix = q.Dir + "/"
	}
	err := s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bResources).Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, v = c.Next() {
			var r Resource
			if err := unmarshal(v, &r); err != nil {
				return err
			}
			if (q.Dir != "" && r.Dir != q.Dir) || (q.Kind != "" && r.Kind != q.Kind) {
				continue
			}
			if q.FromChapter > 0 || q.ToChapter > 0 {
				if r.Kind != KindChapter || (q.FromChapter > 0 && r.Chapter < q.FromChapter) || (q.ToChapter > 0 && r.Chapter > q.ToChapter) {
					continue
				}
			}
			out = append(out, r)
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Chapter > 0) != (b.Chapter > 0) {
			return a.Chapter > 0
		}
		if a.Chapter != b.Chapter {
			return a.Chapter < b.Chapter
		}
		return a.Path < b.Path
	})
	return out, err
}

// A ChapterFile is what [Store.ChapterFiles] says of a manuscript
// chapter.
type ChapterFile struct {
	Path     string `json:"path"`
	File     string `json:"file"`
	Chapter  int    `json:"chapter,omitempty"`
	BodyHash string `json:"body_hash,omitempty"`
	// Diagnostics are left as they are stored: only whether there are
	// any is asked.
	Diagnostics json.RawMessage `json:"diagnostics,omitempty"`
	Kind        string          `json:"kind"`
}

// ChapterFiles returns the indexed manuscript chapters in chapter order,
// reading only what says which file each is and what its body is; a
// resource is decoded in a fraction of the time [Store.Resources] takes,
// which matters at 3,000 chapters.
func (s *Store) ChapterFiles() ([]ChapterFile, error) {
	var out []ChapterFile
	err := s.view(func(tx *bolt.Tx) error {
		var keys, vals [][]byte // valid while tx is
		c := tx.Bucket(bResources).Cursor()
		p := []byte("manuscript/")
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			keys, vals = append(keys, k), append(vals, v)
		}
		// Decoded on every core: 3,000 records take a few milliseconds
		// each way, and Role A's update after one edit waits for them.
		all := make([]ChapterFile, len(vals))
		errs := make([]error, len(vals))
		workers := min(runtime.GOMAXPROCS(0), max(1, len(vals)/256))
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(vals); i += workers {
					if err := json.Unmarshal(vals[i], &all[i]); err != nil {
						errs[i] = fmt.Errorf("resource %s: %w", keys[i], err)
					}
				}
			})
		}
		wg.Wait()
		for i, r := range all {
			if errs[i] != nil {
				return errs[i]
			}
			if r.Kind == KindChapter {
				out = append(out, r)
			}
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Chapter < out[j].Chapter })
	return out, err
}

// Chapter returns the manuscript chapter numbered n (0 is a prologue).
func (s *Store) Chapter(n int) (Resource, error) {
	q := ResourceQuery{Dir: "manuscript", Kind: KindChapter, FromChapter: n, ToChapter: n}
	if n == 0 {
		// A zero bound means "no bound": ask for every chapter.
		q.FromChapter, q.ToChapter = 0, 0
	}
	rs, err := s.Resources(q)
	if err != nil {
		return Resource{}, err
	}
	for _, r := range rs {
		if r.Chapter == n {
			return r, nil
		}
	}
	return Resource{}, fmt.Errorf("chapter %d: %w", n, ErrNotFound)
}

// Diagnostics returns the problems of every indexed file, by file.
func (s *Store) Diagnostics() ([]Diagnostic, error) {
	rs, err := s.Resources(ResourceQuery{})
	if err != nil {
		return nil, err
	}
	var out []Diagnostic
	for _, r := range rs {
		out = append(out, r.Diagnostics...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

// Stats counts what the store holds.
func (s *Store) Stats() (Stats, error) {
	var st Stats
	err := s.view(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bResources).ForEach(func(k, v []byte) error {
			var r Resource
			if err := unmarshal(v, &r); err != nil {
				return err
			}
			st.Resources++
			st.TextChars += r.Chars
			if r.Kind == KindChapter {
				st.Chapters++
			}
			if r.Dir == "entities" {
				st.Entities++
				if r.Kind == "character" {
					st.Characters++
				}
			}
			if len(r.Diagnostics) > 0 {
				st.WithDiagnostics++
			}
			return nil
		}); err != nil {
			return err
		}
		st.Arcs = tx.Bucket(bArcs).Stats().KeyN
		st.PendingSummaries = tx.Bucket(bQueue).Stats().KeyN
		st.PendingTasks = tx.Bucket(bTasks).Stats().KeyN
		return nil
	})
	return st, err
}

// ReadBody returns the current text of a resource's file without its
// front matter, and the file's current hash.
func (s *Store) ReadBody(p string) (body, hash string, err error) {
	r, err := s.Resource(p)
	if err != nil {
		return "", "", err
	}
	return s.readBody(r.File)
}

func (s *Store) readBody(file string) (string, string, error) {
	data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(file)))
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", file, err)
	}
	h := hashOf(data)
	doc, _ := knowledge.ParseDocument(file, data)
	if doc == nil {
		return "", h, fmt.Errorf("read %s: not a readable text file", file)
	}
	return doc.Body, h, nil
}
