// Package session holds a project's live work for one editor session: the
// store, the runner and the roles, opened on the author's first action
// (never merely because a file was opened), the runs in progress with
// their cancellation, and the events the editor shows. The language
// server maps it to LSP; it knows nothing of the protocol.
//
// Invariants:
//   - nothing is written and no model is called until a method that the
//     author's explicit action calls (Run, Decide, Freeze, Persist…);
//   - at most one run per workflow file at a time;
//   - every run ends with RunFinished, whatever happened.
package session

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/builder"
	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/monitor"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// Events tell the editor what happens. Every field is optional; calls
// come from background goroutines and must not block.
type Events struct {
	RunStarted   func(r RunInfo)
	NodeStarted  func(r RunInfo, node string, index, total int)
	Delta        func(r RunInfo, node string, tokens int)
	Step         func(r RunInfo, node, msg string)
	NodeFinished func(r RunInfo, res runner.NodeResult)
	RunFinished  func(r RunInfo, res *runner.Result, err error)
	// Agent receives the agent core's steps (Role B's builder, Role C's
	// model checkers): which agent acts, which tool it called.
	Agent func(e core.Event)
}

// RunInfo identifies a run in progress.
type RunInfo struct {
	ID       string // the session's id for the run (also the progress token)
	Workflow string // path relative to the project root
	File     string // absolute path of the .flow file
	Target   runner.Target
}

// Options configure a Session.
type Options struct {
	// Getenv reads the variables that hold API keys; nil means os.Getenv.
	Getenv func(string) string
	// APIKey is the editor's secret (used when set).
	APIKey string
	// Overrides are the editor's model settings over flowcabal.toml.
	Overrides map[string]project.Model
	Events    Events
	Log       *slog.Logger
	// Store holds the options the store is opened with (lock wait…).
	Store store.Options
}

// Session is one project's live work. Its methods are safe for concurrent
// use.
type Session struct {
	root string
	opts Options
	log  *slog.Logger

	mu   sync.Mutex
	st   *store.Store
	cfg  *project.Config
	runs map[string]*activeRun // by workflow id
	// builder is Role B and agents the agent core, made on first use.
	builder *builder.Builder
	agents  *core.Manager
	gate    *reportingGate // Role C's monitor, when an agent model is configured
	// stopWork ends the store's background work; working waits for it.
	stopWork context.CancelFunc
	working  sync.WaitGroup
	seq      int
	closed   bool
	// finished counts the runs ended in this session: an estimate made
	// before one ended reads outputs it may have replaced.
	finished int
	// ended is finished, readable without s.mu (the header hints' key).
	ended atomic.Int64
	est   estimates
	// counts are the header hints' Role A counts per workflow
	// (node_context.go).
	counts nodeCounts
	// previews are the contexts hovers were shown (ContextPreview).
	previews previews
	// estimating counts the estimates being made in the background.
	estimating sync.WaitGroup

	// Role A and Role C read the knowledge through these, built lazily and
	// dropped when a knowledge file changes.
	kmu   sync.Mutex
	snap  *assemble.MemSnapshot
	facts *factcheck.Knowledge
	kp    *knowledge.Project
	// emb is Role A's embedding model (nil: none configured, or not
	// looked at yet); vecs the vectors of snap's passages once embedded in
	// the background (embedded is the snapshot that was sent).
	emb      *assemble.Embedding
	vecs     *assemble.Vectors
	embedded *assemble.MemSnapshot
	workCtx  context.Context // the background work's, cancelled at Close
	printed  [32]byte        // the knowledge files' fingerprint when snap was built
	// fp is the knowledge files' fingerprint as last walked (recent).
	fp recentPrint
	// hasher remembers the hashes of source files between lens redraws.
	hasher runner.FileHasher
	// threads are the plot threads, read on demand (threads.go).
	threads threadCache
	// levels indexes snap's resources by path, with their counts per
	// level, for the inlay hints (level_tokens.go).
	levels levelIndex

	// stRef is st, readable without s.mu (reader, keeper).
	stRef atomic.Pointer[store.Store]

	// building is closed when the snapshot being built in the background
	// for a preview is ready (nil when none is being built); read and
	// total are its progress in chapters.
	bmu         sync.Mutex
	building    chan struct{}
	read, total atomic.Int64
}

