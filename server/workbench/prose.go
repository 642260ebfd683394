package workbench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/monitor"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// cmdDismiss remembers that the author dismissed a Role C finding.
const cmdDismiss = "flowcabal.dismiss"

// Prose runs Role C's deterministic checks on the Markdown documents the
// author opens (manuscript chapters and node outputs) as they change, and
// publishes the findings as diagnostics with quick-fixes. It implements
// server.Prose.
type Prose struct {
	w *Workbench

	mu   sync.Mutex
	docs map[protocol.DocumentURI]*proseDoc
	// models are the model findings on chapters the author asked the
	// model to check (flowcabal.checkChapter), and checks those checks
	// in flight.
	models map[protocol.DocumentURI]*chapterModel
	checks map[protocol.DocumentURI]*chapterRun
	seq    int
	// gens counts the checks of each document: a check that a newer one
	// overtook (a model check ending while the author types) publishes
	// nothing.
	gens map[protocol.DocumentURI]int
	// running counts the chapter checks' goroutines, which Close waits
	// for; after closed no check starts.
	running sync.WaitGroup
	closed  bool
	// names are each chapter's frequent names (chapter_names.go).
	names map[protocol.DocumentURI]*chapterNames
}

// stopChecks cancels the chapter checks in flight and waits for them.
func (p *Prose) stopChecks() {
	p.mu.Lock()
	p.closed = true
	for _, r := range p.checks {
		r.cancel()
	}
	p.mu.Unlock()
	p.running.Wait()
}

type proseDoc struct {
	text     string
	findings []factcheck.Finding
	// ed and enc are the editor that last sent the document and the
	// position encoding it negotiated, for publishing later (a model
	// check ends after its command has answered).
	ed  server.Editor
	enc workflowlang.Encoding
}

// Prose returns the workbench's Markdown handler.
func (w *Workbench) Prose() *Prose {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.prose == nil {
		w.prose = &Prose{w: w, docs: map[protocol.DocumentURI]*proseDoc{},
			models: map[protocol.DocumentURI]*chapterModel{}, checks: map[protocol.DocumentURI]*chapterRun{}, gens: map[protocol.DocumentURI]int{}}
	}
	return w.prose
}

// Open implements server.Prose.
func (p *Prose) Open(ed server.Editor, uri protocol.DocumentURI, version int32, text string, enc workflowlang.Encoding) {
	p.check(ed, uri, version, text, enc)
}

// Change implements server.Prose.
func (p *Prose) Change(ed server.Editor, uri protocol.DocumentURI, version int32, text string, enc workflowlang.Encoding) {
	p.check(ed, uri, version, text, enc)
}

// Close implements server.Prose: the document's diagnostics are cleared.
func (p *Prose) Close(ed server.Editor, uri protocol.DocumentURI) {
	p.mu.Lock()
	delete(p.docs, uri)
	delete(p.gens, uri)
	delete(p.names, uri)
	// The model's findings index the text as the editor had it; on disk
	// it may differ. A check in flight goes on and publishes when done.
	delete(p.models, uri)
	p.mu.Unlock()
	_ = ed.Notify(context.Background(), "textDocument/publishDiagnostics", map[string]any{"uri": uri, "diagnostics": []any{}})
}

// chapterOf tells which chapter a document is checked as: a manuscript
// chapter's own number, or for a node output, the chapter the node's
// persist target names (0 when none).
func chapterOf(root, path, text string) int {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return 0
	}
	if ch, ok := knowledge.ChapterNumber(project.ResourcePath(filepath.ToSlash(rel))); ok && strings.HasPrefix(filepath.ToSlash(rel), "manuscript/") {
		return ch
	}
	ch, _ := runner.OutputChapter(root, text)
	return ch
}

func (p *Prose) check(ed server.Editor, uri protocol.DocumentURI, version int32, text string, enc workflowlang.Encoding) {
	path, ok := cache.URIPath(uri)
	if !ok {
		return
	}
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return
	}
	rel, _ := filepath.Rel(root, path)
	rel = filepath.ToSlash(rel)
	isOutput := strings.HasPrefix(rel, project.OutputsDir+"/")
	if !isOutput && !strings.HasPrefix(rel, "manuscript/") {
		return // only chapters and node outputs are fiction to check
	}
	ss, err := p.w.session(path)
	if err != nil {
		return
	}
	p.mu.Lock()
	p.gens[uri]++
	gen := p.gens[uri]
	p.mu.Unlock()
	body, off := text, 0
	if isOutput && outputHeader.MatchString(text) {
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			body, off = text[i+1:], i+1
		}
	}
	findings := ss.Check(body, chapterOf(root, path, text))
	// What the agent model's angles found: when the gate reviewed this
	// output, or when the author asked for a check of this chapter (kept
	// while the text they found stays as it was), unless a deterministic
	// finding already covers it.
	var model []factcheck.Finding
	if isOutput {
		model = ss.ModelFindings(body)
	} else {
		model = p.keptModel(uri, text)
	}
