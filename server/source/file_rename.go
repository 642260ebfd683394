package source

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// A PathMove is a file or a folder of the project moving from Old to New
// (absolute paths).
type PathMove struct{ Old, New string }

// A SpanEdit replaces a span of a file's text.
type SpanEdit struct {
	Span    workflowlang.Span
	NewText string

	// The line of Span.Start and where it starts, as the file's summary
	// has them: a range is made without the tree of a closed file.
	line, lineStart int
}

// A FileEdit is what one workflow needs changed.
type FileEdit struct {
	File  *cache.File
	Edits []SpanEdit // in source order, not overlapping
}

// Apply returns the workflow's text with the edits made.
func (e FileEdit) Apply() []byte {
	var b []byte
	last := 0
	for _, ed := range e.Edits {
		b = append(b, e.File.Src[last:ed.Span.Start]...)
		b = append(b, ed.NewText...)
		last = ed.Span.End
	}
	return append(b, e.File.Src[last:]...)
}

// TextEdits returns the edits as LSP text edits, columns counted in enc.
func (e FileEdit) TextEdits(enc workflowlang.Encoding) []protocol.TextEdit {
	return e.appendTextEdits(make([]protocol.TextEdit, 0, len(e.Edits)), enc)
}

func (e FileEdit) appendTextEdits(dst []protocol.TextEdit, enc workflowlang.Encoding) []protocol.TextEdit {
	for _, ed := range e.Edits {
		w := lineWalker{src: e.File.Src, off: ed.lineStart, line: ed.line, start: ed.lineStart}
		start := w.position(ed.Span.Start, enc)
		dst = append(dst, protocol.TextEdit{Range: protocol.Range{Start: start, End: w.position(ed.Span.End, enc)}, NewText: ed.NewText})
	}
	return dst
}

// movedTo is where p is after moves, and whether it moves at all.
func movedTo(p string, moves []PathMove) (string, bool) {
	for _, m := range moves {
		if p == m.Old {
			return m.New, true
		}
		if strings.HasPrefix(p, m.Old) && len(p) > len(m.Old) && os.IsPathSeparator(p[len(m.Old)]) {
			return m.New + p[len(m.Old):], true
		}
	}
	return p, false
}