type activeRun struct {
	info   RunInfo
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	nodes  map[string]string // node -> state while running ("running")
	result *runner.Result
	ctl    *runner.Control
}

// New returns a session for the project at root. It touches nothing.
func New(root string, o Options) *Session {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Session{root: root, opts: o, log: log, runs: map[string]*activeRun{}}
}

// Root is the project root.
func (s *Session) Root() string { return s.root }

// SetOverrides replaces the editor's model settings and API key; they
// apply to runs started afterwards.
func (s *Session) SetOverrides(m map[string]project.Model, apiKey string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.Overrides = m
	if apiKey != "" {
		s.opts.APIKey = apiKey
	}
	s.kmu.Lock()
	s.emb, s.vecs, s.embedded = nil, nil, nil // the embedding model may have changed
	s.kmu.Unlock()
}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("session closed")

// storeLocked opens the store on first use. s.mu must be held.
func (s *Session) storeLocked(ctx context.Context) (*store.Store, *project.Config, error) {
	if s.closed {
		return nil, nil, ErrClosed
	}
	if s.st != nil {
		return s.st, s.cfg, nil
	}
	cfg, err := project.LoadConfig(s.root)
	if err != nil {
		return nil, nil, err
	}
	o := s.opts.Store
	o.Getenv = s.opts.Getenv
	o.Logger = s.log
	if o.Tasks == nil {
		o.Tasks = map[string]store.TaskHandler{}
	}
	o.Tasks[store.TaskCurated] = s.curated
	if s.opts.APIKey != "" {
		o.Secrets = append(o.Secrets, s.opts.APIKey)
	}
	st, err := store.Open(ctx, s.root, o)
	if err != nil {
		return nil, nil, err
	}
	// Bring the index up to date (only what changed since the last
	// session is read) so that knowledge references resolve.
	if _, err := st.Index(ctx, nil); err != nil {
		st.Close()
		return nil, nil, fmt.Errorf("index the project: %w", err)
	}
	s.st, s.cfg = st, cfg
	s.stRef.Store(st)
	// The durable queue's work (L0/L1 levels, profile regeneration after a
	// curation) goes on in the background while the session lasts.
	wctx, stop := context.WithCancel(context.Background())
	s.stopWork = stop
	s.kmu.Lock()
	s.workCtx = wctx
	s.kmu.Unlock()
	s.working.Add(1)
	go func() {
		defer s.working.Done()
		_ = st.Work(wctx)
	}()
	return st, cfg, nil
}

// Store returns the project store, opening it on first use (an explicit
// author action).
func (s *Session) Store(ctx context.Context) (*store.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, _, err := s.storeLocked(ctx)
	return st, err
}

// KnowledgeChanged drops what was derived from the knowledge files, and
// re-indexes the changed files when the store is open.
func (s *Session) KnowledgeChanged(ctx context.Context, files ...string) {
	s.kmu.Lock()
	s.snap, s.facts, s.kp, s.vecs = nil, nil, nil, nil
	s.kmu.Unlock()
	s.fp.forget()
	s.counts.knowledgeChanged()
	s.mu.Lock()
	st := s.st
	s.gate = nil // the monitor read the knowledge when it was made
	s.mu.Unlock()
	if st != nil && len(files) > 0 {
		if _, err := st.Reindex(ctx, files...); err != nil {
			s.log.Warn("re-index", "err", err)
		}
	}
}

// knowledge returns Role A's snapshot and Role C's knowledge of the
// project, built from its files (read only) on first use.
func (s *Session) knowledge() (*assemble.MemSnapshot, *factcheck.Knowledge, *knowledge.Project, error) {
	return s.knowledgeFrom(nil)
}

