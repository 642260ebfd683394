// Package workbench serves the language server's run commands on top of a
// project session: it runs workflows and nodes, reports them with
// $/progress, opens their output documents, takes the author's decisions
// (approve, retry, edit, keep a candidate, freeze, restore, persist), and
// provides the code lenses of run state and Role A's hover section. It
// plugs into the server through server.Options (Commands, Lenses,
// ContextSection); the server knows nothing of runs.
package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/builder"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	psession "github.com/flowcabal/flowcabal/session"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// The commands the runner serves through the session. The editor clients
// bind them to the palette; code lenses bind the run and decision ones.
const (
	cmdRunNode        = "flowcabal.runNode"
	cmdRunWorkflow    = "flowcabal.runWorkflow"
	cmdRunFrom        = "flowcabal.runFrom"
	cmdCancel         = "flowcabal.cancel"
	cmdApprove        = "flowcabal.approve"
	cmdRetry          = "flowcabal.retry"
	cmdEdit           = "flowcabal.edit"
	cmdSelect         = "flowcabal.select"
	cmdFreeze         = "flowcabal.freeze"
	cmdUnfreeze       = "flowcabal.unfreeze"
	cmdRestoreVersion = "flowcabal.restoreVersion"
	cmdPersist        = "flowcabal.persist"
	cmdShowContext    = "flowcabal.showContext"
	cmdOpenOutput     = "flowcabal.openOutput"
	cmdSkip           = "flowcabal.skip"
)

// codeRequestFailed is LSP's RequestFailed: understood, but not possible now.
const codeRequestFailed jsonrpc2.Code = -32803

var runnerCommands = map[string]bool{
	cmdRunNode: true, cmdRunWorkflow: true, cmdRunFrom: true, cmdCancel: true, cmdApprove: true,
	cmdRetry: true, cmdEdit: true, cmdSelect: true, cmdFreeze: true, cmdUnfreeze: true,
	cmdRestoreVersion: true, cmdPersist: true, cmdShowContext: true, cmdOpenOutput: true,
	cmdBuild: true, cmdBuildAccept: true, cmdBuildReject: true, cmdDismiss: true, cmdSkip: true,
	cmdCheckChapter: true, cmdCompare: true,
}

// Workbench connects each project's session (store, runner, roles) to
// the editor. It is safe for concurrent use.
type Workbench struct {
	log    *slog.Logger
	getenv func(string) string

	mu       sync.Mutex
	editor   server.Editor                // the latest request's, for events
	sessions map[string]*psession.Session // by project root
	tokens   map[string]string            // progress token -> workflow file
	prose    *Prose                       // Role C on Markdown documents, made on first use
	libOnce  sync.Once
	lib      *builder.Library
	libErr   error
	// agentTokens maps an agent role to the progress token of its work
	// in flight, so the agent's steps show in that progress.
	agentTokens map[string]string
	// configured marks the sessions that have read the editor's settings.
	configured map[*psession.Session]bool
	// warming marks the sessions whose Role A snapshot is being built for
	// the inlay hints (level_tokens.go).
	warming map[*psession.Session]bool
	// levelSessions maps a knowledge file to its session and project
	// path (a levelTarget), for the inlay hints.
	levelSessions sync.Map
}

// New returns a Workbench. getenv reads the variables that hold API keys
// (nil: the process environment).
func New(log *slog.Logger, getenv func(string) string) *Workbench {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Workbench{log: log, getenv: getenv, sessions: map[string]*psession.Session{}, tokens: map[string]string{}, agentTokens: map[string]string{}, configured: map[*psession.Session]bool{}}
}

// session returns the session of the project holding path.
func (w *Workbench) session(path string) (*psession.Session, error) {
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if ss, ok := w.sessions[root]; ok {
		return ss, nil
	}
	ev := w.events()
	ev.Agent = w.agentEvent
	ss := psession.New(root, psession.Options{Log: w.log, Events: ev, Getenv: w.getenv})
	w.sessions[root] = ss
	return ss, nil
}

