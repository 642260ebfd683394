package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/store"
	"github.com/sourcegraph/conc/pool"
)

// Options configure a Manager.
type Options struct {
	// Client is the agent model.
	Client *llm.Client
	// Store keeps the agent log and the checkpoints; nil keeps neither
	// (a run then cannot be resumed after a crash).
	Store *store.Store
	// Observer receives progress events; it must not block for long. It
	// is called from the runs' goroutines, concurrently when parallel
	// agents run at once.
	Observer func(Event)
	// Logger receives the steps; nil discards them.
	Logger *slog.Logger
	// Budget is the default budget of a run; zero fields mean
	// DefaultBudget's.
	Budget Budget
	// Width is how many runs of a role may go at once, by role; a role
	// it does not name gets one. Role C's reviews of the parallel
	// branches of a workflow, say, should not wait for one another.
	Width map[string]int
}

// Manager runs agent tasks for one project: per role, Options.Width runs
// at a time (one by default), the others queued in the order they came.
type Manager struct {
	opts Options
	log  *slog.Logger
	seq  atomic.Uint64

	mu     sync.Mutex
	lanes  map[string]*lane
	runs   map[string]*Run
	closed bool
}

type lane struct {
	width   int
	active  []*Run // at most width
	waiting []*Run
}

// NewManager returns a manager. It fails when no client is given.
func NewManager(opts Options) (*Manager, error) {
	if opts.Client == nil {
		return nil, errors.New("agent manager: no model client")
	}
	opts.Budget = opts.Budget.or(DefaultBudget)
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{opts: opts, log: log, lanes: map[string]*lane{}, runs: map[string]*Run{}}, nil
}

// Status is where a run stands.
type Status string

// The run statuses.
const (
	StatusQueued    Status = "queued"
	StatusRunning   Status = "running"
	StatusPaused    Status = "paused"
	StatusDone      Status = "done"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// Run is one submitted task.
type Run struct {
	// ID names the run (and its checkpoint).
	ID   string
	Role string

	m      *Manager
	task   Task
	prep   []*prepared // the agent, or the parallel agents
	ctx    context.Context
	cancel context.CancelCauseFunc
	turn   chan struct{} // closed when the run may start
	done   chan struct{}
	res    *Result
	err    error

	mu      sync.Mutex // guards the fields below and st's contents
	status  Status
	paused  bool
	wake    chan struct{}
	st      *state
	resumed bool
}

// Submit queues task and returns its run at once; Wait gives the result.
func (m *Manager) Submit(task Task) (*Run, error) {
	return m.submit(task, nil)
}

// Run submits task and waits for its result. Cancelling ctx cancels the
// run.
func (m *Manager) Run(ctx context.Context, task Task) (*Result, error) {
	if a, ok := store.AttributionOf(ctx); ok && task.Serves == (store.Attribution{}) {
		task.Serves = a
	}
	r, err := m.Submit(task)
	if err != nil {
		return nil, err
	}
	return r.Wait(ctx)
}

func (m *Manager) submit(task Task, resume *state) (*Run, error) {
	if task.Role == "" {
		return nil, errors.New("agent task has no role")
	}
	var prep []*prepared
	switch {
	case task.Agent != nil && len(task.Parallel) > 0:
		return nil, errors.New("agent task has both Agent and Parallel")
	case task.Agent != nil:
		p, err := prepare(task.Agent, 0)
		if err != nil {
			return nil, err
		}
		prep = append(prep, p)
	case len(task.Parallel) > 0:
		if task.Merge == nil {
			return nil, errors.New("agent task with Parallel agents has no Merge")
		}
		for _, a := range task.Parallel {
			p, err := prepare(a, 1)
			if err != nil {
				return nil, err
			}
			prep = append(prep, p)
		}
	default:
		return nil, errors.New("agent task has no agent")
	}
	if task.ID == "" {
		task.ID = fmt.Sprintf("agent-%s-%s-%d", task.Role, time.Now().UTC().Format("20060102T150405"), m.seq.Add(1))
	}
	st := resume
	if st == nil {
		name := "parallel"
		if task.Agent != nil {
			name = task.Agent.Name
		}
		st = &state{Role: task.Role, Agent: name, Node: task.Node, Input: task.Input,
			Budget: task.Budget.or(m.opts.Budget), Frames: map[string]*frame{}}
	}
	// A run outlives the call that submitted it: it keeps only the run
	// it serves, for the log.
	base := context.Background()
	if task.Serves != (store.Attribution{}) {
		base = store.WithAttribution(base, task.Serves)
	}
	ctx, cancel := context.WithCancelCause(base)
	r := &Run{ID: task.ID, Role: task.Role, m: m, task: task, prep: prep, ctx: ctx, cancel: cancel,
		turn: make(chan struct{}), done: make(chan struct{}), status: StatusQueued,
		wake: make(chan struct{}), st: st, resumed: resume != nil}

	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		cancel(nil)
		return nil, errors.New("agent manager is closed")
	}
	if _, dup := m.runs[r.ID]; dup {
		m.mu.Unlock()
		cancel(nil)
		return nil, fmt.Errorf("agent run %s is already active", r.ID)
	}
	m.runs[r.ID] = r
	l := m.lanes[task.Role]
	if l == nil {
		l = &lane{width: max(1, m.opts.Width[task.Role])}
		m.lanes[task.Role] = l
	}
	ahead := 0
	if len(l.active) < l.width {
		l.active = append(l.active, r)
		close(r.turn)
	} else {
		ahead = len(l.waiting) + 1
		l.waiting = append(l.waiting, r)
	}
	m.mu.Unlock()
	if ahead > 0 {
		r.emit(Event{Kind: EventQueued, Message: fmt.Sprintf("role %s: queued behind %d run(s)", task.Role, ahead)})
	}
	go r.main()
	return r, nil
}

