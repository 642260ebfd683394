package workbench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/builder"
	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// Role B's commands.
const (
	cmdBuild       = "flowcabal.build"
	cmdBuildAccept = "flowcabal.buildAccept"
	cmdBuildReject = "flowcabal.buildReject"
)

// build asks Role B for a suggestion in the background: the model may
// take a while. When it is ready, its preview (a diff) opens in the editor
// and a message says how to accept or reject it; nothing changes in the
// workflow until the author accepts.
func (w *Workbench) build(ctx context.Context, req server.CommandRequest, f *cache.File) (any, error) {
	intent := strings.TrimSpace(req.Args.Text)
	if intent == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "flowcabal.build needs the intent as \"text\" (what you want the workflow to do)")
	}
	ss, err := w.session(f.Path)
	if err != nil {
		return nil, err
	}
	b, err := ss.Builder(ctx)
	if err != nil {
		return nil, runError(err)
	}
	offset := -1
	if p := req.Args.Position; p != nil {
		offset = builder.Offset(string(f.Src), workflowlang.Position{Line: int(p.Line), Col: int(p.Character)}, workflowlang.UTF16)
	}
	breq := builder.Request{URI: string(f.URI), Path: f.Path, Text: string(f.Src), Offset: offset, Intent: intent, Env: req.Snapshot.Env()}
	token := fmt.Sprintf("flowcabal-build-%p-%d", b, len(intent))
	w.progress(token, progressValue{Kind: "begin", Title: "FlowCabal: building", Message: intent})
	w.mu.Lock()
	w.agentTokens["B"] = token
	w.mu.Unlock()
	go func() {
		defer func() {
			w.mu.Lock()
			delete(w.agentTokens, "B")
			w.mu.Unlock()
		}()
		s, err := b.Suggest(context.WithoutCancel(ctx), breq)
		if err != nil {
			w.progress(token, progressValue{Kind: "end", Message: "no suggestion: " + err.Error()})
			w.message(1, "FlowCabal could not build a suggestion: "+err.Error())
			return
		}
		w.progress(token, progressValue{Kind: "end", Message: "suggestion ready"})
		w.offer(ss.Root(), f, s)
	}()
	return map[string]any{"status": "building", "intent": intent}, nil
}

// offer shows a suggestion's preview and says how to decide on it.
func (w *Workbench) offer(root string, f *cache.File, s *builder.Suggestion) {
	p := filepath.Join(root, project.DataDir, "builds", s.ID+".diff")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
		if err := os.WriteFile(p, []byte(s.Preview), 0o644); err == nil {
			w.show(p, false)
		}
	}
	what := s.Summary
	if what == "" {
		what = s.Intent
	}
	w.message(3, fmt.Sprintf("FlowCabal suggests for %s: %s (adds %s). Accept with “FlowCabal: Accept Build” or reject with “FlowCabal: Reject Build”.", filepath.Base(f.Path), what, strings.Join(s.Added, ", ")))
}

func (w *Workbench) message(kind int, msg string) {
	if e := w.ed(); e != nil {
		_ = e.Notify(context.Background(), "window/showMessage", map[string]any{"type": kind, "message": msg})
	}
}

// buildAccept applies the pending suggestion (as one workspace edit that
// leaves every untouched byte alone), or, with a modification in "text",
// asks for a refined suggestion in the background.
func (w *Workbench) buildAccept(ctx context.Context, req server.CommandRequest, f *cache.File) (any, error) {
	ss, err := w.session(f.Path)
	if err != nil {
		return nil, err
	}
	b, err := ss.Builder(ctx)
	if err != nil {
		return nil, runError(err)
	}
	ar := builder.AcceptRequest{URI: string(f.URI), Text: string(f.Src), Modification: req.Args.Text}
	if strings.TrimSpace(req.Args.Text) != "" {
		go func() {
			s, err := b.Accept(context.WithoutCancel(ctx), ar)
			if err != nil {
				w.message(1, "FlowCabal could not refine the suggestion: "+err.Error())
				return
			}
			w.offer(ss.Root(), f, s)
		}()
		return map[string]any{"status": "refining"}, nil
	}
	s, err := b.Accept(ctx, ar)
	if err != nil {
		return nil, runError(err)
	}
	var edits []protocol.TextEdit
	for _, e := range s.Ranges(workflowlang.UTF16) {
		edits = append(edits, protocol.TextEdit{
			Range:   protocol.Range{Start: protocol.Position{Line: uint32(e.Start.Line), Character: uint32(e.Start.Col)}, End: protocol.Position{Line: uint32(e.End.Line), Character: uint32(e.End.Col)}},
			NewText: e.NewText,
		})
	}
	res, err := req.Editor.ApplyEdit(ctx, "FlowCabal: "+s.Intent, &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{f.URI: edits}})
	if err != nil {
		return nil, runError(err)
	}
	return map[string]any{"applied": res.Applied, "added": s.Added}, nil
}