// ensureConfigured reads the editor's settings into a session the first
// time a command reaches it, before the command runs (a session made
// earlier, for lenses or a hover, has had no editor to ask).
func (w *Workbench) ensureConfigured(e server.Editor, ss *psession.Session) {
	w.mu.Lock()
	done := w.configured[ss]
	w.configured[ss] = true
	w.mu.Unlock()
	if !done {
		w.configure(e, ss)
	}
}

// configure asks the editor for its FlowCabal settings (the models'
// base URL, model, key variable) and lays them over flowcabal.toml for
// the session's next runs. Keys never travel this way: the settings
// parser refuses them.
func (w *Workbench) configure(e server.Editor, ss *psession.Session) {
	var res []json.RawMessage
	err := e.Call(context.Background(), "workspace/configuration", map[string]any{"items": []any{map[string]any{"section": "flowcabal"}}}, &res)
	if err != nil || len(res) == 0 {
		return // a client without workspace/configuration: flowcabal.toml alone
	}
	m, err := llm.ParseEditorSettings(res[0])
	if err != nil {
		w.log.Warn("editor settings", "err", err)
		return
	}
	ss.SetOverrides(m, "")
}

// Reconfigure re-reads the editor's settings into every session (after
// workspace/didChangeConfiguration).
func (w *Workbench) Reconfigure(e server.Editor) {
	w.mu.Lock()
	all := make([]*psession.Session, 0, len(w.sessions))
	for _, ss := range w.sessions {
		all = append(all, ss)
	}
	w.mu.Unlock()
	for _, ss := range all {
		w.configure(e, ss)
	}
}

// existing returns the session of path's project only if one was made.
func (w *Workbench) existing(path string) *psession.Session {
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sessions[root]
}

// Close cancels every run (their checkpoints are saved) and closes the
// stores. The server calls it when the client has gone.
func (w *Workbench) Close() {
	w.mu.Lock()
	prose := w.prose
	w.mu.Unlock()
	if prose != nil {
		prose.stopChecks() // before their sessions close under them
	}
	w.mu.Lock()
	all := make([]*psession.Session, 0, len(w.sessions))
	for _, ss := range w.sessions {
		all = append(all, ss)
	}
	w.sessions = map[string]*psession.Session{}
	w.levelSessions.Clear()
	w.mu.Unlock()
	for _, ss := range all {
		if err := ss.Close(); err != nil {
			w.log.Warn("close project session", "root", ss.Root(), "err", err)
		}
	}
}

