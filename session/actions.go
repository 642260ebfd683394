package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// Decide records the author's decision on a node of the latest waiting
// run of the workflow and continues that run in the background.
func (s *Session) Decide(ctx context.Context, wf *workflowlang.Result, env workflowlang.Env, node, decision, text string) (RunInfo, error) {
	s.mu.Lock()
	st, cfg, err := s.storeLocked(ctx)
	s.mu.Unlock()
	if err != nil {
		return RunInfo{}, err
	}
	wid := s.WorkflowID(wf.File.Path)
	// The latest run that has the node, finished or not: a failed run is
	// decided on (retry, skip) as much as one that waits.
	runs, err := st.Runs(wid, false)
	if err != nil {
		return RunInfo{}, err
	}
	var runID string
	for _, r := range runs {
		if _, ok := r.Nodes[node]; ok {
			runID = r.RunID
			break
		}
	}
	if runID == "" {
		if decision == runner.DecideRetry {
			// A finished node run again with the author's feedback (the
			// quick-fix "ask the model to fix this passage").
			opts := runner.Options{Target: runner.Target{Node: node}, Rerun: []string{node}}
			if text != "" {
				opts.Feedback = map[string]string{node: text}
			}
			return s.Run(ctx, wf, env, opts)
		}
		return RunInfo{}, fmt.Errorf("no unfinished run of %s has an output of %s to decide on", wid, node)
	}
	s.mu.Lock()
	po := runner.ProjectOptions{Getenv: s.opts.Getenv, Overrides: s.opts.Overrides, APIKey: s.opts.APIKey, Log: s.log, Env: env,
		Known: s.knownLocked(st, cfg)}
	s.mu.Unlock()
	r, err := runner.ForProject(ctx, s.root, cfg, st, po)
	if err != nil {
		return RunInfo{}, err
	}
	opts, err := r.Decide(ctx, runID, node, decision, text)
	if err != nil {
		return RunInfo{}, err
	}
	return s.Run(ctx, wf, env, opts)
}

// Freeze pins a node to an output version (0: its current one); the
// runner then reuses it without calling a model.
func (s *Session) Freeze(ctx context.Context, file, node string, version int) (int, error) {
	st, err := s.Store(ctx)
	if err != nil {
		return 0, err
	}
	wid := s.WorkflowID(file)
	if version == 0 {
		ns, err := st.Node(wid, node)
		if err != nil {
			return 0, err
		}
		version = ns.Current
	}
	if version == 0 {
		return 0, fmt.Errorf("%s has no output to freeze yet: run it first", node)
	}
	o, err := st.Freeze(ctx, wid, node, version)
	if err != nil {
		return 0, err
	}
	s.writeOutputDoc(wid, node, o.Text, fmt.Sprintf("frozen v%d", o.Version))
	return o.Version, nil
}

// Unfreeze releases a frozen node.
func (s *Session) Unfreeze(ctx context.Context, file, node string) error {
	st, err := s.Store(ctx)
	if err != nil {
		return err
	}
	return st.Unfreeze(ctx, s.WorkflowID(file), node)
}

// Restore makes an earlier output version the node's current one and
// rewrites its output document.
func (s *Session) Restore(ctx context.Context, file, node string, version int) (store.Output, error) {
	st, err := s.Store(ctx)
	if err != nil {
		return store.Output{}, err
	}
	wid := s.WorkflowID(file)
	o, err := st.RestoreOutput(ctx, wid, node, version)
	if err != nil {
		return o, err
	}
	s.writeOutputDoc(wid, node, o.Text, fmt.Sprintf("restored v%d", o.Version))
	return o, nil
}

// Versions lists a node's output history, oldest first.
func (s *Session) Versions(ctx context.Context, file, node string) ([]store.Output, error) {
	st, err := s.Store(ctx)
	if err != nil {
		return nil, err
	}
	return st.Outputs(s.WorkflowID(file), node)
}

func (s *Session) writeOutputDoc(wid, node, text, state string) {
	p := runner.OutputPath(s.root, wid, node)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	doc := fmt.Sprintf("<!-- flowcabal: workflow=%s node=%s state=%q -->\n%s", wid, node, state, text)
	_ = os.WriteFile(p, []byte(doc), 0o644)
}

// OutputPath is where the node's output document lives.
func (s *Session) OutputPath(file, node string) string {
	return runner.OutputPath(s.root, s.WorkflowID(file), node)
}

// Curated is what Persist did, with the fact checks of the curated text
// (they warn; they never block the author).
type Curated struct {
	store.PersistResult
	Findings []factcheck.Finding
}