// Get returns the active or queued run called id, or nil.
func (m *Manager) Get(id string) *Run {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[id]
}

// Queue returns the IDs of a role's runs: the active ones first, then the
// waiting ones in order.
func (m *Manager) Queue(role string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.lanes[role]
	if l == nil {
		return nil
	}
	var out []string
	for _, r := range l.active {
		out = append(out, r.ID)
	}
	for _, r := range l.waiting {
		out = append(out, r.ID)
	}
	return out
}

// Close cancels every run and waits for them to end.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	var all []*Run
	for _, r := range m.runs {
		all = append(all, r)
	}
	m.mu.Unlock()
	for _, r := range all {
		r.Cancel()
	}
	for _, r := range all {
		<-r.done
	}
}

// Wait waits for the run's result. Cancelling ctx cancels the run.
func (r *Run) Wait(ctx context.Context) (*Result, error) {
	select {
	case <-r.done:
	case <-ctx.Done():
		r.cancel(ErrCancelled)
		<-r.done
	}
	return r.res, r.err
}

// Done is closed when the run has ended.
func (r *Run) Done() <-chan struct{} { return r.done }

// Status reports where the run stands.
func (r *Run) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.paused && (r.status == StatusRunning || r.status == StatusQueued) {
		return StatusPaused
	}
	return r.status
}

// Pause makes the run stop before its next model or tool call until
// Resume. A call in flight finishes first.
func (r *Run) Pause() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paused = true
}

// Resume lets a paused run go on.
func (r *Run) Resume() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.paused {
		r.paused = false
		close(r.wake)
		r.wake = make(chan struct{})
	}
}

// Cancel stops the run (or takes it out of the queue). A model or tool
// call in flight is interrupted.
func (r *Run) Cancel() { r.cancel(ErrCancelled) }

// gate blocks while the run is paused and reports cancellation.
func (r *Run) gate(ctx context.Context) error {
	announced := false
	for {
		if ctx.Err() != nil {
			return r.cancelErr(ctx)
		}
		r.mu.Lock()
		if !r.paused {
			r.mu.Unlock()
			if announced {
				r.emit(Event{Kind: EventResumed, Message: "resumed"})
			}
			return nil
		}
		wake := r.wake
		r.mu.Unlock()
		if !announced {
			announced = true
			r.emit(Event{Kind: EventPaused, Message: "paused"})
		}
		select {
		case <-ctx.Done():
		case <-wake:
		}
	}
}