// knowledgeFrom is knowledge with the session's open store, for a caller
// that holds s.mu; nil opens the store for reading when it exists.
func (s *Session) knowledgeFrom(own *store.Store) (*assemble.MemSnapshot, *factcheck.Knowledge, *knowledge.Project, error) {
	s.kmu.Lock()
	defer s.kmu.Unlock()
	if s.snap != nil && s.snap.Err() == nil {
		return s.snap, s.facts, s.kp, nil
	}
	// Not built yet, or its kept indexes were replaced in the store by
	// another process (flowcabal index wrote a new base): built again.
	cfg, err := project.LoadConfig(s.root)
	if err != nil {
		return nil, nil, nil, err
	}
	folder := textsearch.NewFolder()
	b := assemble.NewBuilder(textsearch.NewAnalyzer(folder), textsearch.NewCounter(cfg.Models["writer"].Model))
	b.Forget = true // the snapshot lives as long as the session: keep it small
	b.Progress = func(done, total int) { s.read.Store(int64(done)); s.total.Store(int64(total)) }
	// Taken before the files are read: a change while they are read shows
	// at the next run. Kept as the recent print too, so that the two
	// never disagree about the same files.
	// The same walk counts the manuscript's files: a preview says how
	// much there is to read while the files are read (a second walk of
	// 3,000 chapter folders cost the first hover ~40 ms).
	printed, chapters := s.fp.freshCount(s.root)
	// One reading of the files serves Role A and Role C, so the texts are
	// held once.
	s.read.Store(0)
	s.total.Store(int64(chapters))
	kp, errs := knowledge.LoadProject(s.root)
	if kp == nil {
		return nil, nil, nil, fmt.Errorf("read the project's knowledge: %v", errs)
	}
	// Role A's indexes kept in the store (flowcabal index, or this
	// session's store) are read, and only the chapters changed since are
	// analysed: the whole book is not analysed again on every start.
	b.Keep = keeper{s: s, own: own}
	snap, err := b.Build(assemble.InputFromProject(kp))
	if err == nil {
		if _, err := snap.Keep(); err != nil && !errors.Is(err, store.ErrReadOnly) {
			s.log.Warn("Role A: keep the indexes", "err", err)
		}
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read the project's knowledge: %w", err)
	}
	fk := factcheck.FromProject(kp, folder)
	s.snap, s.facts, s.kp, s.vecs = snap, fk, kp, nil
	s.printed = printed
	return snap, fk, kp, nil
}

// fingerprint sums up the knowledge files' names, sizes and times and
// flowcabal.toml's, so that a run can tell, in a millisecond, whether a
// file changed on disk without the editor saying so (a git pull in a
// terminal).
func fingerprint(root string) [32]byte {
	sum, _ := fingerprintCount(root)
	return sum
}

// fingerprintCount is fingerprint and the number of Markdown files under
// manuscript/ (about the chapters, before they are read).
func fingerprintCount(root string) ([32]byte, int) {
	n := 0
	h := sha256.New()
	add := func(p string, fi fs.FileInfo) {
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", p, fi.Size(), fi.ModTime().UnixNano())
	}
	if fi, err := os.Stat(filepath.Join(root, project.ConfigFile)); err == nil {
		add(project.ConfigFile, fi)
	}
	for _, dir := range project.KnowledgeDirs {
		_ = filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				add(p, fi)
			}
			if dir == "manuscript" && strings.HasSuffix(p, ".md") {
				n++
			}
			return nil
		})
	}
	var out [32]byte
	h.Sum(out[:0])
	return out, n
}

// printTTL is how long a walk of the knowledge files stands for them in
// what only shows (the estimates of lenses and hovers). A change the
// editor reports (KnowledgeChanged) is seen at once; one made behind its
// back (a git pull in a terminal) within printTTL; a run always walks
// afresh. Walking 3,000 chapter folders costs about 40 ms, which every
// hover and lens paid before.
const printTTL = time.Second