// Persist curates the node's current output into the target its
// `persist` attribute names (or target, when given).
func (s *Session) Persist(ctx context.Context, wf *workflowlang.Result, node, target string) (*Curated, error) {
	n := wf.File.Node(node)
	if n == nil {
		return nil, fmt.Errorf("no node %q", node)
	}
	if target == "" {
		if a := n.Attr("persist"); a != nil {
			if v, ok := a.Value.(*workflowlang.StringValue); ok {
				target = v.Value
			}
		}
	}
	if target == "" {
		return nil, fmt.Errorf("node %s has no persist target: add persist = \"manuscript/chapter-NN\"", node)
	}
	st, err := s.Store(ctx)
	if err != nil {
		return nil, err
	}
	o, ok, err := st.CurrentOutput(s.WorkflowID(wf.File.Path), node)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("node %s has no output yet: run it first", node)
	}
	res, err := st.Persist(ctx, o.Text, target, []string{"node:" + node})
	if err != nil {
		return nil, err
	}
	out := &Curated{PersistResult: res}
	ch, _ := knowledge.ChapterNumber(target)
	out.Findings = s.Check(o.Text, ch)
	if len(out.Findings) > 0 {
		var checks []store.CheckResult
		for _, f := range out.Findings {
			detail, _ := json.Marshal(map[string]any{"start": f.Start, "end": f.End, "evidence": f.Evidence.Path, "suggestion": f.Suggestion})
			checks = append(checks, store.CheckResult{Checker: f.Type, Severity: severity(f), Message: f.Message, Detail: detail})
		}
		if err := st.AttachChecks(ctx, res.Target, res.Hash, checks); err != nil {
			s.log.Warn("attach checks", "target", res.Target, "err", err)
		}
	}
	s.KnowledgeChanged(ctx, res.File)
	return out, nil
}

func severity(f factcheck.Finding) string {
	if f.Confidence >= 0.8 {
		return "error"
	}
	if f.Confidence >= 0.5 {
		return "warning"
	}
	return "info"
}

// Check runs Role C's deterministic checkers over text as chapter ch (0
// when it is not a chapter), with the previous chapter for continuity.
func (s *Session) Check(text string, ch int) []factcheck.Finding {
	_, fk, kp, err := s.knowledge()
	if err != nil || fk == nil {
		return nil
	}
	var prevDoc *knowledge.Document
	prev := ""
	if kp != nil && ch >= 1 {
		if d := kp.Chapter(ch - 1); d != nil {
			prevDoc, prev = d, d.Body
		}
	}
	fs := factcheck.Check(text, ch, fk, prev)
	if prevDoc != nil {
		s.pointAtPrevious(prevDoc, fs)
	}
	return fs
}

// pointAtPrevious gives the continuity findings their evidence on the
// other side: the file and line of the previous chapter where the name
// or title was written as the finding expects.
func (s *Session) pointAtPrevious(prev *knowledge.Document, fs []factcheck.Finding) {
	var data []byte
	for i := range fs {
		ev := &fs[i].Evidence
		if fs[i].Type != factcheck.TypeContinuity || ev.Path != "" || ev.Quote == "" {
			continue
		}
		at := strings.Index(prev.Body, ev.Quote)
		if at < 0 {
			continue
		}
		if data == nil {
			var err error
			if data, err = os.ReadFile(filepath.Join(s.root, filepath.FromSlash(prev.Path))); err != nil {
				return
			}
		}
		ev.Path = prev.Path
		ev.Line = 1 + bytes.Count(data[:min(len(data), prev.BodyOffset+at)], []byte("\n"))
	}
}

// Context returns what Role A injects (or would inject now) for a node,
// with upstream outputs taken from the node's history when the store is
// open.
func (s *Session) Context(wf *workflowlang.Result, node string) (*assemble.Context, error) {
	return s.context(wf, node, false)
}

// ContextPreview is Context for an editor's preview, which must not
// wait: while Role A's view of a long work is still being read it
// returns at once an *IndexingError that says how far it got.
//
// A preview is kept for the snapshot, the runs ended and the embedded
// vectors it was made with: a hover asked again of an unchanged node (the
// editor asks at every pause of the mouse) reads it back instead of
// assembling again, which on a book of 3,000 chapters costs a few
// milliseconds that grow with the book. The context returned is shared:
// callers only read it.
func (s *Session) ContextPreview(wf *workflowlang.Result, node string) (*assemble.Context, error) {
	return s.context(wf, node, true)
}

// previews keeps the contexts previews and estimates were given, by
// assemble.InputKey, for one snapshot, its vectors and the runs ended
// then.
type previews struct {
	mu    sync.Mutex
	m     map[[32]byte]*assemble.Context
	snap  *assemble.MemSnapshot
	vecs  *assemble.Vectors
	ended int64
}

