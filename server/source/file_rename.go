package source

import (
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
}

// A FileEdit is what one workflow needs changed.
type FileEdit struct {
	File  *cache.File
	PF    *workflowlang.File
	Edits []SpanEdit // in source order, not overlapping
}

// Apply returns the workflow's text with the edits made.
func (e FileEdit) Apply() []byte {
	var b []byte
	last := 0
	for _, ed := range e.Edits {
		b = append(b, e.PF.Src[last:ed.Span.Start]...)
		b = append(b, ed.NewText...)
		last = ed.Span.End
	}
	return append(b, e.PF.Src[last:]...)
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
func MoveEdits(snap *cache.Snapshot, moves []PathMove) (out []FileEdit, broken []string) {
	if len(moves) == 0 {
		return nil, nil
	}
	// The resource paths that change, old -> new ("" when the file
	// leaves the knowledge folders).
	renamed := map[string]string{}
	for _, r := range snap.Resources() {
		nf, ok := movedTo(r.File, moves)
		if !ok {
			continue
		}
		np, _ := snap.KnowledgePath(nf)
		if np != r.Path {
			renamed[r.Path] = np
		}
	}
	for _, f := range snap.Files() {
		if f.Path == "" || !filepath.IsAbs(f.Path) {
			continue // uses of a document that is not a file resolve nowhere
		}
		newPath, fileMoves := movedTo(f.Path, moves)
		if !mayNeedEdits(snap.Summary(f), fileMoves, renamed, moves) {
			continue
		}
		pf := snap.Parse(f)
		fe := FileEdit{File: f, PF: pf}
		for _, u := range pf.Uses {
			target := filepath.Join(filepath.Dir(f.Path), filepath.FromSlash(u.Path.Value))
			if _, ok := snap.FileByPath(target); !ok {
				continue // a broken use stays as the author wrote it
			}
			newTarget, targetMoves := movedTo(target, moves)
			if !fileMoves && !targetMoves {
				continue
			}
			rel, err := filepath.Rel(filepath.Dir(newPath), newTarget)
			if err != nil {
				broken = append(broken, fmt.Sprintf("%s: use %q: %v", f.Path, u.Path.Value, err))
				continue
			}
			rel = filepath.ToSlash(rel)
			if rel == u.Path.Value {
				continue
			}
			if strings.ContainsAny(rel, "\"\\\n\r\t") {
				broken = append(broken, fmt.Sprintf("%s: use %q: the new path %q cannot be written in a string", f.Path, u.Path.Value, rel))
				continue
			}
			fe.Edits = append(fe.Edits, SpanEdit{Span: unquoted(pf.Src, u.Path.Span), NewText: rel})
		}
		eachRef(pf, func(r refSite) {
			if r.Ref.Kind != workflowlang.RefKnowledge {
				return
			}
			np, ok := renamed[r.Ref.Path]
			switch {
			case !ok:
			case np == "":
				broken = append(broken, fmt.Sprintf("%s: {{@%s}} names a file that leaves the knowledge folders (%s)", f.Path, r.Ref.Path, strings.Join(project.KnowledgeDirs, ", ")))
			default:
				fe.Edits = append(fe.Edits, SpanEdit{Span: r.Ref.PathSpan, NewText: np})
			}
		})
		if len(fe.Edits) > 0 {
			slices.SortFunc(fe.Edits, func(a, b SpanEdit) int { return a.Span.Start - b.Span.Start })
			out = append(out, fe)
		}
	}
	return out, broken
}

// mayNeedEdits tells from a workflow's summary whether moves can change
// it, so that only those workflows are parsed.
func mayNeedEdits(sum *cache.Summary, fileMoves bool, renamed map[string]string, moves []PathMove) bool {
	for _, u := range sum.Uses {
		if _, ok := movedTo(u.Target, moves); ok || fileMoves {
			return true
		}
	}
	for p := range renamed {
		if sum.ReferencesKnowledge(p) {
			return true
		}
	}
	return false
}

// WorkspaceEdit is edits as an LSP workspace edit, each workflow by the
// URI the client knows it by; nil when there is nothing to change.
func WorkspaceEdit(edits []FileEdit, o Options) *protocol.WorkspaceEdit {
	if len(edits) == 0 {
		return nil
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{}
	for _, fe := range edits {
		for _, e := range fe.Edits {
			changes[fe.File.URI] = append(changes[fe.File.URI], protocol.TextEdit{Range: Range(fe.PF, e.Span, o.Encoding), NewText: e.NewText})
		}
	}
	return &protocol.WorkspaceEdit{Changes: changes}
}