// recentPrint is a fingerprint walked at most once per printTTL.
type recentPrint struct {
	mu  sync.Mutex
	sum [32]byte
	at  time.Time // zero: walk again
}

// of returns the fingerprint of root, walking the files again when the
// last walk is older than printTTL or was forgotten.
func (r *recentPrint) of(root string) [32]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at.IsZero() || time.Since(r.at) >= printTTL {
		r.sum, r.at = fingerprint(root), time.Now()
	}
	return r.sum
}

// fresh walks the files now and keeps the result as the recent print.
func (r *recentPrint) fresh(root string) [32]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sum, r.at = fingerprint(root), time.Now()
	return r.sum
}

// freshCount is fresh, also counting the manuscript's files.
func (r *recentPrint) freshCount(root string) ([32]byte, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sum, n := fingerprintCount(root)
	r.sum, r.at = sum, time.Now()
	return sum, n
}

// forget makes the next call walk the files.
func (r *recentPrint) forget() {
	r.mu.Lock()
	r.at = time.Time{}
	r.mu.Unlock()
}

// knownLocked is what the session derived from the project's files, for
// a runner: Role A's snapshot and embeddings, Role C's knowledge. Nil
// (the runner reads the files) when they cannot be read. The passages'
// vectors are made in the background: a run started before they are
// ready searches lexically, as its provenance says. s.mu must be held.
func (s *Session) knownLocked(st *store.Store, cfg *project.Config) *runner.Known {
	s.kmu.Lock()
	// A run walks the files afresh: what it sends must be what is on
	// disk now.
	if s.snap != nil && s.fp.fresh(s.root) != s.printed {
		s.snap, s.facts, s.kp, s.vecs = nil, nil, nil, nil // changed on disk behind the editor's back
	}
	s.kmu.Unlock()
	snap, fk, kp, err := s.knowledgeFrom(st)
	if err != nil {
		return nil
	}
	s.kmu.Lock()
	defer s.kmu.Unlock()
	if s.snap != snap { // changed meanwhile
		return nil
	}
	s.embedLocked(st, cfg)
	return &runner.Known{Snapshot: snap, Facts: fk, Project: kp, Embedding: s.emb, Vectors: s.vecs}
}

// embedLocked starts embedding the current snapshot's passages in the
// background when an embedding model is configured and they are not
// embedded yet. s.kmu must be held.
func (s *Session) embedLocked(st *store.Store, cfg *project.Config) {
	if s.snap == nil || s.embedded == s.snap || s.workCtx == nil {
		return
	}
	if s.emb == nil {
		s.emb = runner.Embedding(cfg, st, runner.ProjectOptions{Getenv: s.opts.Getenv, Overrides: s.opts.Overrides, APIKey: s.opts.APIKey, Log: s.log})
		if s.emb == nil {
			return
		}
	}
	snap, emb, ctx := s.snap, s.emb, s.workCtx
	s.embedded = snap
	s.working.Add(1)
	go func() {
		defer s.working.Done()
		vecs, rep := emb.EmbedChapters(ctx, snap)
		if rep.Err != nil {
			s.log.Warn("Role A: embeddings", "embedded", rep.Embedded, "cached", rep.Cached, "err", rep.Err)
		}
		s.kmu.Lock()
		if s.snap == snap && s.emb == emb {
			s.vecs = vecs
		}
		s.kmu.Unlock()
	}()
}

// WorkflowID is a workflow's name in the store.
func (s *Session) WorkflowID(file string) string { return runner.WorkflowID(s.root, file) }

