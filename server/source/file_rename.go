package source

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	fastjson "github.com/segmentio/encoding/json"
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
	// site, when the edit is of a site of the summary, holds the UTF-16
	// columns of its ends (see cache.Site).
	site *cache.Site
}

// siteEdit is the edit of a summary's site to newText.
func siteEdit(st *cache.Site, newText string) SpanEdit {
	return SpanEdit{Span: st.Span, NewText: newText, line: st.Line, lineStart: st.LineStart, site: st}
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
		dst = append(dst, protocol.TextEdit{Range: e.lspRange(ed, enc), NewText: ed.NewText})
	}
	return dst
}

// lspRange is the range of ed, made from the line the summary gives it.
func (e FileEdit) lspRange(ed SpanEdit, enc workflowlang.Encoding) protocol.Range {
	return spanRange(e.File.Src, ed, enc)
}

// spanRange is the range of ed in src. A span on one line (every path
// is) has its start's column counted from the line's start, and its
// end's from the start; lineWalker gives the same for any other. The
// summary's lineStart is where the line of the span's start begins
// (its invariant): only the span itself is looked at for a newline.
func spanRange(src []byte, ed SpanEdit, enc workflowlang.Encoding) protocol.Range {
	if st := ed.site; st != nil && enc == workflowlang.UTF16 && st.End16 >= 0 && st.Span == ed.Span {
		return protocol.Range{
			Start: protocol.Position{Line: uint32(st.Line), Character: uint32(st.Col16)},
			End:   protocol.Position{Line: uint32(st.Line), Character: uint32(st.End16)},
		}
	}
	if s, t := ed.Span.Start, ed.Span.End; ed.lineStart <= s && s <= t && t <= len(src) && bytes.IndexByte(src[s:t], '\n') < 0 {
		col := workflowlang.Column(src[ed.lineStart:s], s-ed.lineStart, enc)
		return protocol.Range{
			Start: protocol.Position{Line: uint32(ed.line), Character: uint32(col)},
			End:   protocol.Position{Line: uint32(ed.line), Character: uint32(col + workflowlang.Column(src[s:t], t-s, enc))},
		}
	}
	w := lineWalker{src: src, off: ed.lineStart, line: ed.line, start: ed.lineStart}
	start := w.position(ed.Span.Start, enc)
	return protocol.Range{Start: start, End: w.position(ed.Span.End, enc)}
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
	m, broken := FindMove(snap, moves)
	return m.Edits(), broken
}

// A Move is what MoveEdits finds for moves: the edits, or, for the usual
// rename (one knowledge file, no use to edit), the references to
// rewrite and their new path, kept as the snapshot's index gives them so
// that the answer to an editor's willRenameFiles is written from them
// without a copy (AppendJSON).
type Move struct {
	edits []FileEdit
	refs  []cache.Named // by file key, then in source order
	path  string        // what each of refs becomes
}

// FindMove is MoveEdits with the edits kept as a Move.
func FindMove(snap *cache.Snapshot, moves []PathMove) (_ Move, broken []string) {
	if len(moves) == 0 {
		return Move{}, nil
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
			at.edit = siteEdit(n.Site, filepath.ToSlash(rel))
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
	if len(all) == 0 && len(renamedOrder) == 1 && renamed[renamedOrder[0]] != "" {
		return Move{refs: snap.KnowledgeRefs(renamedOrder[0]), path: renamed[renamedOrder[0]]}, nil
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
				at.edit = siteEdit(n.Site, np)
			}
			all = append(all, at)
		}
	}
	// The index gives each resource's references in that order already:
	// a rename of one file is usually sorted as found. Files are compared
	// by their keys only when they differ (one snapshot has one *File a
	// key), which spares most comparisons of long paths.
	order := func(a, b found) int {
		if a.file != b.file {
			return strings.Compare(string(a.file.Key), string(b.file.Key))
		}
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.ord, b.ord))
	}
	if !slices.IsSortedFunc(all, order) {
		slices.SortStableFunc(all, order)
	}
	// One array holds every edit, each workflow's a slice of it.
	edits := make([]SpanEdit, 0, len(all))
	out := make([]FileEdit, 0, len(all))
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
		if len(out[i].Edits) > 1 {
			slices.SortFunc(out[i].Edits, func(a, b SpanEdit) int { return a.Span.Start - b.Span.Start })
		}
	}
	if len(out) == 0 {
		out = nil
	}
	return Move{edits: out}, broken
}

// Edits returns the move's edits, workflows in key order.
func (m Move) Edits() []FileEdit {
	if len(m.refs) > 0 {
		return oneResourceEdits(m.refs, m.path)
	}
	return m.edits
}

// JSONSize is about what AppendJSON writes: 200 bytes or so an edit and
// its workflow's URI.
func (m Move) JSONSize() int {
	n := 32
	for i, r := range m.refs {
		if i == 0 || r.File != m.refs[i-1].File {
			n += len(r.File.URI)
		}
		n += 150
	}
	for _, fe := range m.edits {
		n += len(fe.File.URI) + 150*len(fe.Edits)
	}
	return n
}