model:
	for _, mf := range model {
		for _, d := range findings {
			if mf.End > mf.Start && d.Start < mf.End && mf.Start < d.End {
				continue model
			}
		}
		findings = append(findings, mf)
	}
	dismissed := p.w.dismissed(root)
	kept := findings[:0]
	for _, f := range findings {
		f.Start += off
		f.End += off
		if !dismissed[findingKey(text, f)] {
			kept = append(kept, f)
		}
	}
	p.mu.Lock()
	if p.gens[uri] != gen {
		p.mu.Unlock()
		return
	}
	p.docs[uri] = &proseDoc{text: text, findings: kept, ed: ed, enc: enc}
	p.mu.Unlock()
	m := workflowlang.NewMapper([]byte(text))
	diags := make([]protocol.Diagnostic, 0, len(kept))
	for _, f := range kept {
		diags = append(diags, diagnostic(root, m, enc, text, f))
	}
	diags = append(diags, p.w.chapterThreadDiagnostics(ss, chapterOf(root, path, text), m, enc, text)...)
	params := map[string]any{"uri": uri, "diagnostics": diags}
	if version > 0 {
		params["version"] = version
	}
	_ = ed.Notify(context.Background(), "textDocument/publishDiagnostics", params)
}

func rangeOf(m *workflowlang.Mapper, enc workflowlang.Encoding, start, end int) protocol.Range {
	a, b := m.Position(start, enc), m.Position(end, enc)
	return protocol.Range{Start: protocol.Position{Line: uint32(a.Line), Character: uint32(a.Col)}, End: protocol.Position{Line: uint32(b.Line), Character: uint32(b.Col)}}
}

// diagnostic turns a finding into a diagnostic with its evidence as
// related information (the entity's declaration, the earlier sentence).
func diagnostic(root string, m *workflowlang.Mapper, enc workflowlang.Encoding, text string, f factcheck.Finding) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityInformation
	switch f.Severity() {
	case "error":
		sev = protocol.DiagnosticSeverityError
	case "warning":
		sev = protocol.DiagnosticSeverityWarning
	}
	d := protocol.Diagnostic{Range: rangeOf(m, enc, f.Start, f.End), Severity: sev, Source: "flowcabal/" + f.Type,
		Code: f.Type, Message: f.Message}
	if f.Evidence.Path != "" {
		line := max(f.Evidence.Line-1, 0)
		msg := f.Evidence.Path
		if f.Evidence.Key != "" {
			msg = fmt.Sprintf("%s: %s = %s", f.Evidence.Path, f.Evidence.Key, f.Evidence.Value)
		}
		if f.Evidence.Rule != "" {
			msg = fmt.Sprintf("%s forbids %q", f.Evidence.Path, f.Evidence.Rule)
		}
		d.RelatedInformation = []protocol.DiagnosticRelatedInformation{{
			Location: protocol.Location{URI: protocol.DocumentURI(cache.FileURI(filepath.Join(root, filepath.FromSlash(f.Evidence.Path)))),
				Range: protocol.Range{Start: protocol.Position{Line: uint32(line)}, End: protocol.Position{Line: uint32(line)}}},
			Message: msg,
		}}
	}
	return d
}

// findingKey identifies a finding by what it is about, not where, so a
// dismissal survives edits elsewhere in the text.
func findingKey(text string, f factcheck.Finding) string {
	start, end := max(0, min(f.Start, len(text))), max(0, min(f.End, len(text)))
	sum := sha256.Sum256([]byte(f.Type + "\x00" + text[start:end] + "\x00" + f.Evidence.Path + "\x00" + f.Evidence.Key + "\x00" + f.Evidence.Rule))
	return hex.EncodeToString(sum[:8])
}