// Run starts a run of wf in the background and returns at once. env is
// the environment wf was checked with (for sub-workflows).
func (s *Session) Run(ctx context.Context, wf *workflowlang.Result, env workflowlang.Env, opts runner.Options) (RunInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, cfg, err := s.storeLocked(ctx)
	if err != nil {
		return RunInfo{}, err
	}
	// A run takes flowcabal.toml as it is now: the author may have raised
	// max_cost (or changed a model) to continue a stopped run.
	if cfg, err = project.LoadConfig(s.root); err != nil {
		return RunInfo{}, err
	}
	s.cfg = cfg
	wid := s.WorkflowID(wf.File.Path)
	// A node that cannot run says why first: that another run of its
	// workflow is still finishing is no help to an author who must fix
	// the node anyway.
	if _, err := runner.NewPlan(wf, opts.Target); err != nil {
		return RunInfo{}, err
	}
	if r, ok := s.runs[wid]; ok {
		return RunInfo{}, fmt.Errorf("%s is already running (run %s): cancel it first", wid, r.info.ID)
	}
	gate, err := s.gateLocked(st, cfg)
	if err != nil {
		return RunInfo{}, err
	}
	r, err := runner.ForProject(ctx, s.root, cfg, st, runner.ProjectOptions{
		Getenv: s.opts.Getenv, Overrides: s.opts.Overrides, APIKey: s.opts.APIKey, Log: s.log, Env: env, Gate: gate,
		Known: s.knownLocked(st, cfg),
	})
	if err != nil {
		return RunInfo{}, err
	}
	s.seq++
	// The id is the editor's progress token: unique across the projects
	// of one editor session.
	info := RunInfo{ID: fmt.Sprintf("flowcabal-run-%d-%x", s.seq, uint32(time.Now().UnixNano())), Workflow: wid, File: wf.File.Path, Target: opts.Target}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	ar := &activeRun{info: info, cancel: cancel, done: make(chan struct{}), nodes: map[string]string{}}
	s.runs[wid] = ar
	ev := s.opts.Events
	opts.Observer = runner.Observer{
		NodeStarted: func(node string, k, n int) {
			ar.mu.Lock()
			ar.nodes[node] = fmt.Sprintf("running %d/%d", k, n)
			ar.mu.Unlock()
			if ev.NodeStarted != nil {
				ev.NodeStarted(info, node, k, n)
			}
		},
		Delta: func(node string, d runner.Delta) {
			if ev.Delta != nil {
				ev.Delta(info, node, 1)
			}
		},
		Step: func(node, msg string) {
			if ev.Step != nil {
				ev.Step(info, node, msg)
			}
		},
		NodeFinished: func(node string, res runner.NodeResult) {
			ar.mu.Lock()
			delete(ar.nodes, node)
			ar.mu.Unlock()
			if ev.NodeFinished != nil {
				ev.NodeFinished(info, res)
			}
		},
	}
	opts.Control = func(c *runner.Control) {
		ar.mu.Lock()
		ar.ctl = c
		ar.mu.Unlock()
	}
	if ev.RunStarted != nil {
		ev.RunStarted(info)
	}
	go func() {
		defer close(ar.done)
		defer cancel()
		res, err := r.Run(runCtx, wf, opts)
		ar.mu.Lock()
		ar.result = res
		ar.mu.Unlock()
		s.mu.Lock()
		delete(s.runs, wid)
		s.finished++
		s.ended.Add(1)
		s.mu.Unlock()
		if ev.RunFinished != nil {
			ev.RunFinished(info, res, err)
		}
	}()
	return info, nil
}

// Cancel stops the run of the workflow file (every run when file is
// empty) and waits for it to end. It reports whether a run was stopped.
func (s *Session) Cancel(file string) bool {
	s.mu.Lock()
	var stop []*activeRun
	for wid, r := range s.runs {
		if file == "" || wid == s.WorkflowID(file) {
			stop = append(stop, r)
		}
	}
	s.mu.Unlock()
	for _, r := range stop {
		r.cancel()
		<-r.done
	}
	return len(stop) > 0
}