// progress values of $/progress.
type progressValue struct {
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`
	Message     string `json:"message,omitempty"`
	Percentage  *int   `json:"percentage,omitempty"`
	Cancellable bool   `json:"cancellable,omitempty"`
}

// ed returns the editor events go to; nil before the first command.
func (w *Workbench) ed() server.Editor {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.editor
}

func (w *Workbench) progress(token string, v progressValue) {
	e := w.ed()
	if e == nil || !e.WorkDoneProgress() {
		return
	}
	if err := e.Notify(context.Background(), "$/progress", map[string]any{"token": token, "value": v}); err != nil {
		w.log.Debug("$/progress", "err", err)
	}
}

func percent(k, n int) *int {
	if n <= 0 {
		return nil
	}
	p := 100 * k / n
	return &p
}

// events maps a session's events to the protocol.
func (w *Workbench) events() psession.Events {
	return psession.Events{
		RunStarted: func(r psession.RunInfo) {
			w.mu.Lock()
			w.tokens[r.ID] = r.File
			w.mu.Unlock()
			if e := w.ed(); e != nil && e.WorkDoneProgress() {
				var res any
				if err := e.Call(context.Background(), "window/workDoneProgress/create", map[string]any{"token": r.ID}, &res); err != nil {
					w.log.Debug("workDoneProgress/create", "err", err)
				}
			}
			w.progress(r.ID, progressValue{Kind: "begin", Title: "FlowCabal: " + filepath.Base(r.File), Message: "starting", Cancellable: true, Percentage: percent(0, 1)})
			w.refreshLenses()
		},
		NodeStarted: func(r psession.RunInfo, node string, k, n int) {
			w.progress(r.ID, progressValue{Kind: "report", Message: fmt.Sprintf("node %d of %d: %s", k, n, node), Percentage: percent(k-1, n)})
			if r.Target.Node == "" || r.Target.Node == node {
				w.openOutput(r, node)
			}
			w.refreshLenses()
		},
		Step: func(r psession.RunInfo, node, msg string) {
			w.progress(r.ID, progressValue{Kind: "report", Message: node + ": " + msg})
		},
		NodeFinished: func(r psession.RunInfo, res runner.NodeResult) {
			msg := fmt.Sprintf("%s %s", res.Node, res.Status)
			if res.Tokens > 0 {
				msg += fmt.Sprintf(" · %d tok", res.Tokens)
			}
			w.progress(r.ID, progressValue{Kind: "report", Message: msg})
			w.refreshLenses()
		},
		RunFinished: func(r psession.RunInfo, res *runner.Result, err error) {
			msg := "ended"
			if res != nil {
				msg = res.Status
			}
			if err != nil {
				msg += ": " + err.Error()
				w.log.Warn("run ended with an error", "workflow", r.Workflow, "err", err)
			}
			w.progress(r.ID, progressValue{Kind: "end", Message: msg})
			w.mu.Lock()
			delete(w.tokens, r.ID)
			w.mu.Unlock()
			w.refreshLenses()
		},
	}
}

// openOutput shows a node's output document as it streams in.
func (w *Workbench) openOutput(r psession.RunInfo, node string) {
	p := runner.OutputPath(filepath.Dir(filepath.Dir(r.File)), r.Workflow, node)
	if ss := w.existing(r.File); ss != nil {
		p = ss.OutputPath(r.File, node)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	if _, err := os.Stat(p); err != nil {
		// The editor needs a file to open before the first text arrives.
		_ = os.WriteFile(p, []byte(fmt.Sprintf("<!-- flowcabal: workflow=%s node=%s state=\"running\" -->\n", r.Workflow, node)), 0o644)
	}
	w.show(p, false)
}

// show opens a document in the editor without waiting for its answer.
func (w *Workbench) show(p string, focus bool) {
	e := w.ed()
	if e == nil {
		return
	}
	go func() {
		if _, err := e.ShowDocument(context.Background(), cache.FileURI(p), focus); err != nil {
			w.log.Debug("show document", "path", p, "err", err)
		}
	}()
}

func (w *Workbench) refreshLenses() {
	if e := w.ed(); e != nil {
		e.RefreshViews()
	}
}

// CancelProgress cancels the run a progress token belongs to; it
// implements server.ProgressCanceller.
func (w *Workbench) CancelProgress(token string) {
	if w.Prose().cancelToken(token) {
		return // a chapter check
	}
	w.mu.Lock()
	file, ok := w.tokens[token]
	w.mu.Unlock()
	if !ok {
		return
	}
	if ss := w.existing(file); ss != nil {
		go ss.Cancel(file) // it waits for the run's end; the handler must not
	}
}

// outputHeader reads the workflow and node an output document belongs to.
var outputHeader = runner.OutputHeader

// resolveTarget finds the workflow file and node a command is about: the
// arguments name a .flow document (and a node, or a position inside one),
// or an output document whose header names both.
func (w *Workbench) resolveTarget(snap *cache.Snapshot, args server.CommandArgs, enc workflowlang.Encoding) (*cache.File, string, error) {
	path, ok := cache.URIPath(args.URI)
	if !ok {
		return nil, "", jsonrpc2.NewError(jsonrpc2.InvalidParams, "the command needs a file: URI")
	}
	if strings.HasSuffix(path, ".md") {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, "", err
		}
		m := outputHeader.FindSubmatch(data)
		if m == nil {
			return nil, "", jsonrpc2.NewError(jsonrpc2.InvalidParams, "this document is not a FlowCabal output")
		}
		root, err := project.FindRoot(filepath.Dir(path))
		if err != nil {
			return nil, "", err
		}
		flow := filepath.Join(root, filepath.FromSlash(string(m[1])))
		f, ok := snap.FileByPath(flow)
		if !ok {
			return nil, "", fmt.Errorf("workflow %s is not in the workspace", m[1])
		}
		node := string(m[2])
		if args.Node != "" {
			node = args.Node
		}
		return f, node, nil
	}
	f, ok := snap.File(args.URI)
	if !ok {
		return nil, "", jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s is not a workflow of the workspace", args.URI))
	}
	node := args.Node
	if node == "" && args.Position != nil {
		pf := snap.Parse(f)
		off := pf.Mapper().ClampOffset(workflowlang.Position{Line: int(args.Position.Line), Col: int(args.Position.Character)}, enc)
		for _, n := range pf.Nodes {
			if n.Span.Contains(off) {
				node = n.Name.Name
			}
		}
	}
	return f, node, nil
}

// Execute runs one of the runner's commands; it implements
// server.CommandRunner. It returns at once: runs go on in the background
// and report with $/progress. Commands that are not the runner's answer
// server.ErrNotAvailable.
func (w *Workbench) Execute(ctx context.Context, req server.CommandRequest) (any, error) {
	if h := authorCommands[req.Command]; h != nil {
		w.mu.Lock()
		w.editor = req.Editor
		w.mu.Unlock()
		return h(w, ctx, req)
	}
	if !runnerCommands[req.Command] {
		return nil, server.ErrNotAvailable
	}
	w.mu.Lock()
	w.editor = req.Editor
	w.mu.Unlock()
	if path, ok := cache.URIPath(req.Args.URI); ok {
		if ss, err := w.session(path); err == nil {
			w.ensureConfigured(req.Editor, ss)
		}
	}
	if req.Command == cmdDismiss {
		return w.dismiss(req)
	}
	if req.Command == cmdCheckChapter {
		return w.checkChapter(ctx, req)
	}
	command, args, snap := req.Command, req.Args, req.Snapshot
	f, node, err := w.resolveTarget(snap, args, workflowlang.UTF16)
	if err != nil {
		return nil, err
	}
	if f.Path == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "the workflow must be a file on disk")
	}
	ss, err := w.session(f.Path)
	if err != nil {
		return nil, err
	}
	needNode := func() error {
		if node == "" {
			return jsonrpc2.NewError(jsonrpc2.InvalidParams, command+" needs a node (\"node\", or a \"position\" inside one)")
		}
		return nil
	}
	switch command {
	case cmdBuild:
		return w.build(ctx, req, f)
	case cmdBuildAccept:
		return w.buildAccept(ctx, req, f)
	case cmdBuildReject:
		return w.buildReject(ctx, req, f)
	}
	wf := snap.Check(f)
	env := snap.Env()
	switch command {
	case cmdRunNode, cmdRunWorkflow, cmdRunFrom:
		t := runner.Target{}
		if command != cmdRunWorkflow {
			if err := needNode(); err != nil {
				return nil, err
			}
			t = runner.Target{Node: node, From: command == cmdRunFrom}
		}
		info, err := ss.Run(ctx, wf, env, runner.Options{Target: t, Force: args.Text == "force"})
		if err != nil {
			return nil, runError(err)
		}
		return map[string]any{"run": info.ID, "workflow": info.Workflow}, nil
	case cmdCancel:
		if node != "" && args.Node != "" {
			return map[string]any{"cancelled": ss.CancelNode(f.Path, node), "node": node}, nil
		}
		return map[string]any{"cancelled": ss.Cancel(f.Path)}, nil
	case cmdApprove, cmdRetry, cmdEdit, cmdSelect, cmdSkip:
		if err := needNode(); err != nil {
			return nil, err
		}
		decision := map[string]string{cmdApprove: runner.DecideApprove, cmdRetry: runner.DecideRetry, cmdEdit: runner.DecideEdit,
			cmdSelect: runner.DecideSelect, cmdSkip: runner.DecideSkip}[command]
		text := args.Text
		if command == cmdEdit && text == "" {
			// The author's edit: the output document as the editor has it
			// (saved or not), else as it is on disk.
			if open, ok := w.openProse(args.URI); ok && strings.HasSuffix(string(args.URI), ".md") {
				text = stripHeader(open)
			} else if text, err = editedText(ss.OutputPath(f.Path, node)); err != nil {
				return nil, err
			}
		}
		info, err := ss.Decide(ctx, wf, env, node, decision, text)
		if err != nil {
			return nil, runError(err)
		}
		return map[string]any{"run": info.ID}, nil
	case cmdFreeze:
		if err := needNode(); err != nil {
			return nil, err
		}
		v, err := ss.Freeze(ctx, f.Path, node, versionArg(args))
		if err != nil {
			return nil, runError(err)
		}
		w.refreshLenses()
		return map[string]any{"frozen": v}, nil
	case cmdUnfreeze:
		if err := needNode(); err != nil {
			return nil, err
		}
		if err := ss.Unfreeze(ctx, f.Path, node); err != nil {
			return nil, runError(err)
		}
		w.refreshLenses()
		return map[string]any{"unfrozen": node}, nil
	case cmdRestoreVersion:
		if err := needNode(); err != nil {
			return nil, err
		}
		v := versionArg(args)
		if v <= 0 {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "restoreVersion needs the version to restore (\"version\" or \"text\")")
		}
		o, err := ss.Restore(ctx, f.Path, node, v)
		if err != nil {
			return nil, runError(err)
		}
		w.refreshLenses()
		return map[string]any{"restored": o.Version}, nil
	case cmdPersist:
		if err := needNode(); err != nil {
			return nil, err
		}
		c, err := ss.Persist(ctx, wf, node, "")
		if err != nil {
			return nil, runError(err)
		}
		msg := fmt.Sprintf("Curated %s into %s (version %d).", node, c.Target, c.Version)
		if c.Unchanged {
			msg = fmt.Sprintf("%s already holds this output: nothing changed.", c.Target)
		}
		if n := len(c.Findings); n > 0 {
			msg += fmt.Sprintf(" The fact checks raised %d point(s) on it; they are shown on the chapter.", n)
		}
		if e := w.ed(); e != nil {
			_ = e.Notify(context.Background(), "window/showMessage", map[string]any{"type": 3, "message": msg})
		}
		return map[string]any{"target": c.Target, "file": c.File, "version": c.Version, "unchanged": c.Unchanged, "findings": len(c.Findings)}, nil
	case cmdShowContext:
		if err := needNode(); err != nil {
			return nil, err
		}
		p, err := ss.ShowContext(ctx, wf, node)
		if err != nil {
			return nil, runError(err)
		}
		w.show(p, true)
		return map[string]any{"document": string(cache.FileURI(p))}, nil
	case cmdCompare:
		if err := needNode(); err != nil {
			return nil, err
		}
		return w.compare(ctx, ss, f.Path, node, args)
	case cmdOpenOutput:
		if err := needNode(); err != nil {
			return nil, err
		}
		p := ss.OutputPath(f.Path, node)
		if _, err := os.Stat(p); err != nil {
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s has no output yet: run it first", node))
		}
		w.show(p, true)
		return map[string]any{"document": string(cache.FileURI(p))}, nil
	}
	return nil, server.ErrNotAvailable
}

// runError gives the runner's refusals a proper JSON-RPC error: the
// request was understood but cannot be carried out now.
func runError(err error) error {
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return err
	}
	return jsonrpc2.NewError(codeRequestFailed, err.Error())
}

func versionArg(args server.CommandArgs) int {
	if args.Version != nil {
		return int(*args.Version)
	}
	v, _ := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(args.Text), "v"))
	return v
}

// editedText reads the author's edit of an output document: its text
// without the header line.
func editedText(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read the edited output: %w", err)
	}
	return stripHeader(string(data)), nil
}

// stripHeader removes an output document's header line.
func stripHeader(text string) string {
	if outputHeader.MatchString(text) {
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			return text[i+1:]
		}
	}
	return text
}

// openProse returns the editor's text of an open Markdown document.
func (w *Workbench) openProse(uri protocol.DocumentURI) (string, bool) {
	pr := w.Prose()
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if d, ok := pr.docs[uri]; ok {
		return d.text, true
	}
	return "", false
}

// Lenses adds, above each node, what its last run left: "✓ approved ·
// 1,240 tok · v3", "⚠ needs you" with the decisions, "❄ frozen v2",
// "↻ running 3/7". It reads the store only when one exists, and never
// creates one.
func (w *Workbench) Lenses(snap *cache.Snapshot, f *cache.File, enc workflowlang.Encoding) []protocol.CodeLens {
	if f.Path == "" {
		return nil
	}
	// A session is only memory until the author acts; States reads the
	// store without creating one.
	ss, err := w.session(f.Path)
	if err != nil {
		return nil
	}
	states := ss.States(f.Path)
	pf := snap.Parse(f)
	lensRange := func(n *workflowlang.Node) protocol.Range {
		return source.Range(pf, workflowlang.Span{Start: n.Span.Start, End: n.Span.Start}, enc)
	}
	arg := func(node, text string) []any {
		m := map[string]any{"uri": string(f.URI), "node": node}
		if text != "" {
			m["text"] = text
		}
		return []any{m}
	}
	var out []protocol.CodeLens
	for _, n := range pf.Nodes {
		st, ok := states[n.Name.Name]
		if !ok || st.Label() == "" {
			continue
		}
		r := lensRange(n)
		out = append(out, protocol.CodeLens{Range: r, Command: &protocol.Command{Title: st.Label(), Command: cmdOpenOutput, Arguments: arg(n.Name.Name, "")}})
		switch {
		case st.Status == "needs you" && len(st.Select) > 0:
			for _, v := range st.Select {
				out = append(out, protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "Keep " + v, Command: cmdSelect, Arguments: arg(n.Name.Name, v)}})
			}
		case st.Status == "needs you":
			out = append(out,
				protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "✓ Approve", Command: cmdApprove, Arguments: arg(n.Name.Name, "")}},
				protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "↻ Retry", Command: cmdRetry, Arguments: arg(n.Name.Name, "")}},
				protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "✎ Use my edit", Command: cmdEdit, Arguments: arg(n.Name.Name, "")}})
		case st.Status == "stopped":
			// Raise max_cost, then continue the run from here.
			out = append(out, protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "↻ Resume", Command: cmdRetry, Arguments: arg(n.Name.Name, "")}})
		case st.Status == "failed":
			out = append(out,
				protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "↻ Retry", Command: cmdRetry, Arguments: arg(n.Name.Name, "")}},
				protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "⏭ Skip", Command: cmdSkip, Arguments: arg(n.Name.Name, "")}})
		case st.Status == "approved":
			out = append(out, staleLenses(st, r, arg(n.Name.Name, ""))...)
			if a := n.Attr("persist"); a != nil {
				out = append(out, protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "⤓ Persist", Command: cmdPersist, Arguments: arg(n.Name.Name, "")}})
			}
		}
	}
	return out
}

// Opened has Role A's view of the project of a workflow just opened read
// in the background (server.Options.Opened), so that the first hover on
// one of its nodes finds it read or under way. The workflow's estimate is
// not made here: made for every workflow opened (lspbench opens 50 of
// 200 nodes), it raised the server's peak memory from 96 to 110 MB; the
// lenses have it made for the workflows on screen.
func (w *Workbench) Opened(snap *cache.Snapshot, f *cache.File) {
	if f.Path == "" {
		return
	}
	if ss, err := w.session(f.Path); err == nil {
		ss.Prepare()
	}
}

// ContextSection renders Role A's part of a node's hover: what would be
// injected if the node ran now (computed live from the project's files),
// as a compact table with clickable paths (project paths alone for a
// client that shows Markdown as text), the tokens against the budget, and
// what was left out. It is a source.ContextSection.
func (w *Workbench) ContextSection(snap *cache.Snapshot, f *cache.File, node string, links bool) (string, error) {
	if f.Path == "" {
		return "", errors.New("the document is not a file of a project")
	}
	ss, err := w.session(f.Path)
	if err != nil {
		return "", err
	}
	n := snap.Parse(f).Node(node)
	if n == nil {
		return "", fmt.Errorf("no node %q", node)
	}
	if a := n.Attr("context"); a != nil {
		if v, ok := a.Value.(*workflowlang.WordValue); ok && v.Name == "off" {
			return w.costSection(snap, f, node) + "`context = off`: Role A injects nothing into this node.", nil
		}
	}
	c, err := ss.ContextPreview(snap.Check(f), node)
	var indexing *psession.IndexingError
	if errors.As(err, &indexing) {
		// The hover answers now; hovering again shows the context.
		return fmt.Sprintf("_%s; hover again in a moment._", indexing.Error()), nil
	}
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if st, ok := ss.States(f.Path)[node]; ok && st.Label() != "" {
		fmt.Fprintf(&b, "Last run: %s", st.Label())
		if len(st.Select) > 0 {
			fmt.Fprintf(&b, " (candidates %s: keep one with its lens)", strings.Join(st.Select, ", "))
		}
		b.WriteString("\n\n")
	}
	b.WriteString(w.costSection(snap, f, node))
	fmt.Fprintf(&b, "Would be injected now: **%d** of %d tokens", c.Tokens, c.Budget)
	if c.Chapter > 0 {
		fmt.Fprintf(&b, " · writing chapter %d", c.Chapter)
	}
	b.WriteString("\n\n| source | level | tokens | why |\n|---|---|---|---|\n")
	for _, src := range c.Sources {
		stale := ""
		if src.Stale {
			stale = " ⚠ stale"
		}
		if links {
			fmt.Fprintf(&b, "| [%s](%s) | %s%s | %d | %s |\n", src.Path, cache.FileURI(filepath.Join(ss.Root(), filepath.FromSlash(src.Path))), src.Level, stale, src.Tokens, mdCell(src.Reason))
		} else {
			fmt.Fprintf(&b, "| %s | %s%s | %d | %s |\n", src.Path, src.Level, stale, src.Tokens, mdCell(src.Reason))
		}
	}
	b.WriteString(threadSection(ss, c.Chapter))
	if len(c.Dropped) > 0 {
		const max = 5
		fmt.Fprintf(&b, "\nLeft out (%d):", len(c.Dropped))
		for i, d := range c.Dropped {
			if i == max {
				fmt.Fprintf(&b, " … and %d more", len(c.Dropped)-max)
				break
			}
			fmt.Fprintf(&b, " `%s` (%s);", d.Path, mdCell(d.Why))
		}
		b.WriteString("\n")
	}
	if last, v, ok := ss.LastContext(snap.Check(f), node); ok {
		if last.Hash == c.Hash {
			fmt.Fprintf(&b, "\nSame as injected for the current output (v%d).\n", v)
		} else {
			came, went := psession.ContextChanges(last, c)
			fmt.Fprintf(&b, "\nSince the current output (v%d, %d tokens): %d came, %d went.", v, last.Tokens, len(came), len(went))
			for i, x := range came {
				if i == 5 {
					fmt.Fprintf(&b, " …")
					break
				}
				fmt.Fprintf(&b, " +`%s`", x)
			}
			for i, x := range went {
				if i == 5 {
					fmt.Fprintf(&b, " …")
					break
				}
				fmt.Fprintf(&b, " −`%s`", x)
			}
			b.WriteString("\n")
		}
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "\n_%s_\n", mdCell(n))
	}
	fmt.Fprintf(&b, "\ncontext hash `%.12s`", c.Hash)
	return b.String(), nil
}

// cellEscaper keeps a value inside one Markdown table cell. A Replacer
// is immutable once made; building one per cell cost more than the
// hover's table.
var cellEscaper = strings.NewReplacer("|", "\\|", "\n", " ")

func mdCell(s string) string { return cellEscaper.Replace(s) }

// FilesChanged tells the sessions of the changed files' projects that
// their knowledge changed: Role A and Role C rebuild their view, and the
// store (when open) re-indexes those files.
func (w *Workbench) FilesChanged(paths []string) {
	byRoot := map[*psession.Session][]string{}
	w.mu.Lock()
	for _, p := range paths {
		for root, ss := range w.sessions {
			if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
				if strings.HasSuffix(p, ".md") || filepath.Base(p) == project.ConfigFile {
					byRoot[ss] = append(byRoot[ss], p)
				}
			}
		}
	}
	w.mu.Unlock()
	for ss, files := range byRoot {
		ss.KnowledgeChanged(context.Background(), files...)
	}
}