// CodeActions implements server.Prose: for each finding under the range,
// apply its suggested fix, record the text as the new truth in the
// entity's facts (a progression at this chapter), or dismiss it.
func (p *Prose) CodeActions(ctx context.Context, uri protocol.DocumentURI, rng protocol.Range, _ []protocol.Diagnostic, enc workflowlang.Encoding) ([]protocol.CodeAction, error) {
	p.mu.Lock()
	doc := p.docs[uri]
	p.mu.Unlock()
	if doc == nil {
		return nil, nil
	}
	path, _ := cache.URIPath(uri)
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	m := workflowlang.NewMapper([]byte(doc.text))
	from := m.ClampOffset(workflowlang.Position{Line: int(rng.Start.Line), Col: int(rng.Start.Character)}, enc)
	to := m.ClampOffset(workflowlang.Position{Line: int(rng.End.Line), Col: int(rng.End.Character)}, enc)
	var out []protocol.CodeAction
	for _, f := range doc.findings {
		if f.End < from || f.Start > to {
			continue
		}
		d := diagnostic(root, m, enc, doc.text, f)
		r := rangeOf(m, enc, f.Start, f.End)
		if f.Suggestion != "" {
			out = append(out, protocol.CodeAction{Title: fmt.Sprintf("Replace with «%s»", f.Suggestion), Kind: protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{d}, IsPreferred: true,
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{uri: {{Range: r, NewText: f.Suggestion}}}}})
		}
		if e := progressionEdit(root, doc.text, f, chapterOf(root, path, doc.text)); e != nil {
			out = append(out, protocol.CodeAction{Title: fmt.Sprintf("The text is the new truth: set %s = «%s» in %s from this chapter", f.Evidence.Key, doc.text[f.Start:f.End], f.Evidence.Path),
				Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d}, Edit: e})
		}
		if e, title := resolvedEdit(root, f); e != nil {
			out = append(out, protocol.CodeAction{Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d}, IsPreferred: true, Edit: e})
		}
		if outputHeader.MatchString(doc.text) && f.Type != monitor.TypeThreadResolved {
			quote := doc.text[f.Start:f.End]
			out = append(out, protocol.CodeAction{Title: "Ask the model to fix this passage", Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d},
				Command: &protocol.Command{Title: "Ask the model to fix this passage", Command: cmdRetry, Arguments: []any{map[string]any{"uri": uri,
					"text": fmt.Sprintf("Fix this passage: «%s» — %s. Change nothing else.", quote, f.Message)}}}})
		}
		out = append(out, protocol.CodeAction{Title: "Dismiss this finding", Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{d},
			Command: &protocol.Command{Title: "Dismiss", Command: cmdDismiss, Arguments: []any{map[string]any{"uri": uri, "text": findingKey(doc.text, f)}}}})
	}
	out = append(out, p.newEntityActions(ctx, uri, path, doc.text, from, to)...)
	return append(out, chapterActions(uri, path)...), nil
}

