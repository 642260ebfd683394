package workbench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/entityfacts"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
)

// FactProposal is one proposal as the editors get it, with the id the
// accept command takes back.
type FactProposal struct {
	entityfacts.Proposal
	ID string `json:"id"`
}

// EntityFactsResult is what flowcabal.entityFacts answers.
type EntityFactsResult struct {
	Entity    string                  `json:"entity"`
	Path      string                  `json:"path"`
	Model     string                  `json:"model"`
	Cached    bool                    `json:"cached"`
	Passages  int                     `json:"passages"`
	Chapters  int                     `json:"chapters"`
	Proposals []FactProposal          `json:"proposals"`
	Rejected  []entityfacts.Rejection `json:"rejected"`
	Message   string                  `json:"message"`
}

// AcceptFactsResult is what flowcabal.acceptFacts answers.
type AcceptFactsResult struct {
	Applied bool   `json:"applied"`
	Added   int    `json:"added"`
	Message string `json:"message"`
}

// factID names a proposal stably across the two commands: the accept
// recomputes the proposals (from the cache) and finds the chosen ones.
func factID(p entityfacts.Proposal) string {
	return fmt.Sprintf("%s:%d:%s=%s", p.Kind, p.Chapter, p.Key, p.Value)
}

// entityProposals proposes facts for the entity file of req's uri, as the
// buffer (req's text) or the disk has it.
func (w *Workbench) entityProposals(ctx context.Context, req server.CommandRequest) (*entityfacts.Result, string, []byte, error) {
	path, ok := cache.URIPath(req.Args.URI)
	if !ok {
		return nil, "", nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "the command takes {uri: an entity file, text?: its buffer}")
	}
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || !strings.HasPrefix(filepath.ToSlash(rel), "entities/") {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, "facts are proposed for an entity file (under entities/)")
	}
	rel = filepath.ToSlash(rel)
	data := []byte(req.Args.Text)
	if req.Args.Text == "" {
		if data, err = os.ReadFile(path); err != nil {
			return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
		}
	}
	doc, err := knowledge.ParseDocument(rel, data)
	if err != nil {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	ent, err := knowledge.EntityFromDocument(doc)
	if ent == nil {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s declares no entity: %v", rel, err))
	}
	p, _ := knowledge.LoadProject(root)
	chapters := entityfacts.ChaptersOf(p)
	if len(chapters) == 0 {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s has no manuscript chapters: import the manuscript first", root))
	}
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	ac := llm.FromProject(cfg, llm.Agent)
	if m, ok := editorModels(ctx, req.Editor)[llm.Agent]; ok {
		ac = ac.Merge(m)
	}
	if err := ac.Validate(); err != nil {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed,
			"no agent model is configured, so no facts can be proposed: set [models.agent] (base_url, model, api_key_env) in flowcabal.toml, or flowcabal.models.agent in the editor's settings ("+err.Error()+")")
	}
	ss, err := w.session(path)
	if err != nil {
		return nil, "", nil, runError(err)
	}
	st, err := ss.Store(ctx)
	if err != nil {
		return nil, "", nil, runError(err)
	}
	client, err := llm.New(ac, llm.Options{Getenv: w.getenv, Logger: w.log, Recorder: runner.LogRecorder{Store: st}})
	if err != nil {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, "the agent model: "+err.Error())
	}
	defer client.Close()
	prop := &entityfacts.Proposer{Model: ac.Model, Chat: client, Cache: st, Folder: folder}
	res, err := prop.Propose(ctx, ent, entityfacts.NewBook(chapters))
	if err != nil {
		return nil, "", nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: %v", ent.Name, err))
	}
	return res, root, data, nil
}

func (w *Workbench) entityFacts(ctx context.Context, req server.CommandRequest) (any, error) {
	res, _, _, err := w.entityProposals(ctx, req)
	if err != nil {
		return nil, err
	}
	out := &EntityFactsResult{Entity: res.Entity, Path: res.Path, Model: res.Model, Cached: res.Cached, Passages: res.Passages,
		Chapters: res.Chapters, Proposals: []FactProposal{}, Rejected: res.Rejected}
	news := 0
	for _, p := range res.Proposals {
		out.Proposals = append(out.Proposals, FactProposal{Proposal: p, ID: factID(p)})
		if p.Status == entityfacts.StatusNew {
			news++
		}
	}
	out.Message = fmt.Sprintf("%s: %d new proposals, %d rejected for want of evidence (%d passages shown, of the %d chapters that mention it)",
		res.Entity, news, len(res.Rejected), res.Passages, res.Chapters)
	return out, nil
}

func (w *Workbench) acceptFacts(ctx context.Context, req server.CommandRequest) (any, error) {
	if len(req.Args.Names) == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "acceptFacts needs \"names\": the ids of the proposals to add")
	}
	res, _, data, err := w.entityProposals(ctx, req)
	if err != nil {
		return nil, err
	}
	chosen := &entityfacts.Result{}
	for _, id := range req.Args.Names {
		i := slices.IndexFunc(res.Proposals, func(p entityfacts.Proposal) bool { return factID(p) == id })
		switch {
		case i < 0:
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%q is not among the proposals (the file or the manuscript changed?); nothing was added", id))
		case res.Proposals[i].Status == entityfacts.StatusConflict:
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: the file says %s; change it by hand if the text is right. Nothing was added", id, res.Proposals[i].Existing))
		case res.Proposals[i].Status == entityfacts.StatusNew:
			chosen.Proposals = append(chosen.Proposals, res.Proposals[i])
		}
	}
	add := entityfacts.Accepted(chosen)
	if add.Empty() {
		return &AcceptFactsResult{Applied: true, Message: "the file says all of it already"}, nil
	}
	out, err := entityfacts.AddToFile(data, add)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	edit := lineEdit(string(data), string(out))
	ar, err := req.Editor.ApplyDocumentChanges(ctx, "Add facts to "+res.Entity, []server.DocumentChange{
		server.NewTextDocumentEdit(req.Args.URI, req.Args.Version, []protocol.TextEdit{edit}),
	})
	if err != nil {
		return nil, err
	}
	n := len(chosen.Proposals)
	if !ar.Applied {
		return &AcceptFactsResult{Message: "the editor did not apply the edit: " + ar.FailureReason}, nil
	}
	return &AcceptFactsResult{Applied: true, Added: n, Message: fmt.Sprintf("added %d to %s: save it to keep them", n, res.Path)}, nil
}

// lineEdit is the edit that turns old into new as whole lines: the lines
// both share at the start and at the end stay, the others are replaced.
// Its range starts and ends at a line start, so it is the same in every
// position encoding.
func lineEdit(old, new string) protocol.TextEdit {
	ol, nl := strings.SplitAfter(old, "\n"), strings.SplitAfter(new, "\n")
	pre := 0
	for pre < len(ol) && pre < len(nl) && ol[pre] == nl[pre] {
		pre++
	}
	suf := 0
	for suf < len(ol)-pre && suf < len(nl)-pre && ol[len(ol)-1-suf] == nl[len(nl)-1-suf] {
		suf++
	}
	return protocol.TextEdit{
		Range: protocol.Range{
			Start: protocol.Position{Line: uint32(pre)},
			End:   protocol.Position{Line: uint32(len(ol) - suf)},
		},
		NewText: strings.Join(nl[pre:len(nl)-suf], ""),
	}
}