// CancelNode stops one node of the file's run in progress; its
// dependents are skipped and the rest of the run goes on. It reports
// whether the node was running.
func (s *Session) CancelNode(file, node string) bool {
	s.mu.Lock()
	r := s.runs[s.WorkflowID(file)]
	s.mu.Unlock()
	if r == nil {
		return false
	}
	r.mu.Lock()
	ctl := r.ctl
	r.mu.Unlock()
	return ctl != nil && ctl.CancelNode(node)
}

// Wait blocks until the run of file (if any) has ended.
func (s *Session) Wait(file string) {
	s.mu.Lock()
	r := s.runs[s.WorkflowID(file)]
	s.mu.Unlock()
	if r != nil {
		<-r.done
	}
}

// Close cancels every run, waits for them (their checkpoints are saved)
// and closes the store.
func (s *Session) Close() error {
	s.Cancel("")
	s.estimating.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.stopWork != nil {
		s.stopWork()
		s.mu.Unlock()
		s.working.Wait()
		s.mu.Lock()
	}
	if s.st != nil {
		s.stRef.Store(nil)
		err := s.st.Close()
		s.st = nil
		return err
	}
	return nil
}

// NodeState is what a code lens shows of a node.
type NodeState struct {
	Status  string // "running 3/7", "approved", "needs you", "frozen", "failed", "stopped" (max_cost), "" (never run)
	Version int
	Tokens  int
	// Select lists candidate versions when the node waits for a choice.
	Select []string
	RunID  string
	// Stale lists the files the output was built from that changed since
	// (approved and frozen outputs only).
	Stale []runner.SourceChange
	// Current is the node's current output version in the history (0:
	// none).
	Current int
}

// Label renders the state as the lens shows it: "✓ approved · 1,240 tok ·
// v3", "⚠ needs you", "❄ frozen v2", "↻ running 3/7".
func (n NodeState) Label() string {
	switch {
	case strings.HasPrefix(n.Status, "running"):
		return "↻ " + n.Status
	case n.Status == "frozen" && len(n.Stale) > 0:
		return fmt.Sprintf("❄ frozen v%d · stale: %s (frozen: not re-run)", n.Version, runner.StaleSummary(n.Stale))
	case n.Status == "frozen":
		return fmt.Sprintf("❄ frozen v%d", n.Version)
	case n.Status == "approved" && len(n.Stale) > 0:
		s := "⚠ stale: " + runner.StaleSummary(n.Stale)
		if n.Version > 0 {
			s += fmt.Sprintf(" · v%d", n.Version)
		}
		return s
	case n.Status == "needs you":
		if len(n.Select) > 0 {
			return "⚠ needs you: choose a candidate"
		}
		return "⚠ needs you"
	case n.Status == "failed":
		return "✗ failed"
	case n.Status == "stopped":
		return "$ stopped at max_cost"
	case n.Status == "approved":
		parts := []string{"✓ approved"}
		if n.Tokens > 0 {
			parts = append(parts, groupDigits(n.Tokens)+" tok")
		}
		if n.Version > 0 {
			parts = append(parts, fmt.Sprintf("v%d", n.Version))
		}
		return strings.Join(parts, " · ")
	}
	return ""
}

