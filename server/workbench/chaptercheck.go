package workbench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/monitor"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
	psession "github.com/flowcabal/flowcabal/session"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// cmdCheckChapter asks Role C's model angles to check a manuscript
// chapter as it is in the editor. Models are slow and cost money, so this
// runs only when the author asks, never as they type; the deterministic
// checks go on as before. With "text": "cancel" it cancels the check in
// flight.
const cmdCheckChapter = "flowcabal.checkChapter"

// chapterModel is what the model found on a chapter, in offsets of the
// text it was kept for.
type chapterModel struct {
	text     string
	findings []factcheck.Finding
	// located marks the findings with a range; the others are about the
	// whole chapter (the model's quote matched nothing).
	located []bool
}

// chapterRun is a check in flight.
type chapterRun struct {
	token  string
	cancel context.CancelFunc
}

// follow moves the findings to text, the chapter after the author's
// edits: a finding whose span an edit touched is dropped (the author has
// dealt with it, or the model's words no longer stand there); the others
// shift with the text before them.
func (cm *chapterModel) follow(text string) {
	old := cm.text
	if old == text {
		return
	}
	pre := 0
	for pre < len(old) && pre < len(text) && old[pre] == text[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(text)-pre && old[len(old)-1-suf] == text[len(text)-1-suf] {
		suf++
	}
	oldEnd := len(old) - suf // the edit replaced old[pre:oldEnd]
	delta := len(text) - len(old)
	var fs []factcheck.Finding
	var loc []bool
	for i, f := range cm.findings {
		switch {
		case !cm.located[i]:
		case f.End < pre:
		case f.Start > oldEnd:
			f.Start += delta
			f.End += delta
		default:
			continue // the edit touched it
		}
		fs = append(fs, f)
		loc = append(loc, cm.located[i])
	}
	cm.text, cm.findings, cm.located = text, fs, loc
}

// keptModel returns the model findings kept for a chapter, moved to text.
func (p *Prose) keptModel(uri protocol.DocumentURI, text string) []factcheck.Finding {
	p.mu.Lock()
	defer p.mu.Unlock()
	cm := p.models[uri]
	if cm == nil {
		return nil
	}
	cm.follow(text)
	return append([]factcheck.Finding(nil), cm.findings...)
}

// cancelToken cancels the chapter check that reports under a progress
// token; it says whether there was one.
func (p *Prose) cancelToken(token string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range p.checks {
		if r.token == token {
			r.cancel()
			return true
		}
	}
	return false
}

// manuscriptChapter returns the project root and chapter number of a
// manuscript chapter's path, or an error saying it is not one.
func manuscriptChapter(path string) (string, string, int, error) {
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return "", "", 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: %v", cmdCheckChapter, err))
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return "", "", 0, err
	}
	rel = filepath.ToSlash(rel)
	ch := 0
	if strings.HasPrefix(rel, "manuscript/") && strings.HasSuffix(rel, ".md") {
		ch = chapterOf(root, path, "")
	}
	if ch <= 0 {
		return "", "", 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s works on a manuscript chapter (manuscript/chapter-NN/…md); %s is not one", cmdCheckChapter, rel))
	}
	return root, rel, ch, nil
}