// maxPreviews bounds the contexts kept (some 100 kB each at a budget of
// 24k tokens); an author's edits add one each.
const maxPreviews = 64

// preview is assemble for a preview, kept as ContextPreview says.
func (s *Session) preview(snap *assemble.MemSnapshot, cfg *project.Config, wf *workflowlang.Result, n *workflowlang.Node) (*assemble.Context, error) {
	an, opt := s.assembleInput(cfg, wf, n)
	memo := s.contextMemo(snap)
	k := assemble.InputKey(an, opt)
	if c, ok := memo.Context(k); ok {
		return c, nil
	}
	s.assembleSemantic(snap, an, &opt)
	c, err := assemble.Assemble(an, snap, opt)
	if err != nil {
		return nil, err
	}
	memo.Keep(k, c)
	return c, nil
}

// contextMemo returns the previews kept for snap, with the vectors and
// the runs ended now; estimates share them (runner.Known.Contexts).
func (s *Session) contextMemo(snap *assemble.MemSnapshot) previewMemo {
	s.kmu.Lock()
	vecs := s.vecs
	if s.snap != snap {
		vecs = nil
	}
	s.kmu.Unlock()
	return previewMemo{p: &s.previews, snap: snap, vecs: vecs, ended: s.ended.Load()}
}

// previewMemo is the previews for one snapshot, its vectors and the runs
// ended: a runner.ContextMemo. It finds only contexts kept for that
// state; keeping one for another state than the kept ones' starts over.
type previewMemo struct {
	p     *previews
	snap  *assemble.MemSnapshot
	vecs  *assemble.Vectors
	ended int64
}

func (m previewMemo) Context(k [32]byte) (*assemble.Context, bool) {
	p := m.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.snap != m.snap || p.vecs != m.vecs || p.ended != m.ended {
		return nil, false
	}
	c, ok := p.m[k]
	return c, ok
}

func (m previewMemo) Keep(k [32]byte, c *assemble.Context) {
	p := m.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.snap != m.snap || p.vecs != m.vecs || p.ended != m.ended || len(p.m) >= maxPreviews {
		p.m, p.snap, p.vecs, p.ended = map[[32]byte]*assemble.Context{}, m.snap, m.vecs, m.ended
	}
	p.m[k] = c
}

func (s *Session) context(wf *workflowlang.Result, node string, soon bool) (*assemble.Context, error) {
	n := wf.File.Node(node)
	if n == nil {
		return nil, fmt.Errorf("no node %q", node)
	}
	var snap *assemble.MemSnapshot
	var err error
	if soon {
		snap, err = s.knowledgeSoon()
	} else {
		snap, _, _, err = s.knowledge()
	}
	if err != nil {
		return nil, err
	}
	cfg, err := project.LoadConfig(s.root)
	if err != nil {
		return nil, err
	}
	if soon {
		return s.preview(snap, cfg, wf, n)
	}
	return s.assemble(snap, cfg, wf, n)
}

// assemble is Role A's context for node n of wf on snap, with the outputs
// of its upstream nodes as the history has them. It calls no model.
func (s *Session) assemble(snap *assemble.MemSnapshot, cfg *project.Config, wf *workflowlang.Result, n *workflowlang.Node) (*assemble.Context, error) {
	an, opt := s.assembleInput(cfg, wf, n)
	s.assembleSemantic(snap, an, &opt)
	return assemble.Assemble(an, snap, opt)
}

// assembleInput is what Role A reads of node n, and how, without the
// semantic search's vectors (assembleSemantic adds them).
func (s *Session) assembleInput(cfg *project.Config, wf *workflowlang.Result, n *workflowlang.Node) (assemble.Node, assemble.Options) {
	up := s.upstream(wf, n)
	shares := assemble.Shares{Meta: cfg.Shares["meta"], Entities: cfg.Shares["entities"],
		Manuscript: cfg.Shares["manuscript"], Summaries: cfg.Shares["summaries"]}
	an := runner.AssembleNode(wf, n, up)
	return an, assemble.Options{Budget: cfg.Budget, Shares: shares, ThreadWindow: cfg.ThreadWindow}
}

// assembleSemantic sets opt's semantic search when the passages of snap
// are embedded. A preview calls no model: the prompt's vector is used when
// a run (or an earlier preview's run) has cached it.
func (s *Session) assembleSemantic(snap *assemble.MemSnapshot, an assemble.Node, opt *assemble.Options) {
	s.kmu.Lock()
	emb, vecs := s.emb, s.vecs
	if s.snap != snap {
		vecs = nil
	}
	s.kmu.Unlock()
	if emb != nil && vecs != nil {
		opt.Semantic = emb.CachedSemantic(context.Background(), vecs, an)
	}
}