// progressionEdit adds `- { chapter: N, facts: { key: value } }` to the
// entity's progressions, for a fact or state finding whose text should win.
func progressionEdit(root, text string, f factcheck.Finding, ch int) *protocol.WorkspaceEdit {
	if (f.Type != factcheck.TypeFact && f.Type != factcheck.TypeState) || f.Evidence.Key == "" || ch <= 0 || !strings.HasPrefix(f.Evidence.Path, "entities/") {
		return nil
	}
	p := filepath.Join(root, filepath.FromSlash(f.Evidence.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	src := string(data)
	value := strings.TrimSpace(text[f.Start:f.End])
	if f.Type == factcheck.TypeState {
		value = "present"
	}
	line := fmt.Sprintf("  - { chapter: %d, facts: { %s: %s } }\n", ch, f.Evidence.Key, strconvQuote(value))
	m := workflowlang.NewMapper(data)
	var at int
	if i := strings.Index(src, "\nprogressions:\n"); i >= 0 {
		at = i + len("\nprogressions:\n")
	} else if i := strings.Index(src[3:], "\n---"); strings.HasPrefix(src, "---") && i >= 0 {
		at = 3 + i + 1
		line = "progressions:\n" + line
	} else {
		return nil
	}
	pos := m.Position(at, workflowlang.UTF16)
	r := protocol.Range{Start: protocol.Position{Line: uint32(pos.Line), Character: uint32(pos.Col)}, End: protocol.Position{Line: uint32(pos.Line), Character: uint32(pos.Col)}}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{cache.FileURI(p): {{Range: r, NewText: line}}}}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// dismissedFile keeps the author's dismissals, per project.
const dismissedFile = project.DataDir + "/dismissed.json"

func (w *Workbench) dismissed(root string) map[string]bool {
	out := map[string]bool{}
	data, err := os.ReadFile(filepath.Join(root, dismissedFile))
	if err != nil {
		return out
	}
	var keys []string
	if json.Unmarshal(data, &keys) == nil {
		for _, k := range keys {
			out[k] = true
		}
	}
	return out
}

// dismiss remembers a dismissal (the author's explicit action) and
// re-checks the document so the finding disappears.
func (w *Workbench) dismiss(req server.CommandRequest) (any, error) {
	path, ok := cache.URIPath(req.Args.URI)
	if !ok || req.Args.Text == "" {
		return nil, fmt.Errorf("dismiss needs the document and the finding's key")
	}
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	set := w.dismissed(root)
	set[req.Args.Text] = true
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	data, _ := json.MarshalIndent(keys, "", "  ")
	p := filepath.Join(root, dismissedFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return nil, err
	}
	pr := w.Prose()
	pr.mu.Lock()
	doc := pr.docs[req.Args.URI]
	pr.mu.Unlock()
	if doc != nil {
		pr.check(req.Editor, req.Args.URI, 0, doc.text, doc.enc)
	}
	return map[string]any{"dismissed": req.Args.Text}, nil
}

// CodeLenses implements server.Prose: on a node's output document, the
// node's state and the author's decisions (approve, retry, use my edit,
// keep a candidate) above the first line. Chapters have none.
func (p *Prose) CodeLenses(uri protocol.DocumentURI) []protocol.CodeLens {
	p.mu.Lock()
	doc := p.docs[uri]
	p.mu.Unlock()
	if doc == nil {
		return nil
	}
	m := outputHeader.FindStringSubmatch(doc.text)
	path, ok := cache.URIPath(uri)
	if m == nil || !ok {
		return nil
	}
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil
	}
	flow := filepath.Join(root, filepath.FromSlash(m[1]))
	ss, err := p.w.session(flow)
	if err != nil {
		return nil
	}
	st, ok := ss.States(flow)[m[2]]
	if !ok {
		return nil
	}
	top := protocol.Range{}
	arg := func(text string) []any {
		a := map[string]any{"uri": uri}
		if text != "" {
			a["text"] = text
		}
		return []any{a}
	}
	out := []protocol.CodeLens{{Range: top, Command: &protocol.Command{Title: st.Label(), Command: cmdOpenOutput, Arguments: arg("")}}}
	switch {
	case st.Status == "needs you" && len(st.Select) > 0:
		for _, v := range st.Select {
			out = append(out, protocol.CodeLens{Range: top, Command: &protocol.Command{Title: "Keep " + v, Command: cmdSelect, Arguments: arg(v)}})
		}
	case st.Status == "needs you":
		out = append(out,
			protocol.CodeLens{Range: top, Command: &protocol.Command{Title: "✓ Approve", Command: cmdApprove, Arguments: arg("")}},
			protocol.CodeLens{Range: top, Command: &protocol.Command{Title: "↻ Retry", Command: cmdRetry, Arguments: arg("")}},
			protocol.CodeLens{Range: top, Command: &protocol.Command{Title: "✎ Use my edit", Command: cmdEdit, Arguments: arg("")}})
	case st.Status == "approved" || st.Status == "frozen":
		out = append(out, staleLenses(st, top, arg(""))...)
		out = append(out, compareLens(st, top, arg)...)
	}
	return out
}

// Hover implements server.Prose: on an entity's name in a chapter or a
// node output, what Role A does with the entity and its facts as of the
// chapter.
func (p *Prose) Hover(uri protocol.DocumentURI, pos protocol.Position, enc workflowlang.Encoding) string {
	p.mu.Lock()
	doc := p.docs[uri]
	p.mu.Unlock()
	path, ok := cache.URIPath(uri)
	if doc == nil || !ok {
		return ""
	}
	ss, err := p.w.session(path)
	if err != nil {
		return ""
	}
	off := workflowlang.NewMapper([]byte(doc.text)).ClampOffset(workflowlang.Position{Line: int(pos.Line), Col: int(pos.Character)}, enc)
	e, start, end := ss.EntityAt(doc.text, off)
	if e == nil {
		return ""
	}
	return ss.ProseEntityStatus(e, chapterOf(ss.Root(), path, doc.text), doc.text, start, end)
}

// TextHover explains an entity's name in a node's prompt: whether Role A
// injects the entity into that node now and, if not, why.
func (w *Workbench) TextHover(snap *cache.Snapshot, f *cache.File, pos protocol.Position, enc workflowlang.Encoding) string {
	if f.Path == "" {
		return ""
	}
	pf := snap.Parse(f)
	off := pf.Mapper().ClampOffset(workflowlang.Position{Line: int(pos.Line), Col: int(pos.Character)}, enc)
	var node *workflowlang.Node
	for _, n := range pf.Nodes {
		for _, pr := range n.Prompts {
			if pr.Body.Contains(off) {
				node = n
			}
		}
	}
	if node == nil {
		return ""
	}
	ss, err := w.session(f.Path)
	if err != nil {
		return ""
	}
	text := string(f.Src)
	e, start, end := ss.EntityAt(text, off)
	if e == nil {
		return ""
	}
	return ss.EntityStatus(snap.Check(f), node.Name.Name, e, text, start, end)
}