// MoveEdits returns the edits that keep every workflow of snap naming the
// same files once moves are made: the {{@path}} of each moved knowledge
// file (at any level, in prompts, `use` arguments and input defaults), and
// the path of each `use` whose file moves or whose workflow moves (a
// relative path changes with either end). The edits are against the
// current texts and the workflows are named by their current paths: an
// editor applies them before it renames. Workflows come in key order.
//
// broken lists the references moves break that no edit can mend: a
// knowledge file moved out of the knowledge folders, a path a string
// cannot hold. Nothing else is touched: comments, prompt text and
// `persist` targets stay as they are.
//
// The workflows are not read: the snapshot's index of what names what
// gives the references the moves reach, with their places.
func MoveEdits(snap *cache.Snapshot, moves []PathMove) (out []FileEdit, broken []string) {
	if len(moves) == 0 {
		return nil, nil
	}
	// The resources that move, in the order of their paths (a later one
	// of the same path wins, as in the snapshot's own lookup), and the
	// resource paths that change, old -> new ("" when the file leaves
	// the knowledge folders).
	var moved []*cache.Resource
	for _, m := range moves {
		for _, r := range snap.ResourcesUnder(m.Old) {
			if !slices.Contains(moved, r) {
				moved = append(moved, r)
			}
		}
	}
	// Two files can be one resource (x.md and x/content.md): the one the
	// snapshot resolves the path to comes last, as in its own order.
	winner := func(r *cache.Resource) int {
		if w, _ := snap.Resource(r.Path); w == r {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(moved, func(a, b *cache.Resource) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(winner(a), winner(b)))
	})
	renamed := map[string]string{}
	var renamedOrder []string
	for _, r := range moved {
		nf, _ := movedTo(r.File, moves)
		np, _ := snap.KnowledgePath(nf)
		if np != r.Path {
			if _, seen := renamed[r.Path]; !seen {
				renamedOrder = append(renamedOrder, r.Path)
			}
			renamed[r.Path] = np
		}
	}

	// What each workflow needs, and what breaks, ordered as a walk of the
	// workflows by key would meet them: uses before knowledge references,
	// each in source order.
	type found struct {
		file   *cache.File
		kind   int // 0: a use, 1: a knowledge reference
		ord    int
		edit   SpanEdit
		broken string
	}
	var all []found
	seenUse := map[*cache.Site]bool{}
	use := func(n cache.Named) {
		if seenUse[n.Site] {
			return
		}
		seenUse[n.Site] = true
		f := n.File
		target := snap.Summary(f).Uses[n.Ord].Target
		if _, ok := snap.FileByPath(target); !ok {
			return // a broken use stays as the author wrote it
		}
		newPath, fileMoves := movedTo(f.Path, moves)
		newTarget, targetMoves := movedTo(target, moves)
		if !fileMoves && !targetMoves {
			return
		}
		at := found{file: f, ord: n.Ord}
		rel, err := filepath.Rel(filepath.Dir(newPath), newTarget)
		switch {
		case err != nil:
			at.broken = fmt.Sprintf("%s: use %q: %v", f.Path, n.Site.Path, err)
		case filepath.ToSlash(rel) == n.Site.Path:
			return
		case strings.ContainsAny(filepath.ToSlash(rel), "\"\\\n\r\t"):
			at.broken = fmt.Sprintf("%s: use %q: the new path %q cannot be written in a string", f.Path, n.Site.Path, filepath.ToSlash(rel))
		default:
			at.edit = SpanEdit{Span: n.Site.Span, NewText: filepath.ToSlash(rel), line: n.Site.Line, lineStart: n.Site.LineStart}
		}
		all = append(all, at)
	}
	for _, m := range moves {
		// The uses of moved files, and the moving workflows' own uses.
		for _, n := range snap.UsesUnder(m.Old) {
			use(n)
		}
		for _, f := range snap.FilesUnder(m.Old) {
			for i := range snap.Summary(f).Uses {
				use(cache.Named{File: f, Site: &snap.Summary(f).Uses[i].At, Ord: i})
			}
		}
	}
	for _, old := range renamedOrder {
		np := renamed[old]
		refs := snap.KnowledgeRefs(old)
		all = slices.Grow(all, len(refs))
		for _, n := range refs {
			at := found{file: n.File, kind: 1, ord: n.Ord}
			if np == "" {
				at.broken = fmt.Sprintf("%s: {{@%s}} names a file that leaves the knowledge folders (%s)", n.File.Path, old, strings.Join(project.KnowledgeDirs, ", "))
			} else {
				at.edit = SpanEdit{Span: n.Site.Span, NewText: np, line: n.Site.Line, lineStart: n.Site.LineStart}
			}
			all = append(all, at)
		}
	}
	slices.SortStableFunc(all, func(a, b found) int {
		return cmp.Or(strings.Compare(string(a.file.Key), string(b.file.Key)), cmp.Compare(a.kind, b.kind), cmp.Compare(a.ord, b.ord))
	})
	// One array holds every edit, each workflow's a slice of it.
	edits := make([]SpanEdit, 0, len(all))
	for _, at := range all {
		if at.broken != "" {
			broken = append(broken, at.broken)
			continue
		}
		if len(out) == 0 || out[len(out)-1].File != at.file {
			out = append(out, FileEdit{File: at.file})
		}
		edits = append(edits, at.edit)
		fe := &out[len(out)-1]
		fe.Edits = edits[len(edits)-len(fe.Edits)-1 : len(edits) : len(edits)]
	}
	for i := range out {
		slices.SortFunc(out[i].Edits, func(a, b SpanEdit) int { return a.Span.Start - b.Span.Start })
	}
	return out, broken
}

// WorkspaceEdit is edits as an LSP workspace edit, each workflow by the
// URI the client knows it by; nil when there is nothing to change.
func WorkspaceEdit(edits []FileEdit, o Options) *protocol.WorkspaceEdit {
	if len(edits) == 0 {
		return nil
	}
	n := 0
	for _, fe := range edits {
		n += len(fe.Edits)
	}
	all := make([]protocol.TextEdit, 0, n)
	changes := make(map[protocol.DocumentURI][]protocol.TextEdit, len(edits))
	for _, fe := range edits {
		i := len(all)
		all = fe.appendTextEdits(all, o.Encoding)
		if prev, ok := changes[fe.File.URI]; ok { // one URI, two keys: not from MoveEdits
			changes[fe.File.URI] = append(prev, all[i:]...)
		} else {
			changes[fe.File.URI] = all[i:len(all):len(all)]
		}
	}
	return &protocol.WorkspaceEdit{Changes: changes}
}