// AppendJSON appends to dst the JSON of the move's workspace edit, as
// AppendWorkspaceEdit(dst, m.Edits(), o) writes it. The usual rename is
// written straight from its references when their workflows' URIs sort
// as their keys do and each one's references come by offset (as the
// index gives them), so that no edit is made to be written once.
func (m Move) AppendJSON(dst []byte, o Options) []byte {
	if !m.direct() {
		return AppendWorkspaceEdit(dst, m.Edits(), o)
	}
	dst = append(dst, `{"changes":{`...)
	var newText []byte
	for i, r := range m.refs {
		if i == 0 || r.File != m.refs[i-1].File {
			if i > 0 {
				dst = append(dst, "],"...)
			}
			dst = appendURI(dst, r.File)
			dst = append(dst, ":["...)
		} else {
			dst = append(dst, ',')
		}
		ed := siteEdit(r.Site, "")
		dst = appendTextEdit(dst, spanRange(r.File.Src, ed, o.Encoding))
		if newText == nil {
			at := len(dst)
			dst = fastjson.AppendEscape(dst, m.path, 0)
			newText = dst[at:len(dst):len(dst)]
		} else {
			dst = append(dst, newText...)
		}
		dst = append(dst, '}')
	}
	return append(dst, "]}}"...)
}

// oneResourceEdits is MoveEdits of the usual rename: one resource, its
// references refs (as KnowledgeRefs gives them: by file key, then in
// source order, the order MoveEdits gives) all rewritten to np, and no
// use to edit. The edits are made straight from the index's order, each
// workflow's by offset as MoveEdits has them.
func oneResourceEdits(refs []cache.Named, np string) []FileEdit {
	if len(refs) == 0 {
		return nil
	}
	edits := make([]SpanEdit, len(refs))
	out := make([]FileEdit, 0, len(refs))
	for i, n := range refs {
		edits[i] = siteEdit(n.Site, np)
		if len(out) == 0 || out[len(out)-1].File != n.File {
			out = append(out, FileEdit{File: n.File, Edits: edits[i : i+1 : i+1]})
		} else {
			fe := &out[len(out)-1]
			fe.Edits = edits[i-len(fe.Edits) : i+1 : i+1]
		}
	}
	for _, fe := range out {
		if len(fe.Edits) > 1 {
			slices.SortFunc(fe.Edits, func(a, b SpanEdit) int { return a.Span.Start - b.Span.Start })
		}
	}
	return out
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

// AppendWorkspaceEdit appends to dst the JSON of WorkspaceEdit(edits, o)
// as the server's encoder writes it, byte for byte ("null" when there is
// nothing to change), without making the workspace edit: the map of a
// rename that 50 workflows name, its keys sorted by reflection, and each
// edit encoded through reflection cost more than finding the edits, and
// willRenameFiles is asked before every rename an editor makes.
func AppendWorkspaceEdit(dst []byte, edits []FileEdit, o Options) []byte {
	if len(edits) == 0 {
		return append(dst, "null"...)
	}
	// A map's keys are written in the order of their bytes. MoveEdits
	// gives the workflows by key, which is that order unless a path
	// needs percent-escapes in its URI; a URI met twice keeps its edits
	// in the order WorkspaceEdit appends them.
	byURI := func(a, b FileEdit) int { return strings.Compare(string(a.File.URI), string(b.File.URI)) }
	if !slices.IsSortedFunc(edits, byURI) {
		edits = slices.Clone(edits)
		slices.SortStableFunc(edits, byURI)
	}
	dst = append(dst, `{"changes":{`...)
	// A rename writes one new path in every workflow: escaped once.
	var lastText string
	lastAt, lastEnd := -1, -1
	for i, fe := range edits {
		first := i == 0 || fe.File.URI != edits[i-1].File.URI
		if first {
			if i > 0 {
				dst = append(dst, "],"...)
			}
			dst = appendURI(dst, fe.File)
			dst = append(dst, ":["...)
		}
		for j, ed := range fe.Edits {
			if j > 0 || !first && len(dst) > 0 && dst[len(dst)-1] != '[' {
				dst = append(dst, ',')
			}
			dst = appendTextEdit(dst, fe.lspRange(ed, o.Encoding))
			if lastAt >= 0 && ed.NewText == lastText {
				dst = append(dst, dst[lastAt:lastEnd]...)
			} else {
				lastText, lastAt = ed.NewText, len(dst)
				dst = fastjson.AppendEscape(dst, ed.NewText, 0)
				lastEnd = len(dst)
			}
			dst = append(dst, '}')
		}
	}
	return append(dst, "]}}"...)
}

// direct reports whether AppendJSON writes m from its references: the
// usual rename, with its workflows' URIs in the order of their keys and
// each one's references by offset.
func (m Move) direct() bool {
	if len(m.refs) == 0 {
		return false
	}
	for i := 1; i < len(m.refs); i++ {
		a, b := m.refs[i-1], m.refs[i]
		if a.File == b.File && a.Site.Span.Start > b.Site.Span.Start || a.File != b.File && a.File.URI >= b.File.URI {
			return false
		}
	}
	return true
}

// appendTextEdit appends the start of a TextEdit's JSON, its range r and
// the key of its new text, which the caller writes.
func appendTextEdit(dst []byte, r protocol.Range) []byte {
	dst = append(dst, `{"range":{"start":{"line":`...)
	dst = strconv.AppendUint(dst, uint64(r.Start.Line), 10)
	dst = append(dst, `,"character":`...)
	dst = strconv.AppendUint(dst, uint64(r.Start.Character), 10)
	dst = append(dst, `},"end":{"line":`...)
	dst = strconv.AppendUint(dst, uint64(r.End.Line), 10)
	dst = append(dst, `,"character":`...)
	dst = strconv.AppendUint(dst, uint64(r.End.Character), 10)
	return append(dst, `}},"newText":`...)
}

// appendURI appends f's URI as a JSON string.
func appendURI(dst []byte, f *cache.File) []byte {
	if f.URIJSON != "" {
		return append(dst, f.URIJSON...)
	}
	return fastjson.AppendEscape(dst, string(f.URI), 0)
}