// upstream returns the current outputs of the nodes n references, when
// the store is open.
func (s *Session) upstream(wf *workflowlang.Result, n *workflowlang.Node) map[string]string {
	s.mu.Lock()
	st := s.st
	s.mu.Unlock()
	up := map[string]string{}
	if st == nil {
		return up
	}
	wid := s.WorkflowID(wf.File.Path)
	for _, r := range n.Refs() {
		if r.Kind != workflowlang.RefNode {
			continue
		}
		if o, ok, err := st.CurrentOutput(wid, r.Name); err == nil && ok {
			up[r.Name] = o.Text
		}
	}
	return up
}

// ShowContext writes the node's whole assembled prompt (the three layers,
// with references resolved from the history where they can be) into a
// document under .flowcabal/context and returns its path.
func (s *Session) ShowContext(ctx context.Context, wf *workflowlang.Result, node string) (string, error) {
	c, err := s.Context(wf, node)
	if err != nil {
		return "", err
	}
	n := wf.File.Node(node)
	st, err := s.Store(ctx)
	if err != nil {
		return "", err
	}
	resolver := docResolver{s: s, st: st, wid: s.WorkflowID(wf.File.Path), up: s.upstream(wf, n)}
	msgs, err := runner.Render(n, runner.Injection{SystemPrefix: c.SystemPrefix, UserSuffix: c.UserSuffix}, resolver)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Context of %s\n\nRole A: %d of %d tokens, hash %s.\n\n| source | level | tokens | why |\n|---|---|---|---|\n", node, c.Tokens, c.Budget, c.Hash)
	for _, src := range c.Sources {
		fmt.Fprintf(&b, "| %s | %s | %d | %s |\n", src.Path, src.Level, src.Tokens, src.Reason)
	}
	if len(c.Dropped) > 0 {
		b.WriteString("\nDropped:\n\n")
		for _, d := range c.Dropped {
			fmt.Fprintf(&b, "- %s (%s): %s\n", d.Path, d.Level, d.Why)
		}
	}
	for _, m := range msgs {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", m.Role, m.Content)
	}
	p := filepath.Join(s.root, project.DataDir, "context", filepath.FromSlash(strings.TrimSuffix(s.WorkflowID(wf.File.Path), ".flow")), node+".md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, os.WriteFile(p, []byte(b.String()), 0o644)
}

// docResolver resolves references for ShowContext: upstream outputs from
// the history, knowledge from the store, used workflows as placeholders.
type docResolver struct {
	s   *Session
	st  *store.Store
	wid string
	up  map[string]string
}

func (r docResolver) Output(name string) (string, bool) {
	if v, ok := r.up[name]; ok {
		return v, true
	}
	return "«output of " + name + ": not run yet»", true
}

func (r docResolver) Knowledge(path, level string) (string, error) {
	k := runner.StoreKnowledge{Store: r.st}
	v, err := k.Level(context.Background(), path, level)
	if err != nil && !errors.Is(err, context.Canceled) {
		return "«" + path + ":" + level + ": " + err.Error() + "»", nil
	}
	return v, err
}

func (r docResolver) Used(alias, node string) (string, error) {
	return "«output of " + alias + "." + node + ": produced when the workflow runs»", nil
}

// LastContext returns what Role A injected for the node's current output
// (kept with the output when it was made), and its version; ok is false
// when the node has no output with provenance or the store does not exist.
func (s *Session) LastContext(wf *workflowlang.Result, node string) (c *assemble.Context, version int, ok bool) {
	st, done := s.reader()
	if st == nil {
		return nil, 0, false
	}
	defer done()
	o, found, err := st.CurrentOutput(s.WorkflowID(wf.File.Path), node)
	if err != nil || !found || len(o.Provenance) == 0 {
		return nil, 0, false
	}
	var last assemble.Context
	if json.Unmarshal(o.Provenance, &last) != nil {
		return nil, 0, false
	}
	return &last, o.Version, true
}

// ContextChanges compares two contexts of a node: the items that came
// (in now, not before) and went (before, not now), as "path (level)".
func ContextChanges(before, now *assemble.Context) (came, went []string) {
	key := func(s assemble.Source) string { return s.Path + " (" + s.Level + ")" }
	had := map[string]bool{}
	for _, src := range before.Sources {
		had[key(src)] = true
	}
	has := map[string]bool{}
	for _, src := range now.Sources {
		has[key(src)] = true
		if !had[key(src)] {
			came = append(came, key(src))
		}
	}
	for _, src := range before.Sources {
		if !has[key(src)] {
			went = append(went, key(src))
		}
	}
	return came, went
}