func (r *Run) cancelErr(ctx context.Context) error {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
		if errors.Is(c, ErrCancelled) {
			return ErrCancelled
		}
		return fmt.Errorf("%w: %v", ErrCancelled, c)
	}
	return ErrCancelled
}

// main waits for the run's turn, runs it and hands the lane on.
func (r *Run) main() {
	defer close(r.done)
	defer r.release()
	select {
	case <-r.turn:
	case <-r.ctx.Done():
		r.mu.Lock()
		r.status = StatusCancelled
		r.mu.Unlock()
		r.err = ErrCancelled
		r.emit(Event{Kind: EventCancelled, Message: "cancelled while queued"})
		return
	}
	r.mu.Lock()
	r.status = StatusRunning
	r.mu.Unlock()
	msg := "started"
	if r.resumed {
		msg = "resumed from its checkpoint"
	}
	r.emit(Event{Kind: EventStarted, Agent: r.st.Agent, Message: r.st.Agent + ": " + msg})
	ans, text, err := r.execute(r.ctx)

	final := Status(StatusDone)
	cpStatus := store.RunDone
	switch {
	case err == nil:
	case errors.Is(err, ErrCancelled):
		final, cpStatus = StatusCancelled, store.RunCancelled
	default:
		final, cpStatus = StatusFailed, store.RunFailed
	}
	r.mu.Lock()
	r.status = final
	if err == nil {
		r.st.Answer = ans
	}
	r.st.Frames = nil
	steps, tokens := r.st.Steps, r.st.Tokens
	r.mu.Unlock()
	if serr := r.save(context.WithoutCancel(r.ctx), cpStatus); serr != nil && err == nil {
		err = serr
	}
	entry := store.LogEntry{Agent: r.st.Agent, Status: string(final), Output: fmt.Sprintf("run %s: %d steps, %d tokens", final, steps, tokens)}
	if err != nil {
		entry.Error = err.Error()
	}
	r.log(context.WithoutCancel(r.ctx), entry)
	if err != nil {
		r.err = err
		kind := EventFailed
		if final == StatusCancelled {
			kind = EventCancelled
		}
		r.emit(Event{Kind: kind, Agent: r.st.Agent, Step: steps, Message: err.Error()})
		return
	}
	r.res = &Result{RunID: r.ID, Answer: ans, Text: text, Steps: steps, Tokens: tokens, Resumed: r.resumed}
	r.emit(Event{Kind: EventDone, Agent: r.st.Agent, Step: steps, Message: fmt.Sprintf("done in %d steps, %d tokens", steps, tokens)})
}