func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// States returns the state of each node of the workflow file: live for a
// run in progress, else from the store (the latest run and the freezes).
// It reads the store only when it is already open, so merely showing a
// file never creates one.
func (s *Session) States(file string) map[string]NodeState {
	wid := s.WorkflowID(file)
	out := map[string]NodeState{}
	s.mu.Lock()
	ar := s.runs[wid]
	s.mu.Unlock()
	st, done := s.reader()
	if st == nil {
		return out
	}
	defer done()
	// Each node as its latest run left it: a node the last run did not
	// touch keeps what an earlier run made of it (its output is still
	// the current one, and may have gone stale since).
	if runs, err := st.Runs(wid, false); err == nil {
		for _, run := range runs {
			for node, nr := range run.Nodes {
				if _, seen := out[node]; seen {
					continue
				}
				ns := NodeState{Version: nr.Version, RunID: run.RunID}
				switch nr.Status {
				case "done", "cached":
					ns.Status = "approved"
				case "frozen":
					ns.Status = "frozen"
				case "flagged":
					ns.Status = "needs you"
				case "failed":
					ns.Status = "failed"
				case "stopped":
					ns.Status = "stopped"
				default:
					continue // skipped or cut short there: look further back
				}
				if nr.Version > 0 {
					if o, err := st.OutputVersion(wid, node, nr.Version); err == nil {
						ns.Tokens = o.Usage.CompletionTokens
						if ns.Status == "approved" || ns.Status == "frozen" {
							ns.Stale = s.hasher.Changed(s.root, o.Sources)
						}
					}
				}
				out[node] = ns
			}
			for _, d := range run.Pending {
				if ns, ok := out[d.Node]; ok && d.Kind == "select" && ns.RunID == run.RunID {
					ns.Select = strings.Split(d.Detail, ",")
					out[d.Node] = ns
				}
			}
		}
	}
	for node := range out {
		ns, err := st.Node(wid, node)
		if err != nil {
			continue
		}
		if ns.Frozen > 0 {
			fs := NodeState{Status: "frozen", Version: ns.Frozen}
			if o, err := st.OutputVersion(wid, node, ns.Frozen); err == nil {
				fs.Stale = s.hasher.Changed(s.root, o.Sources)
			}
			out[node] = fs
		}
		n := out[node]
		n.Current = ns.Current
		out[node] = n
	}
	if ar != nil {
		ar.mu.Lock()
		for node, st := range ar.nodes {
			out[node] = NodeState{Status: st, RunID: ar.info.ID}
		}
		ar.mu.Unlock()
	}
	return out
}

// reader returns the store to read from: the session's own when it is
// open, else a read-only view opened for this read (done closes it), and
// nil when the project has no database. The view never takes the lock
// from another process for long: when a writer (the author's CLI) holds
// it, a consistent copy is read instead, after a short wait. Nothing is
// kept open, so the CLI is never locked out by an idle editor.
func (s *Session) reader() (st *store.Store, done func()) {
	// Not s.mu: a snapshot build holding kmu reads through here while
	// opening the store holds s.mu and then waits for kmu.
	if own := s.stRef.Load(); own != nil {
		return own, func() {}
	}
	if _, err := os.Stat(filepath.Join(s.root, project.DBFile)); err != nil {
		return nil, nil
	}
	ro, err := store.Open(context.Background(), s.root, store.Options{ReadOnly: true, ReadOnlyIfLocked: true, LockWait: 100 * time.Millisecond})
	if err != nil {
		return nil, nil
	}
	return ro, func() { ro.Close() }
}

// Running reports the runs in progress, sorted by workflow.
func (s *Session) Running() []RunInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []RunInfo
	for _, r := range s.runs {
		out = append(out, r.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Workflow < out[j].Workflow })
	return out
}

// gateLocked returns Role C's gate for runs: the monitor (deterministic
// checkers cross-checked with the agent model's angles) when an agent
// model is configured, else nil, which leaves the runner's deterministic
// gate. s.mu must be held.
func (s *Session) gateLocked(st *store.Store, cfg *project.Config) (runner.Gate, error) {
	m, err := s.agentsLocked(st, cfg)
	if err != nil || m == nil {
		return nil, err
	}
	if s.gate != nil {
		return s.gate, nil
	}
	mon, err := monitor.ForProject(s.root, st, m, monitor.Options{})
	if mon == nil {
		return nil, err
	}
	if err != nil {
		s.log.Warn("Role C", "err", err)
	}
	s.gate = &reportingGate{m: mon, reports: map[[32]byte]*monitor.Report{}}
	return s.gate, nil
}