// buildReject drops the pending suggestion, recording the reason for the
// next one.
func (w *Workbench) buildReject(ctx context.Context, req server.CommandRequest, f *cache.File) (any, error) {
	ss, err := w.session(f.Path)
	if err != nil {
		return nil, err
	}
	b, err := ss.Builder(ctx)
	if err != nil {
		return nil, runError(err)
	}
	if err := b.Reject(ctx, builder.RejectRequest{URI: string(f.URI), Reason: req.Args.Text}); err != nil {
		return nil, runError(err)
	}
	return map[string]any{"rejected": true}, nil
}

// agentEvent reports the agent core's steps: in the progress of the work
// they belong to (which agent acts, which tool it called) and as log
// lines, which the editor's output channel shows.
func (w *Workbench) agentEvent(e core.Event) {
	w.log.Info("agent", "role", e.Role, "agent", e.Agent, "tool", e.Tool, "step", e.Step, "msg", e.Message)
	w.mu.Lock()
	token := w.agentTokens[e.Role]
	w.mu.Unlock()
	if token == "" {
		return
	}
	msg := fmt.Sprintf("%s: %s", e.Agent, e.Kind)
	if e.Tool != "" {
		msg += " " + e.Tool
	}
	if e.Message != "" {
		msg += " · " + e.Message
	}
	w.progress(token, progressValue{Kind: "report", Message: msg})
}

// Completions offers Role B's whole-node snippets that fit the node
// before the cursor (after a draft: a critique of it, a dialogue pass…),
// deterministically, without a model.
func (w *Workbench) Completions(snap *cache.Snapshot, f *cache.File, pos protocol.Position, enc workflowlang.Encoding, snippets bool) []protocol.CompletionItem {
	lib, err := w.library()
	if err != nil {
		return nil
	}
	pf := snap.Parse(f)
	off := pf.Mapper().ClampOffset(workflowlang.Position{Line: int(pos.Line), Col: int(pos.Character)}, enc)
	var out []protocol.CompletionItem
	for i, sn := range lib.Snippets(snap.Check(f), off) {
		it := protocol.CompletionItem{Label: sn.Label, Detail: sn.Detail, Kind: protocol.CompletionItemKindSnippet,
			SortText: fmt.Sprintf("zz%03d", i), FilterText: sn.Name, InsertText: sn.Text, InsertTextFormat: protocol.InsertTextFormatPlainText}
		if snippets {
			it.InsertText, it.InsertTextFormat = sn.Snippet, protocol.InsertTextFormatSnippet
		}
		out = append(out, it)
	}
	return out
}

// CodeActions offers Role B's actions on the node under the range: those
// with a ready-made patch carry their edit (no model involved, nothing
// changes until the author picks one); the others ask the builder. The
// edit of a patch is the costly part (the builder applies it and checks
// the result): with lazy, it waits for ResolveCodeAction and the action
// carries what that needs as its data.
func (w *Workbench) CodeActions(ctx context.Context, snap *cache.Snapshot, f *cache.File, rng protocol.Range, only []protocol.CodeActionKind, enc workflowlang.Encoding, lazy bool) []protocol.CodeAction {
	if len(only) > 0 && !slices.ContainsFunc(only, func(k protocol.CodeActionKind) bool {
		return strings.HasPrefix(string(protocol.Refactor), string(k)) // "", "refactor"
	}) {
		return nil
	}
	pf := snap.Parse(f)
	off := pf.Mapper().ClampOffset(workflowlang.Position{Line: int(rng.Start.Line), Col: int(rng.Start.Character)}, enc)
	var node string
	for _, n := range pf.Nodes {
		if n.Span.Contains(off) {
			node = n.Name.Name
		}
	}
	if node == "" {
		return nil
	}
	lib, err := w.library()
	if err != nil {
		return nil
	}
	res := snap.Check(f)
	var out []protocol.CodeAction
	if lazy {
		// Titles only: the patches are made by ResolveCodeAction, for
		// the one action chosen.
		listed := lib.ListCodeActions(res, node)
		out = make([]protocol.CodeAction, 0, len(listed))
		for _, a := range listed {
			act := protocol.CodeAction{Title: a.Title, Kind: protocol.Refactor}
			if a.Patch {
				act.Data = actionData{URI: f.URI, Version: f.Version, Node: node, Title: a.Title, At: rng.Start}
			} else {
				buildCommand(&act, f.URI, node, a.Title, a.Intent)
			}
			out = append(out, act)
		}
		return out
	}
	for _, a := range lib.CodeActions(res, node) {
		act := protocol.CodeAction{Title: a.Title, Kind: protocol.Refactor}
		if len(a.Ops) > 0 {
			e, err := w.patchEdit(ctx, snap, f, off, a, enc)
			if err != nil {
				continue
			}
			act.Edit = e
		} else {
			buildCommand(&act, f.URI, node, a.Title, a.Intent)
		}
		out = append(out, act)
	}
	return out
}