// execute runs the task's agent, or its parallel agents and the merge.
func (r *Run) execute(ctx context.Context) (json.RawMessage, string, error) {
	if r.task.Agent != nil {
		return r.loop(ctx, r.prep[0], "root", r.prep[0].agent.Name, r.task.Input)
	}
	answers := make([]SubAnswer, len(r.prep))
	errs := make([]error, len(r.prep))
	one := func(i int) {
		p := r.prep[i]
		path := "parallel/" + p.agent.Name
		r.mu.Lock()
		done, ok := r.st.Done[path]
		r.mu.Unlock()
		if ok {
			answers[i] = done
			return
		}
		r.emit(Event{Kind: EventSubAgent, Agent: p.agent.Name, Message: p.agent.Name + ": starting"})
		ans, _, err := r.loop(ctx, p, path, p.agent.Name, r.task.Input)
		sa := SubAnswer{Agent: p.agent.Name, Answer: ans}
		if err != nil {
			if errors.Is(err, ErrCancelled) || errors.Is(err, ErrBudget) {
				errs[i] = err
				return
			}
			// One angle failing does not sink the others; Merge sees it.
			sa.Err = err.Error()
			r.dropFrame(path)
		}
		r.mu.Lock()
		if r.st.Done == nil {
			r.st.Done = map[string]SubAnswer{}
		}
		r.st.Done[path] = sa
		r.mu.Unlock()
		answers[i] = sa
		errs[i] = r.save(ctx, store.RunRunning)
	}
	if n := r.task.Concurrency; n > 1 {
		p := pool.New().WithMaxGoroutines(n)
		for i := range r.prep {
			p.Go(func() { one(i) })
		}
		p.Wait()
	} else {
		for i := range r.prep {
			if one(i); errs[i] != nil {
				break
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, "", err
		}
	}
	merged, err := r.task.Merge(answers)
	if err != nil {
		return nil, "", fmt.Errorf("merge the answers of %d agents: %w", len(answers), err)
	}
	return merged, string(merged), nil
}

// release hands the role's lane to the next waiting run.
func (r *Run) release() {
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.runs, r.ID)
	l := m.lanes[r.Role]
	if l == nil {
		return
	}
	i := slices.Index(l.active, r)
	if i < 0 {
		if j := slices.Index(l.waiting, r); j >= 0 {
			l.waiting = slices.Delete(l.waiting, j, j+1)
		}
		return
	}
	l.active = slices.Delete(l.active, i, i+1)
	if len(l.waiting) > 0 {
		next := l.waiting[0]
		l.waiting = l.waiting[1:]
		l.active = append(l.active, next)
		close(next.turn)
	}
}

func (r *Run) frame(path string) *frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.Frames[path]
}

func (r *Run) setFrame(f *frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st.Frames == nil {
		r.st.Frames = map[string]*frame{}
	}
	r.st.Frames[f.Path] = f
}

// dropFrame forgets a finished conversation and those nested in it.
func (r *Run) dropFrame(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for p := range r.st.Frames {
		if p == path || strings.HasPrefix(p, path+"/") {
			delete(r.st.Frames, p)
		}
	}
}

func (r *Run) usage() (steps, tokens int, b Budget) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.Steps, r.st.Tokens, r.st.Budget
}

// Workflow is the checkpoint "workflow" under which a role's agent runs
// are kept.
func Workflow(role string) string { return "agent:" + role }

// save checkpoints the run's state.
func (r *Run) save(ctx context.Context, status string) error {
	st := r.m.opts.Store
	if st == nil {
		return nil
	}
	r.mu.Lock()
	data, err := json.Marshal(r.st)
	r.mu.Unlock()
	if err != nil {
		return fmt.Errorf("checkpoint agent run %s: %w", r.ID, err)
	}
	if _, err := st.SaveCheckpoint(ctx, store.Checkpoint{RunID: r.ID, Workflow: Workflow(r.Role), Status: status, Data: data}); err != nil {
		if ctx.Err() != nil {
			return r.cancelErr(ctx)
		}
		return fmt.Errorf("checkpoint agent run %s: %w", r.ID, err)
	}
	return nil
}

// log appends an entry to the agent log; a failure to log is reported to
// the logger and does not stop the run.
func (r *Run) log(ctx context.Context, e store.LogEntry) {
	e.Role, e.RunID = r.Role, r.ID
	if e.Node == "" {
		e.Node = r.task.Node
	}
	r.m.log.Info("agent step", "run", r.ID, "role", r.Role, "agent", e.Agent, "tool", e.Tool,
		"status", e.Status, "tokens_in", e.TokensIn, "tokens_out", e.TokensOut, "duration", e.Duration)
	st := r.m.opts.Store
	if st == nil {
		return
	}
	if _, err := st.AppendLog(context.WithoutCancel(ctx), e); err != nil {
		r.m.log.Warn("agent log", "run", r.ID, "err", err)
	}
}

func (r *Run) emit(e Event) {
	if r.m.opts.Observer == nil {
		return
	}
	e.RunID, e.Role = r.ID, r.Role
	r.m.opts.Observer(e)
}