// IndexingError says that Role A's view of the project is still being
// built: a preview answers with it at once rather than wait.
type IndexingError struct {
	Read, Total int // chapters read so far, of
}

func (e *IndexingError) Error() string {
	return fmt.Sprintf("context still indexing: %d of %d chapters", e.Read, e.Total)
}

// previewWait is how long a preview waits for Role A's view before it
// answers with an [IndexingError]; a work of at most smallWork chapters
// (read in well under a second) is waited for.
const (
	previewWait = 300 * time.Millisecond
	smallWork   = 300
)

// startBuilding has Role A's view built in the background unless it is
// being built already, and returns what is closed once it is.
func (s *Session) startBuilding() <-chan struct{} {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	ch := s.building
	if ch == nil {
		c := make(chan struct{})
		s.building, ch = c, c
		go func() {
			_, _, _, _ = s.knowledge()
			s.bmu.Lock()
			s.building = nil
			s.bmu.Unlock()
			close(c)
		}()
	}
	return ch
}

// Prepare has Role A's view of the project read in the background when
// it is not read yet, as a preview would, so that the first hover on a
// node of a workflow just opened finds it read or under way rather than
// start it. It returns at once.
func (s *Session) Prepare() {
	if s.kmu.TryLock() {
		ready := s.snap != nil && s.snap.Err() == nil
		s.kmu.Unlock()
		if ready {
			return
		}
	}
	s.startBuilding()
}

// knowledgeSoon is knowledge for a preview that must not keep the editor
// waiting: the view is built in the background, and while it is, the
// answer is an *IndexingError with its progress.
func (s *Session) knowledgeSoon() (*assemble.MemSnapshot, error) {
	if s.kmu.TryLock() {
		ready := s.snap != nil && s.snap.Err() == nil
		s.kmu.Unlock()
		if ready {
			snap, _, _, err := s.knowledge()
			return snap, err
		}
	}
	ch := s.startBuilding()
	t := time.NewTimer(previewWait)
	defer t.Stop()
	for {
		select {
		case <-ch:
			snap, _, _, err := s.knowledge()
			return snap, err
		case <-t.C:
			// The files are read first (a fraction of a second); then a
			// long work is not waited for.
			if total := s.total.Load(); total > smallWork {
				return nil, &IndexingError{Read: int(s.read.Load()), Total: int(total)}
			}
			t.Reset(previewWait)
		}
	}
}

// keeper gives Role A's builder the store's kept indexes. The store is
// opened for each read and closed after (unless the session holds it),
// so that a long build never keeps the author's first action waiting for
// the store's lock; only a session's own store is written.
type keeper struct {
	s   *Session
	own *store.Store // the session's store, when the caller holds s.mu
}

var errNoStore = errors.New("no project store")

func (k keeper) ReadRoleA(keys []string, fn func([][]byte) error) error {
	st, done := k.own, func() {}
	if st == nil {
		if st, done = k.s.reader(); st == nil {
			return errNoStore
		}
	}
	defer done()
	return st.ReadRoleA(keys, fn)
}

func (k keeper) PutRoleA(kv map[string][]byte) error {
	st := k.own
	if st == nil {
		st = k.s.stRef.Load() // not s.mu: see reader
	}
	if st == nil {
		return store.ErrReadOnly
	}
	return st.PutRoleA(kv)
}

func (k keeper) SeekRoleA(guard, prefix string, keys []string, fn func(int, []byte) error) error {
	st, done := k.s.reader()
	if st == nil {
		return errNoStore
	}
	defer done()
	return st.SeekRoleA(guard, prefix, keys, fn)
}

func (k keeper) ScanRoleA(prefix string, fn func(string, []byte) error) error {
	st, done := k.own, func() {}
	if st == nil {
		if st, done = k.s.reader(); st == nil {
			return nil // no store: nothing kept (and PutRoleA says it cannot write)
		}
	}
	defer done()
	return st.ScanRoleA(prefix, fn)
}
