package workbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/monitor"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	psession "github.com/flowcabal/flowcabal/session"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// codeOverdueThread marks the warning of a plot thread past its due
// chapter and not resolved.
const codeOverdueThread = "overdue-thread"

// Diagnostics warns, on each node that writes a chapter (its persist
// target), of the plot threads past due by that chapter and not
// resolved, naming the thread and where it was opened. It implements
// server.Options.Diagnostics.
func (w *Workbench) Diagnostics(snap *cache.Snapshot, f *cache.File, enc workflowlang.Encoding) []protocol.Diagnostic {
	if f.Path == "" {
		return nil
	}
	ss, err := w.session(f.Path)
	if err != nil {
		return nil
	}
	threads, _ := ss.Threads()
	if len(threads) == 0 {
		return nil
	}
	pf := snap.Parse(f)
	var out []protocol.Diagnostic
	for _, n := range pf.Nodes {
		a := n.Attr("persist")
		if a == nil || a.Value == nil {
			continue
		}
		v, ok := a.Value.(*workflowlang.StringValue)
		if !ok {
			continue
		}
		ch, ok := knowledge.ChapterNumber(v.Value)
		if !ok {
			continue
		}
		rng := source.Range(pf, a.Value.ValueSpan(), enc)
		for _, t := range knowledge.Overdue(threads, ch) {
			out = append(out, overdueDiagnostic(ss.Root(), t, ch, rng))
		}
	}
	return out
}

// overdueDiagnostic is the warning for thread t overdue at chapter ch, at
// rng, with where the thread was opened as related information.
func overdueDiagnostic(root string, t *knowledge.Entity, ch int, rng protocol.Range) protocol.Diagnostic {
	d := protocol.Diagnostic{Range: rng, Severity: protocol.DiagnosticSeverityWarning, Source: "flowcabal/threads",
		Code: codeOverdueThread, Message: knowledge.OverdueMessage(t, ch)}
	line := t.KeyLines["opened"]
	if line == 0 {
		line = t.KeyLines["due"]
	}
	d.RelatedInformation = []protocol.DiagnosticRelatedInformation{{
		Location: protocol.Location{URI: cache.FileURI(filepath.Join(root, filepath.FromSlash(t.Path))),
			Range: protocol.Range{Start: protocol.Position{Line: uint32(max(line-1, 0))}, End: protocol.Position{Line: uint32(max(line-1, 0))}}},
		Message: fmt.Sprintf("%s: %s, due by chapter %d", t.Name, t.OpenedAt(), t.Due),
	}}
	return d
}

// chapterThreadDiagnostics warns at the top of a chapter (or of a node's
// output written for it) of the threads overdue by it.
func (w *Workbench) chapterThreadDiagnostics(ss *psession.Session, ch int, m *workflowlang.Mapper, enc workflowlang.Encoding, text string) []protocol.Diagnostic {
	if ch <= 0 {
		return nil
	}
	threads, _ := ss.Threads()
	over := knowledge.Overdue(threads, ch)
	if len(over) == 0 {
		return nil
	}
	end := strings.IndexByte(text, '\n')
	if end < 0 {
		end = len(text)
	}
	rng := rangeOf(m, enc, 0, end)
	out := make([]protocol.Diagnostic, 0, len(over))
	for _, t := range over {
		out = append(out, overdueDiagnostic(ss.Root(), t, ch, rng))
	}
	return out
}

// threadSection lists, for a node's hover, the plot threads open as of
// the chapter it writes and due within the window, or overdue.
func threadSection(ss *psession.Session, ch int) string {
	if ch <= 0 {
		return ""
	}
	threads, window := ss.Threads()
	var lines []string
	for _, t := range threads {
		st := t.ThreadStateAt(ch, window)
		if st != knowledge.ThreadDueSoon && st != knowledge.ThreadOverdue {
			continue
		}
		lines = append(lines, fmt.Sprintf("- %s **%s**: due by chapter %d, %s", mdCell(string(st)), mdCell(t.Name), t.Due, mdCell(t.OpenedAt())))
	}
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("\nPlot threads due by chapter %d (within %d chapters of %d):\n\n%s\n", ch+window, window, ch, strings.Join(lines, "\n"))
}

// resolvedEdit writes `resolved: N` into the front matter of the thread
// a thread-resolved finding names (replacing a resolved line already
// there), for the author to accept the model's word that the chapter
// pays the thread off. Nil when the finding is of another kind or the
// file has no front matter.
func resolvedEdit(root string, f factcheck.Finding) (*protocol.WorkspaceEdit, string) {
	if f.Type != monitor.TypeThreadResolved || f.Evidence.Key != "resolved" || !strings.HasPrefix(f.Evidence.Path, "entities/") {
		return nil, ""
	}
	ch, err := strconv.Atoi(f.Evidence.Value)
	if err != nil || ch <= 0 {
		return nil, ""
	}
	p := filepath.Join(root, filepath.FromSlash(f.Evidence.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, ""
	}
	src := string(data)
	end := strings.Index(src[min(3, len(src)):], "\n---")
	if !strings.HasPrefix(src, "---") || end < 0 {
		return nil, ""
	}
	end += 3 + 1 // the start of the closing line
	line := fmt.Sprintf("resolved: %d\n", ch)
	from, to := end, end
	for off := 0; off < end; {
		nl := strings.IndexByte(src[off:end], '\n')
		if nl < 0 {
			break
		}
		if strings.HasPrefix(src[off:], "resolved:") {
			from, to = off, off+nl+1
			break
		}
		off += nl + 1
	}
	m := workflowlang.NewMapper(data)
	a, b := m.Position(from, workflowlang.UTF16), m.Position(to, workflowlang.UTF16)
	r := protocol.Range{Start: protocol.Position{Line: uint32(a.Line), Character: uint32(a.Col)}, End: protocol.Position{Line: uint32(b.Line), Character: uint32(b.Col)}}
	title := fmt.Sprintf("Mark the plot thread resolved in chapter %d (%s)", ch, f.Evidence.Path)
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{cache.FileURI(p): {{Range: r, NewText: line}}}}, title
}