// Pending is an agent run a checkpoint says was still running: the
// process died under it.
type Pending struct {
	RunID string
	Role  string
	Agent string
	Node  string
	Input string
	Steps int
	// Updated is when its last step was saved.
	Updated time.Time
}

// Unfinished lists the runs whose checkpoints say they were still
// running, most recent first, leaving out those active in this manager.
func (m *Manager) Unfinished() ([]Pending, error) {
	if m.opts.Store == nil {
		return nil, nil
	}
	cps, err := m.opts.Store.Runs("", true)
	if err != nil {
		return nil, fmt.Errorf("unfinished agent runs: %w", err)
	}
	var out []Pending
	for _, cp := range cps {
		if !strings.HasPrefix(cp.Workflow, "agent:") || m.Get(cp.RunID) != nil {
			continue
		}
		var st state
		if err := json.Unmarshal(cp.Data, &st); err != nil {
			continue
		}
		out = append(out, Pending{RunID: cp.RunID, Role: st.Role, Agent: st.Agent, Node: st.Node,
			Input: st.Input, Steps: st.Steps, Updated: cp.Updated})
	}
	return out, nil
}

// ResumeRun continues the run runID from its checkpoint. task gives the
// agent definitions again (tools are code, not data); its Agent (or
// Parallel) must be the one the run was started with. Input, Budget and
// the conversation so far come from the checkpoint.
func (m *Manager) ResumeRun(runID string, task Task) (*Run, error) {
	if m.opts.Store == nil {
		return nil, errors.New("resume agent run: no store")
	}
	cp, err := m.opts.Store.Checkpoint(runID)
	if err != nil {
		return nil, fmt.Errorf("resume agent run %s: %w", runID, err)
	}
	if cp.Status != store.RunRunning {
		return nil, fmt.Errorf("resume agent run %s: it is %s, not running", runID, cp.Status)
	}
	var st state
	if err := json.Unmarshal(cp.Data, &st); err != nil {
		return nil, fmt.Errorf("resume agent run %s: checkpoint: %w", runID, err)
	}
	name := "parallel"
	if task.Agent != nil {
		name = task.Agent.Name
	}
	if name != st.Agent {
		return nil, fmt.Errorf("resume agent run %s: it ran agent %q, not %q", runID, st.Agent, name)
	}
	if st.Frames == nil {
		st.Frames = map[string]*frame{}
	}
	task.ID, task.Role, task.Input, task.Node = runID, st.Role, st.Input, st.Node
	return m.submit(task, &st)
}

// Discard marks an unfinished run cancelled, so that it is neither
// resumed nor listed again. Nothing it did needs undoing: agents only
// read.
func (m *Manager) Discard(ctx context.Context, runID string) error {
	if m.opts.Store == nil {
		return nil
	}
	if r := m.Get(runID); r != nil {
		return fmt.Errorf("discard agent run %s: it is active; cancel it instead", runID)
	}
	cp, err := m.opts.Store.Checkpoint(runID)
	if err != nil {
		return fmt.Errorf("discard agent run %s: %w", runID, err)
	}
	cp.Status = store.RunCancelled
	if _, err := m.opts.Store.SaveCheckpoint(ctx, cp); err != nil {
		return fmt.Errorf("discard agent run %s: %w", runID, err)
	}
	var st state
	_ = json.Unmarshal(cp.Data, &st)
	_, err = m.opts.Store.AppendLog(ctx, store.LogEntry{Role: st.Role, Agent: st.Agent, RunID: runID, Status: "discarded",
		Output: "unfinished run discarded after a restart"})
	return err
}

// DiscardUnfinished discards every unfinished run of a role ("" for all
// roles) and returns how many there were: for roles whose runs answer an
// author who has gone (the builder's), resuming after a restart is moot.
func (m *Manager) DiscardUnfinished(ctx context.Context, role string) (int, error) {
	pending, err := m.Unfinished()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range pending {
		if role != "" && p.Role != role {
			continue
		}
		if err := m.Discard(ctx, p.RunID); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