// checkChapter starts a model check of a chapter and answers at once;
// the check reports with $/progress (cancellable) and its findings
// appear as the chapter's diagnostics when it ends.
func (w *Workbench) checkChapter(ctx context.Context, req server.CommandRequest) (any, error) {
	uri := req.Args.URI
	path, ok := cache.URIPath(uri)
	if !ok {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, cmdCheckChapter+" needs a file: URI")
	}
	root, rel, ch, err := manuscriptChapter(path)
	if err != nil {
		return nil, err
	}
	p := w.Prose()
	if strings.TrimSpace(req.Args.Text) == "cancel" {
		p.mu.Lock()
		r := p.checks[uri]
		p.mu.Unlock()
		if r != nil {
			r.cancel()
		}
		return map[string]any{"cancelled": r != nil}, nil
	}
	// The chapter as the editor has it, saved or not.
	text, open := w.openProse(uri)
	if !open {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: read %s: %v", cmdCheckChapter, rel, err))
		}
		text = string(data)
	}
	ss, err := w.session(path)
	if err != nil {
		return nil, err
	}
	mon, done, err := w.chapterMonitor(ctx, req.Editor, ss, root)
	if err != nil {
		return nil, err
	}

	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		done()
		return nil, fmt.Errorf("the server is shutting down")
	}
	p.running.Add(1)
	p.seq++
	token := fmt.Sprintf("flowcabal-check-%d-%d", p.seq, time.Now().UnixNano())
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if old := p.checks[uri]; old != nil {
		old.cancel() // the newer check replaces it
	}
	run := &chapterRun{token: token, cancel: cancel}
	p.checks[uri] = run
	p.mu.Unlock()

	ed := req.Editor
	go func() {
		defer p.running.Done()
		defer done()
		defer cancel()
		defer func() {
			p.mu.Lock()
			if p.checks[uri] == run {
				delete(p.checks, uri)
			}
			p.mu.Unlock()
			w.mu.Lock()
			if w.agentTokens[monitor.Role] == token {
				delete(w.agentTokens, monitor.Role)
			}
			w.mu.Unlock()
		}()
		if ed.WorkDoneProgress() {
			var res any
			if err := ed.Call(cctx, "window/workDoneProgress/create", map[string]any{"token": token}, &res); err != nil {
				w.log.Debug("workDoneProgress/create", "err", err)
			}
		}
		w.progress(token, progressValue{Kind: "begin", Title: "FlowCabal: checking " + filepath.Base(filepath.Dir(path)) + " with the model",
			Message: fmt.Sprintf("chapter %d: %s", ch, strings.Join(monitor.Angles, ", ")), Cancellable: true})
		// The angles' steps show in this progress.
		w.mu.Lock()
		w.agentTokens[monitor.Role] = token
		w.mu.Unlock()
		rep, err := mon.Check(cctx, monitor.Request{Text: text, Chapter: ch, Node: rel, RunID: "agent-C-" + token})
		if err != nil {
			// Cancelled: what an earlier check found stays.
			w.progress(token, progressValue{Kind: "end", Message: "cancelled"})
			return
		}
		model := rep.ModelFindings()
		cm := &chapterModel{text: text, findings: model, located: make([]bool, len(model))}
		for i, f := range model {
			cm.located[i] = f.End > f.Start
		}
		p.mu.Lock()
		p.models[uri] = cm
		doc := p.docs[uri]
		p.mu.Unlock()
		// Publish on the chapter as it is now (the author may have typed
		// meanwhile: the findings follow the text).
		if doc != nil {
			p.check(doc.ed, uri, 0, doc.text, doc.enc)
		} else {
			p.check(ed, uri, 0, text, workflowlang.UTF16)
			p.mu.Lock()
			delete(p.docs, uri) // not open: nothing to keep in step with
			p.mu.Unlock()
		}
		msg := fmt.Sprintf("%d finding(s) from the model", len(model))
		if !rep.ModelUsed {
			msg = "the model gave no usable answer"
		}
		w.progress(token, progressValue{Kind: "end", Message: msg})
		if !rep.ModelUsed || len(rep.Notes) > 0 {
			kind := 3 // info
			if !rep.ModelUsed {
				kind = 2 // warning
			}
			w.message(kind, fmt.Sprintf("FlowCabal checked %s with the model: %s. %s", rel, msg, strings.Join(rep.Notes, "; ")))
		}
		for _, n := range rep.Notes {
			w.log.Info("chapter check", "chapter", rel, "note", n)
		}
	}()
	return map[string]any{"status": "checking", "chapter": ch, "token": token}, nil
}

// chapterMonitor builds Role C's monitor for a chapter check: the
// project's agent model (flowcabal.toml under the editor's settings), a
// core manager of its own on the session's store, and the knowledge as it
// is now. done releases the manager. Without an agent model it answers a
// clear error.
//
// The session keeps its own monitor for the runner's gate but does not
// expose it; this one is built the same way (see session.agentsLocked).
func (w *Workbench) chapterMonitor(ctx context.Context, e server.Editor, ss *psession.Session, root string) (*monitor.Monitor, func(), error) {
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return nil, nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: %v", cmdCheckChapter, err))
	}
	ac := llm.FromProject(cfg, "agent")
	if m, ok := editorModels(ctx, e)["agent"]; ok {
		ac = ac.Merge(m)
	}
	if err := ac.Validate(); err != nil {
		return nil, nil, jsonrpc2.NewError(codeRequestFailed,
			"no agent model is configured, so the model cannot check this chapter: set [models.agent] in flowcabal.toml (or flowcabal.models.agent in the editor's settings); the deterministic checks run without it ("+err.Error()+")")
	}
	client, err := llm.New(ac, llm.Options{Getenv: w.getenv, Logger: w.log})
	if err != nil {
		return nil, nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: the agent model: %v", cmdCheckChapter, err))
	}
	st, err := ss.Store(ctx)
	if err != nil {
		return nil, nil, runError(err)
	}
	m, err := core.NewManager(core.Options{Client: client, Store: st, Logger: w.log, Observer: w.agentEvent, Width: monitor.Widths()})
	if err != nil {
		return nil, nil, runError(err)
	}
	mon, err := monitor.ForProject(root, st, m, monitor.Options{})
	if mon == nil {
		m.Close()
		return nil, nil, runError(err)
	}
	if err != nil {
		w.log.Warn("chapter check", "err", err)
	}
	return mon, m.Close, nil
}

// editorModels asks the editor for its model settings (nil when it has
// none or cannot say).
func editorModels(ctx context.Context, e server.Editor) map[string]project.Model {
	var res []json.RawMessage
	if err := e.Call(ctx, "workspace/configuration", map[string]any{"items": []any{map[string]any{"section": "flowcabal"}}}, &res); err != nil || len(res) == 0 {
		return nil
	}
	m, err := llm.ParseEditorSettings(res[0])
	if err != nil {
		return nil
	}
	return m
}

// chapterActions offers the model check on a manuscript chapter.
func chapterActions(uri protocol.DocumentURI, path string) []protocol.CodeAction {
	if _, _, _, err := manuscriptChapter(path); err != nil {
		return nil
	}
	return []protocol.CodeAction{{Title: "Check this chapter with the model", Kind: protocol.Source,
		Command: &protocol.Command{Title: "Check this chapter with the model", Command: cmdCheckChapter, Arguments: []any{map[string]any{"uri": uri}}}}}
}