// buildCommand makes act an action that asks the builder's model for
// intent on node.
func buildCommand(act *protocol.CodeAction, uri protocol.DocumentURI, node, title, intent string) {
	act.Title += " (asks the agent model)"
	act.Command = &protocol.Command{Title: title, Command: cmdBuild, Arguments: []any{buildArgs{Node: node, Text: intent, URI: uri}}}
}

// buildArgs is the argument of a build command as a code action carries
// it: a struct rather than a map, which the encoder writes without
// sorting keys (the fields are in the keys' order, so the JSON is the
// map's).
type buildArgs struct {
	Node string               `json:"node"`
	Text string               `json:"text"`
	URI  protocol.DocumentURI `json:"uri"`
}

// actionData is what a lazily listed action carries to codeAction/resolve:
// the action by its node and title, in the version of the document it was
// listed for.
type actionData struct {
	URI     protocol.DocumentURI `json:"uri"`
	Version int32                `json:"version"`
	Node    string               `json:"node"`
	Title   string               `json:"title"`
	At      protocol.Position    `json:"at"`
}

// ResolveCodeAction makes the edit of an action CodeActions listed
// lazily. A document edited since the listing gets ContentModified: the
// edit would be made against text the author no longer has.
func (w *Workbench) ResolveCodeAction(ctx context.Context, snap *cache.Snapshot, act protocol.CodeAction, enc workflowlang.Encoding) (protocol.CodeAction, error) {
	raw, err := json.Marshal(act.Data)
	if err != nil {
		return act, fmt.Errorf("resolve %q: %w", act.Title, err)
	}
	var d actionData
	if err := json.Unmarshal(raw, &d); err != nil || d.URI == "" || d.Title == "" {
		return act, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("resolve %q: data %s is not a Role B action's", act.Title, raw))
	}
	f, ok := snap.File(d.URI)
	if !ok || f.Version != d.Version {
		return act, jsonrpc2.NewError(protocol.CodeContentModified, fmt.Sprintf("resolve %q: %s changed since the action was listed; ask for the actions again", act.Title, d.URI))
	}
	lib, err := w.library()
	if err != nil {
		return act, fmt.Errorf("resolve %q: %w", act.Title, err)
	}
	for _, a := range lib.CodeActions(snap.Check(f), d.Node) {
		if a.Title != d.Title || len(a.Ops) == 0 {
			continue
		}
		off := snap.Parse(f).Mapper().ClampOffset(workflowlang.Position{Line: int(d.At.Line), Col: int(d.At.Character)}, enc)
		e, err := w.patchEdit(ctx, snap, f, off, a, enc)
		if err != nil {
			return act, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("resolve %q: %v", act.Title, err))
		}
		act.Edit = e
		return act, nil
	}
	return act, jsonrpc2.NewError(protocol.CodeContentModified, fmt.Sprintf("resolve %q: node %s no longer offers it", act.Title, d.Node))
}

// patchEdit is the edit Role B's ready-made patch a makes to f at off:
// applied by the builder, which checks the workflow it gives.
func (w *Workbench) patchEdit(ctx context.Context, snap *cache.Snapshot, f *cache.File, off int, a builder.Action, enc workflowlang.Encoding) (*protocol.WorkspaceEdit, error) {
	lib, err := w.library()
	if err != nil {
		return nil, err
	}
	b, err := builder.New(builder.Options{Library: lib})
	if err != nil {
		return nil, err
	}
	s, err := b.Apply(ctx, builder.Request{URI: string(f.URI), Path: f.Path, Text: string(f.Src), Offset: off, Intent: a.Intent, Env: snap.Env()}, a.Title, a.Ops)
	if err != nil {
		return nil, err
	}
	var edits []protocol.TextEdit
	for _, e := range s.Ranges(enc) {
		edits = append(edits, protocol.TextEdit{
			Range:   protocol.Range{Start: protocol.Position{Line: uint32(e.Start.Line), Character: uint32(e.Start.Col)}, End: protocol.Position{Line: uint32(e.End.Line), Character: uint32(e.End.Col)}},
			NewText: e.NewText,
		})
	}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{f.URI: edits}}, nil
}

// library is Role B's template base, parsed and indexed once: completion
// asks for it on every keystroke.
func (w *Workbench) library() (*builder.Library, error) {
	w.libOnce.Do(func() { w.lib, w.libErr = builder.DefaultLibrary() })
	return w.lib, w.libErr
}
