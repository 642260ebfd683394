package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/flowcabal/flowcabal/agent/builder"
	"github.com/flowcabal/flowcabal/agent/core"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sourcegraph/conc"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// Model is the chat model as the runner uses it: one streamed completion.
// The LLM client implements it (see ModelFunc for adapting a function).
type Model interface {
	Stream(ctx context.Context, p Params, msgs []Message, onDelta func(Delta)) (Reply, error)
}

// Delta is one piece of a streamed reply.
type Delta struct {
	Text string
	// Restart says the stream was cut and is retried from the beginning:
	// the text delivered so far is void.
	Restart bool
}

// Reply is a finished completion.
type Reply struct {
	Text  string
	Usage store.Usage
	Model string // the model id the endpoint reported
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, p Params, msgs []Message, onDelta func(Delta)) (Reply, error)

// Stream implements Model.
func (f ModelFunc) Stream(ctx context.Context, p Params, msgs []Message, onDelta func(Delta)) (Reply, error) {
	return f(ctx, p, msgs, onDelta)
}

// History is what the runner needs of the store; *store.Store has it.
type History interface {
	Outputs(workflow, node string) ([]store.Output, error)
	Node(workflow, node string) (store.NodeState, error)
	OutputVersion(workflow, node string, version int) (store.Output, error)
	RecordOutput(ctx context.Context, o store.Output) (store.Output, error)
	SaveCheckpoint(ctx context.Context, cp store.Checkpoint) (store.Checkpoint, error)
	Checkpoint(runID string) (store.Checkpoint, error)
}

// Assembler is Role A: the ephemeral context of one node.
type Assembler interface {
	Assemble(ctx context.Context, wf *workflowlang.Result, node *workflowlang.Node, upstream map[string]string) (Injection, error)
}

// Knowledge reads project resources at a level for {{@path:Ln}}.
type Knowledge interface {
	Level(ctx context.Context, path, level string) (string, error)
}

// Decision, Verdict and Gate are Role C's, declared in agent/core so that
// the agents that implement the gate do not import the runner.
type (
	Decision = core.Decision
	Verdict  = core.Verdict
	Gate     = core.Gate
)

// The gate's decisions.
const (
	Approve = core.Approve
	Retry   = core.Retry
	Flag    = core.Flag
)

// Observer receives a run's events. Every field is optional. They come in
// the DAG's order: a node's start after the ends of the nodes it reads,
// its text and steps after its start, its end last, once a saved
// checkpoint holds it. NodeStarted and NodeFinished are called from the
// goroutine that schedules the run, Delta and Step from the node's: all
// must be quick.
type Observer struct {
	NodeStarted  func(node string, index, total int)
	Delta        func(node string, d Delta)
	NodeFinished func(node string, r NodeResult)
	// Step reports progress inside a node ("pass 2 of 3: revise",
	// "generation 1 of 2, candidate 3 of 4").
	Step func(node, msg string)
}

// NodeResult is how one node of a run ended.
type NodeResult struct {
	Node     string
	Status   string // "done", "cached", "frozen", "flagged", "failed", "skipped", "cancelled"
	Version  int
	Output   string
	Tokens   int
	Attempts int
	Verdict  *Verdict
	Err      error
	Messages []Message // the final prompt (not stored: it can be rebuilt)
	// Select lists the candidate versions ("v12") the author chooses from
	// when a select = "human" node waits.
	Select []string
}

// Config wires a Runner. Model and History are required.
type Config struct {
	Root      string // project root
	Model     Model
	History   History
	Assembler Assembler // nil: layer 2 is empty and the provenance says so
	Knowledge Knowledge // nil: knowledge references fail with a clear error
	Gate      Gate      // nil: every output is approved
	// Params gives the model parameters of a node (node, workflow and
	// project defaults applied).
	Params func(wf *workflowlang.Result, n *workflowlang.Node) (Params, error)
	// ModelParams gives the parameters of a model configuration by name
	// (the agent model of a refinement's critique step).
	ModelParams func(name string) (Params, error)
	// Env checks used sub-workflows; the zero Env checks them alone.
	Env workflowlang.Env
	// Concurrency bounds the nodes running at once; 0 means
	// DefaultConcurrency.
	Concurrency int
	Log         *slog.Logger
	// Price gives the price of a call through the model configuration
	// name to the endpoint's model id (project.Config.PriceOf); nil or
	// not ok: the call is counted in tokens only.
	Price func(name, model string) (project.Price, bool)
	// MaxCost is the project's limit on what one run spends; a
	// workflow's max_cost and Options.MaxCost override it. 0: none.
	MaxCost float64
}

// DefaultConcurrency is how many nodes a run executes at once unless told
// otherwise. A node waits on the model almost all of its time, so the
// bound is the endpoint's, not this machine's: wide enough that the
// branches of a usual workflow all run together (a hosted endpoint takes
// that many; a 429 is retried after the wait it asks for), and a local
// server that answers one request at a time is configured with
// concurrency = 1.
const DefaultConcurrency = 16

// Runner runs workflows. It is safe for concurrent use; each Run is
// independent.
type Runner struct {
	cfg Config

	// templates is Role B's template base, parsed once, for the prompts
	// of refine's critique and revision passes.
	templates func() (*builder.Library, error)
}

// New returns a Runner.
func New(cfg Config) *Runner {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Runner{cfg: cfg, templates: sync.OnceValues(builder.DefaultLibrary)}
}

// Options control one run.
type Options struct {
	Target Target
	// Force runs the requested nodes even when the cache has their output.
	Force bool
	// Rerun lists nodes to run even when the cache has their output.
	Rerun []string
	// Resume continues the run with this id from its checkpoint.
	Resume string
	// Observer receives progress.
	Observer Observer
	// Inputs fill the workflow's declared inputs (a sub-workflow run).
	Inputs map[string]string
	// Control, when set, receives the run's controls as it starts (the
	// editor cancels one node through it).
	Control func(c *Control)
	// Feedback maps a node to the author's feedback, appended to its prompt
	// (a retry with feedback). A node with feedback is run anew.
	Feedback map[string]string
	// MaxCost overrides the run's max_cost (a resumed run given a higher
	// limit); 0 keeps the workflow's or the project's.
	MaxCost float64
}

// Result is how a run ended.
type Result struct {
	RunID  string
	Status string // store.RunDone, RunWaiting, RunFailed, RunCancelled
	Nodes  map[string]NodeResult
}

// WorkflowID is the name a workflow has in the store and the outputs
// folder: its path relative to the project root.
func WorkflowID(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// Run executes a checked workflow. Independent nodes run concurrently;
// each finished node is recorded in the history and the run is
// checkpointed before the next decision, so a killed run resumes with
// Options.Resume and runs no finished node again. A flagged node stops
// its own branch only.
func (r *Runner) Run(ctx context.Context, wf *workflowlang.Result, opts Options) (*Result, error) {
	wid := WorkflowID(r.cfg.Root, wf.File.Path)
	cp := store.Checkpoint{Workflow: wid, Status: store.RunRunning, Nodes: map[string]store.NodeRun{}}
	if opts.Resume != "" {
		prev, err := r.cfg.History.Checkpoint(opts.Resume)
		if err != nil {
			return nil, fmt.Errorf("resume run %s: %w", opts.Resume, err)
		}
		if prev.Workflow != wid {
			return nil, fmt.Errorf("resume run %s: it ran %s, not %s", opts.Resume, prev.Workflow, wid)
		}
		if opts.Target == (Target{}) && len(prev.Data) > 0 {
			// Resume what the run was asked to do.
			var d runData
			_ = json.Unmarshal(prev.Data, &d)
			opts.Target = d.Target
		}
		cp = prev
		cp.Status = store.RunRunning
		cp.Pending = nil
		if cp.Nodes == nil {
			cp.Nodes = map[string]store.NodeRun{}
		}
	} else {
		cp.RunID = newRunID()
		cp.Started = time.Now().UTC()
	}
	plan, err := NewPlan(wf, opts.Target)
	if err != nil {
		return nil, err
	}
	ex := &execution{r: r, wf: wf, wid: wid, plan: plan, opts: opts, cp: cp,
		outputs: map[string]string{}, results: map[string]NodeResult{}, cancels: map[string]context.CancelFunc{}}
	if opts.Resume != "" {
		ex.spent = ex.spentBefore()
	}
	// Every call made for this run, Role C's checks included, is counted
	// to it in the agent log.
	ctx = store.WithAttribution(ctx, store.Attribution{Workflow: wid, Run: cp.RunID})
	if opts.Control != nil {
		opts.Control(&Control{ex: ex})
	}
	d := ex.data()
	d.Target = opts.Target
	ex.setData(d)
	for k, v := range opts.Inputs {
		ex.outputs[k] = v
	}
	if err := ex.save(ctx); err != nil {
		return nil, err
	}
	return ex.run(ctx)
}

// Control steers a run in progress.
type Control struct {
	ex *execution
}

// CancelNode stops one node of the run (its model call is cancelled, its
// dependents are skipped); the rest of the run goes on. It reports
// whether the node was running.
func (c *Control) CancelNode(node string) bool {
	c.ex.mu.Lock()
	cancel, ok := c.ex.cancels[node]
	c.ex.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// execution is the state of one Run.
type execution struct {
	r    *Runner
	wf   *workflowlang.Result
	wid  string
	plan *Plan
	opts Options

	mu      sync.Mutex
	cp      store.Checkpoint
	outputs map[string]string // node -> output, the run cache
	results map[string]NodeResult
	started int
	cancels map[string]context.CancelFunc // running nodes
	// durable holds, per planned node, whether its output is in the
	// history; written before the run starts, then read-only.
	durable map[string]*durable
	// built holds, per node that assembled its prompt, its sources'
	// hashes and Role A's provenance (guarded by mu).
	built map[string]built
	// told is closed once the observer has been told that the node
	// started: its progress events wait for it.
	told map[string]chan struct{}

	// spent is what the run's calls cost so far; held, the estimates of
	// the calls in flight; stoppedAt, the node whose call max_cost
	// refused (see reserve).
	spent, held float64
	stoppedAt   string
	// estimate says the execution only builds prompts (Runner.Estimate);
	// assumed lists the nodes whose outputs it stands in for.
	estimate bool
	assumed  []string
}

func (ex *execution) save(ctx context.Context) error {
	return ex.saveSnapshot(ctx, ex.snapshot())
}

// snapshot copies the run's checkpoint for saving.
func (ex *execution) snapshot() store.Checkpoint {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	cp := ex.cp
	cp.Nodes = make(map[string]store.NodeRun, len(ex.cp.Nodes))
	for k, v := range ex.cp.Nodes {
		cp.Nodes[k] = v
	}
	cp.Pending = append([]store.Decision(nil), ex.cp.Pending...)
	return cp
}

func (ex *execution) saveSnapshot(ctx context.Context, cp store.Checkpoint) error {
	// The checkpoint must survive even when the run is being cancelled:
	// it is what the author resumes from.
	saved, err := ex.r.cfg.History.SaveCheckpoint(context.WithoutCancel(ctx), cp)
	if err != nil {
		return fmt.Errorf("checkpoint run %s: %w", cp.RunID, err)
	}
	ex.mu.Lock()
	ex.cp.Step, ex.cp.Updated = saved.Step, saved.Updated
	ex.mu.Unlock()
	return nil
}

// event is what a node's goroutine tells the run's loop.
type event struct {
	node   string
	kind   eventKind
	output string     // approved
	res    NodeResult // ended
}

type eventKind int

const (
	slotted  eventKind = iota // the node has a slot and starts
	approved                  // its output is approved, maybe not yet recorded
	ended                     // it ended, recorded
)

// durable tells a node's dependents, which may start before its output
// is recorded, whether it was: set once the node has ended.
type durable struct {
	once sync.Once
	done chan struct{}
	ok   bool
}

func (d *durable) set(ok bool) {
	d.once.Do(func() {
		d.ok = ok
		close(d.done)
	})
}

// hasOutput says whether a node's status gives its dependents an output.
func hasOutput(status string) bool {
	return status == "done" || status == "cached" || status == "frozen"
}

func (ex *execution) run(ctx context.Context) (*Result, error) {
	pending := map[string]int{} // unfinished deps per node
	down := map[string][]string{}
	ex.durable = make(map[string]*durable, len(ex.plan.Order))
	ex.told = make(map[string]chan struct{}, len(ex.plan.Order))
	for _, n := range ex.plan.Order {
		pending[n] = len(ex.plan.Deps[n])
		for _, d := range ex.plan.Deps[n] {
			down[d] = append(down[d], n)
		}
		ex.durable[n] = &durable{done: make(chan struct{})}
		ex.told[n] = make(chan struct{})
	}
	// A node sends at most three events: it has a slot, its output once
	// approved, its end.
	events := make(chan event, 3*len(ex.plan.Order))
	var wg conc.WaitGroup
	sem := make(chan struct{}, ex.r.cfg.Concurrency)
	inFlight := 0
	blocked := map[string]bool{}
	released := map[string]bool{}
	index := map[string]int{} // "node k of n"

	var start func(n string)
	start = func(n string) {
		inFlight++
		nctx, cancel := context.WithCancel(ctx)
		ex.mu.Lock()
		ex.started++
		index[n] = ex.started
		ex.cancels[n] = cancel
		ex.mu.Unlock()
		wg.Go(func() {
			defer func() {
				ex.mu.Lock()
				delete(ex.cancels, n)
				ex.mu.Unlock()
				cancel()
			}()
			sem <- struct{}{}
			events <- event{node: n, kind: slotted}
			var once sync.Once
			free := func() { once.Do(func() { <-sem }) }
			defer free()
			release := func(output string) {
				// The slot bounds model calls; what is left of this
				// node (its record) must not hold up the next one.
				free()
				events <- event{node: n, kind: approved, output: output}
			}
			res := ex.node(nctx, n, release)
			ex.durable[n].set(hasOutput(res.Status))
			events <- event{node: n, kind: ended, res: res}
		})
	}
	// unblock counts n as finished for its dependents and starts those it
	// was the last to wait for.
	unblock := func(n string, good bool) {
		for _, d := range down[n] {
			if !good {
				blocked[d] = true
			}
			pending[d]--
			if pending[d] == 0 {
				if blocked[d] {
					ex.skip(d, n, down, pending, blocked)
					continue
				}
				if ctx.Err() != nil {
					continue
				}
				start(d)
			}
		}
	}
	for _, n := range ex.plan.Order {
		if pending[n] == 0 {
			start(n)
		}
	}
	// A node's dependents start as soon as its output is approved (see
	// execution.node); its record and the checkpoint follow off the
	// critical path. The observer is still told in the order of the DAG:
	// a node's end once a saved checkpoint holds it (nothing acknowledged
	// is lost in a crash), and a node's start, once it has a slot, only
	// after the ends of the nodes it reads. The nodes that end while a
	// checkpoint is being saved share the next one.
	slot := map[string]bool{}
	told := map[string]bool{}        // the start
	acked := map[string]bool{}       // the end
	saved := map[string]NodeResult{} // end not yet told
	var tellStart, tellEnd func(n string)
	tellStart = func(n string) {
		if told[n] || !slot[n] {
			return
		}
		for _, d := range ex.plan.Deps[n] {
			if !acked[d] {
				return
			}
		}
		told[n] = true
		if obs := ex.opts.Observer.NodeStarted; obs != nil {
			obs(n, index[n], len(ex.plan.Order))
		}
		close(ex.told[n])
		tellEnd(n)
	}
	tellEnd = func(n string) {
		res, ok := saved[n]
		if !ok || !told[n] {
			return
		}
		delete(saved, n)
		acked[n] = true
		if obs := ex.opts.Observer.NodeFinished; obs != nil {
			obs(n, res)
		}
		for _, d := range down[n] {
			tellStart(d)
		}
	}
	var firstErr error
	saveDone := make(chan error, 1)
	saving := false
	var unsaved, inSave []NodeResult
	for inFlight > 0 || saving {
		// Once every node has ended, the run's last checkpoint (below)
		// holds what is left.
		if !saving && len(unsaved) > 0 && inFlight > 0 {
			saving, inSave, unsaved = true, unsaved, nil
			cp := ex.snapshot()
			go func() { saveDone <- ex.saveSnapshot(ctx, cp) }()
		}
		select {
		case ev := <-events:
			switch ev.kind {
			case slotted:
				slot[ev.node] = true
				tellStart(ev.node)
			case approved:
				released[ev.node] = true
				ex.mu.Lock()
				ex.outputs[ev.node] = ev.output
				ex.mu.Unlock()
				unblock(ev.node, true)
			case ended:
				inFlight--
				ex.mu.Lock()
				ex.finish(ev.res)
				ex.mu.Unlock()
				unsaved = append(unsaved, ev.res)
				if !released[ev.node] {
					unblock(ev.node, hasOutput(ev.res.Status))
				}
				// A released node that then failed (its output could
				// not be recorded) has dependents running already:
				// they see it through ex.durable and end skipped.
			}
		case err := <-saveDone:
			saving = false
			if err != nil && firstErr == nil {
				firstErr = err
			}
			for _, res := range inSave {
				saved[res.Node] = res
				tellEnd(res.Node)
			}
			inSave = nil
		}
	}
	wg.Wait()

	status := store.RunDone
	ex.mu.Lock()
	for _, n := range ex.plan.Order {
		res, ok := ex.results[n]
		switch {
		case !ok || res.Status == "cancelled":
			if ctx.Err() != nil || ok {
				status = store.RunCancelled // resumable
			}
		case res.Status == "failed" && status != store.RunCancelled:
			status = store.RunFailed
		case res.Status == "stopped" && (status == store.RunDone || status == store.RunWaiting):
			status = store.RunWaiting // for a higher max_cost; resumable
		case res.Status == "flagged" && status == store.RunDone:
			status = store.RunWaiting
		}
	}
	if ctx.Err() != nil {
		status = store.RunCancelled
	}
	ex.cp.Status = status
	results := make(map[string]NodeResult, len(ex.results))
	for k, v := range ex.results {
		results[k] = v
	}
	ex.mu.Unlock()
	if err := ex.save(ctx); err != nil && firstErr == nil {
		firstErr = err
	}
	for _, res := range unsaved {
		saved[res.Node] = res
		tellEnd(res.Node)
	}
	return &Result{RunID: ex.cp.RunID, Status: status, Nodes: results}, firstErr
}

// finish puts a finished node into the run's state; ex.mu must be held.
func (ex *execution) finish(res NodeResult) {
	ex.results[res.Node] = res
	nr := store.NodeRun{Status: res.Status, Version: res.Version}
	if res.Err != nil {
		nr.Error = res.Err.Error()
	} else if res.Status == "flagged" && res.Verdict != nil {
		nr.Error = res.Verdict.Feedback
	}
	if hasOutput(res.Status) {
		ex.outputs[res.Node] = res.Output
	} else {
		delete(ex.outputs, res.Node) // released, then not recorded
	}
	ex.cp.Nodes[res.Node] = nr
	if res.Status == "stopped" {
		ex.cp.Pending = append(ex.cp.Pending, store.Decision{Node: res.Node, Kind: "max_cost", Detail: nr.Error})
	}
	if res.Status == "flagged" {
		d := store.Decision{Node: res.Node, Kind: "flag"}
		if res.Verdict != nil {
			d.Detail = res.Verdict.Feedback
		}
		if len(res.Select) > 0 {
			d.Kind, d.Detail = "select", strings.Join(res.Select, ",")
		}
		ex.cp.Pending = append(ex.cp.Pending, d)
	}
}

// skip marks n and everything below it as skipped because an upstream
// node did not produce an output.
func (ex *execution) skip(n, because string, down map[string][]string, pending map[string]int, blocked map[string]bool) {
	ex.mu.Lock()
	ex.results[n] = NodeResult{Node: n, Status: "skipped", Err: fmt.Errorf("waiting on %s", because)}
	ex.cp.Nodes[n] = store.NodeRun{Status: "skipped", Error: "waiting on " + because}
	ex.mu.Unlock()
	for _, d := range down[n] {
		blocked[d] = true
		pending[d]--
		if pending[d] == 0 {
			ex.skip(d, because, down, pending, blocked)
		}
	}
}

// node runs one node to its end: reuse from the checkpoint, a frozen
// version or the cache, else call the model, through the gate's retries.
//
// Once the gate approves a new output, release hands it to the run so
// that the node's dependents start at once, while the output is still
// being recorded: a commit takes milliseconds that would otherwise be
// added to every node on the critical path. A dependent that started
// early in turn waits (see awaitInputs) for its inputs to be recorded
// before it records or releases anything, so speculation never goes
// deeper than one node and an output is in the history only if its
// inputs are.
func (ex *execution) node(ctx context.Context, name string, release func(output string)) NodeResult {
	res := NodeResult{Node: name}
	if err := ctx.Err(); err != nil {
		res.Status, res.Err = "cancelled", err
		return res
	}
	h := ex.r.cfg.History

	// A node this run finished before a crash is never run again.
	ex.mu.Lock()
	prev, had := ex.cp.Nodes[name]
	ex.mu.Unlock()
	if had && prev.Version > 0 && (prev.Status == "done" || prev.Status == "cached" || prev.Status == "frozen" || prev.Status == "flagged") {
		// A flagged node stays flagged until the author decides (Decide).
		o, err := h.OutputVersion(ex.wid, name, prev.Version)
		if err == nil {
			res.Status, res.Version, res.Output = prev.Status, o.Version, o.Text
			if prev.Status == "flagged" {
				res.Verdict = &Verdict{Decision: Flag, Feedback: prev.Error}
			}
			if r, ok := ex.awaitInputs(ctx, res); !ok {
				return r
			}
			return res
		}
	}

	st, err := h.Node(ex.wid, name)
	if err != nil {
		return fail(res, fmt.Errorf("read node state: %w", err))
	}
	if st.Frozen > 0 {
		o, err := h.OutputVersion(ex.wid, name, st.Frozen)
		if err != nil {
			return fail(res, fmt.Errorf("frozen version %d: %w", st.Frozen, err))
		}
		if r, ok := ex.awaitInputs(ctx, res); !ok {
			return r
		}
		res.Status, res.Version, res.Output = "frozen", o.Version, o.Text
		ex.writeOutputDoc(name, o.Text, fmt.Sprintf("frozen v%d", o.Version))
		return res
	}

	n := ex.wf.File.Node(name)
	if a, ok := store.AttributionOf(ctx); ok {
		a.Node, a.Chapter = name, chapterOf(n, Injection{})
		ctx = store.WithAttribution(ctx, a)
	}
	params, inj, msgs, err := ex.prompt(ctx, n)
	if err != nil {
		return fail(res, err)
	}
	if a, ok := store.AttributionOf(ctx); ok {
		a.Chapter = chapterOf(n, inj)
		ctx = store.WithAttribution(ctx, a)
	}
	srcs := ex.builtFrom(name, n, inj)
	if fb := ex.opts.Feedback[name]; fb != "" {
		msgs = withFeedback(msgs, fb)
	}
	if attrInt(n, "candidates", 1) > 1 || attrInt(n, "refine", 0) > 0 {
		// These forms record several outputs: they wait for their inputs
		// first.
		if r, ok := ex.awaitInputs(ctx, res); !ok {
			return r
		}
	}
	if c := attrInt(n, "candidates", 1); c > 1 {
		sel := ""
		if a := n.Attr("select"); a != nil {
			sel = valueText(a.Value)
		}
		return ex.evolve(ctx, n, params, msgs, c, attrInt(n, "generations", 1), sel == "human", res)
	}
	if passes := attrInt(n, "refine", 0); passes > 0 {
		return ex.refine(ctx, n, params, msgs, passes, res)
	}
	key := CacheKey(params, msgs)
	var hit *store.Output
	if !(ex.opts.Force && ex.plan.Requested[name]) && !slices.Contains(ex.opts.Rerun, name) {
		if o, ok := ex.cached(name, key); ok {
			hit = &o
		}
	}

	retries := attrInt(n, "retries", attrIntWF(ex.wf, "retries", 3))
	for attempt := 1; ; attempt++ {
		res.Attempts = attempt
		res.Messages = msgs
		var text string
		var recorded func() (store.Output, error)
		if hit != nil {
			// A cached output goes through the gate like a new one: an
			// output once flagged is not approved by being reused.
			o := *hit
			hit = nil
			if r, ok := ex.awaitInputs(ctx, res); !ok {
				return r
			}
			text = o.Text
			recorded = func() (store.Output, error) { return o, nil }
		} else {
			reply, err := ex.call(ctx, name, params, msgs)
			if err != nil {
				if ctx.Err() != nil {
					res.Status, res.Err = "cancelled", ctx.Err()
					return res
				}
				return fail(res, err)
			}
			res.Tokens += reply.Usage.CompletionTokens
			out := store.Output{
				Workflow: ex.wid, Node: name, Text: reply.Text, PromptHash: key,
				Model: reply.Model, Usage: reply.Usage, RunID: ex.cp.RunID, At: time.Now().UTC(),
				Provenance: inj.Provenance, Sources: srcs, Params: paramsJSON(params),
			}
			// Only now, with the reply in hand, does the node wait for its
			// inputs to be recorded: they were, long ago, unless the call
			// was very short.
			if r, ok := ex.awaitInputs(ctx, res); !ok {
				return r
			}
			text = ex.redact(reply.Text)
			// The output is recorded while the gate reviews it.
			type recResult struct {
				o   store.Output
				err error
			}
			ch := make(chan recResult, 1)
			go func() {
				o, err := h.RecordOutput(ctx, out)
				ch <- recResult{o, err}
			}()
			recorded = func() (store.Output, error) {
				r := <-ch
				if r.err != nil {
					return r.o, fmt.Errorf("record output: %w", r.err)
				}
				return r.o, nil
			}
		}
		v := Verdict{Decision: Approve}
		if g := ex.r.cfg.Gate; g != nil {
			var err error
			v, err = g.Review(ctx, n, text, attempt)
			if err != nil {
				v = Verdict{Decision: Flag, Feedback: "the checks could not run: " + err.Error()}
			}
		}
		if v.Decision == Approve {
			release(text)
		}
		rec, err := recorded()
		if err != nil {
			return fail(res, err)
		}
		res.Version, res.Output = rec.Version, rec.Text
		res.Verdict = &v
		switch {
		case v.Decision == Approve:
			res.Status = "done"
			if rec.RunID != ex.cp.RunID {
				res.Status = "cached"
			}
			ex.writeOutputDoc(name, rec.Text, fmt.Sprintf("approved v%d", rec.Version))
			return res
		case v.Decision == Retry && attempt <= retries:
			msgs = withFeedback(res.Messages, v.Feedback)
			key = CacheKey(params, msgs)
			continue
		default:
			res.Status = "flagged"
			ex.writeOutputDoc(name, rec.Text, fmt.Sprintf("needs you v%d", rec.Version))
			return res
		}
	}
}

// redactor is what a History that removes secrets from what it records
// offers, so that an output handed on before it is recorded is the text
// the history will hold.
type redactor interface {
	Redact(text string) string
}

func (ex *execution) redact(text string) string {
	if r, ok := ex.r.cfg.History.(redactor); ok {
		return r.Redact(text)
	}
	return text
}

// startTold waits until the observer has been told that node started
// (at once, unless a reply streams in while the checkpoint of the node's
// inputs is being saved). It reports false if ctx ends first.
func (ex *execution) startTold(ctx context.Context, node string) bool {
	told, ok := ex.told[node]
	if !ok {
		return true // not a node of this run (a sub-workflow's step)
	}
	select {
	case <-told:
		return true
	case <-ctx.Done():
		return false
	}
}

// awaitInputs waits until the node's inputs are recorded. It reports
// false, with the node's result, when one of them never will be (the
// node is skipped) or the node is cancelled.
func (ex *execution) awaitInputs(ctx context.Context, res NodeResult) (NodeResult, bool) {
	for _, dep := range ex.plan.Deps[res.Node] {
		d := ex.durable[dep]
		select {
		case <-d.done:
		case <-ctx.Done():
			res.Status, res.Err = "cancelled", ctx.Err()
			return res, false
		}
		if !d.ok {
			res.Status, res.Err = "skipped", fmt.Errorf("waiting on %s", dep)
			return res, false
		}
	}
	return res, true
}

func fail(res NodeResult, err error) NodeResult {
	res.Status, res.Err = "failed", err
	if errors.Is(err, ErrMaxCost) {
		// Not a failure: the run waits for a higher limit, resumable.
		res.Status = "stopped"
	}
	return res
}

// prompt builds a node's first prompt exactly as the run sends it: the
// node's parameters, Role A's injection, and the three layers rendered
// with its references resolved. Runner.Estimate counts what it returns.
func (ex *execution) prompt(ctx context.Context, n *workflowlang.Node) (Params, Injection, []Message, error) {
	params, err := ex.params(n)
	if err != nil {
		return params, Injection{}, nil, err
	}
	params.Node = n.Name.Name
	inj, err := ex.inject(ctx, n)
	if err != nil {
		return params, inj, nil, fmt.Errorf("Role A: %w", err)
	}
	msgs, err := Render(n, inj, ex.resolver(ctx))
	if err != nil {
		return params, inj, nil, err
	}
	return params, inj, msgs, nil
}

// call makes one model call within the run's max_cost.
func (ex *execution) call(ctx context.Context, name string, p Params, msgs []Message) (Reply, error) {
	held, err := ex.reserve(name, p, msgs)
	if err != nil {
		return Reply{}, err
	}
	reply, err := ex.stream(ctx, name, p, msgs)
	ex.settle(p, held, reply.Usage)
	return reply, err
}

// stream streams one completion, writing the output document as it grows.
func (ex *execution) stream(ctx context.Context, name string, p Params, msgs []Message) (Reply, error) {
	if p.Variant != "" && strings.HasPrefix(p.Variant, "g") {
		// Candidates stream side by side: their text is shown once
		// complete, in the generation's document, not interleaved live.
		return ex.r.cfg.Model.Stream(ctx, p, msgs, func(Delta) {})
	}
	var buf strings.Builder
	// A model may echo a key it was shown: the observer (the terminal,
	// the editor) and the live document get the text as the history will
	// hold it, redacted. The last redactHoldback bytes wait for the next
	// piece, so that a key split across pieces is whole when redacted;
	// the end of the reply flushes them.
	shown, restart := 0, false
	show := func(final bool) {
		obs := ex.opts.Observer.Delta
		if obs == nil {
			return
		}
		red := ex.redact(buf.String())
		end := len(red)
		if !final {
			end -= redactHoldback
			for end > shown && end < len(red) && !utf8.RuneStart(red[end]) {
				end--
			}
		}
		if end <= shown && !restart || !ex.startTold(ctx, name) {
			return
		}
		obs(name, Delta{Text: red[shown:max(end, shown)], Restart: restart})
		shown, restart = max(end, shown), false
	}
	// The live document is rewritten at most every 250 ms, counting from
	// the request: a reply that arrives within that is written once, when
	// the node ends, and costs its node no disk write while it streams.
	last := time.Now()
	onDelta := func(d Delta) {
		if d.Restart {
			buf.Reset()
			shown, restart = 0, true
		}
		buf.WriteString(d.Text)
		show(false)
		if time.Since(last) > 250*time.Millisecond {
			last = time.Now()
			ex.writeOutputDoc(name, ex.redact(buf.String()), "running")
		}
	}
	reply, err := ex.r.cfg.Model.Stream(ctx, p, msgs, onDelta)
	show(true)
	return reply, err
}

// redactHoldback is how much of a streaming reply waits before it is
// shown: more than the longest API key in use (OpenAI's project keys are
// 164 bytes).
const redactHoldback = 256

func withFeedback(msgs []Message, feedback string) []Message {
	out := append([]Message(nil), msgs...)
	last := &out[len(out)-1]
	last.Content += "\n\nFeedback on the previous attempt, to address in this one:\n" + feedback
	return out
}

// cached finds an earlier output of the node made from the same prompt
// and parameters, newest first. An output whose source files changed
// since it was made is never served, though its prompt be the same (a
// summary level not yet regenerated renders as before).
func (ex *execution) cached(node, key string) (store.Output, bool) {
	outs, err := ex.r.cfg.History.Outputs(ex.wid, node)
	if err != nil {
		return store.Output{}, false
	}
	for i := len(outs) - 1; i >= 0; i-- {
		if outs[i].PromptHash != key {
			continue
		}
		if ex.r.cfg.Root != "" && len(ChangedSources(ex.r.cfg.Root, outs[i].Sources)) > 0 {
			continue
		}
		return outs[i], true
	}
	return store.Output{}, false
}

// builtFrom hashes the files a node's output is about to be built from
// and keeps them, with Role A's provenance, for every output the node
// records in this run (a refinement's passes, a generation's candidates).
func (ex *execution) builtFrom(name string, n *workflowlang.Node, inj Injection) map[string]string {
	var srcs map[string]string
	if ex.r.cfg.Root != "" {
		srcs = HashSources(ex.r.cfg.Root, SourcePaths(ex.r.cfg.Root, n, inj.Provenance))
	}
	ex.mu.Lock()
	if ex.built == nil {
		ex.built = map[string]built{}
	}
	ex.built[name] = built{sources: srcs, provenance: inj.Provenance}
	ex.mu.Unlock()
	return srcs
}

// built is what one node's outputs in a run were built from.
type built struct {
	sources    map[string]string
	provenance json.RawMessage
}

func (ex *execution) params(n *workflowlang.Node) (Params, error) {
	if ex.r.cfg.Params != nil {
		return ex.r.cfg.Params(ex.wf, n)
	}
	p := Params{ModelName: "writer"}
	if a := n.Attr("model"); a != nil {
		p.ModelName = valueText(a.Value)
	}
	return p, nil
}

func (ex *execution) inject(ctx context.Context, n *workflowlang.Node) (Injection, error) {
	if a := n.Attr("context"); a != nil && valueText(a.Value) == "off" {
		return Injection{Note: "context = off: no injection"}, nil
	}
	if ex.r.cfg.Assembler == nil {
		return Injection{Note: "Role A is not available: no injection (layer 2 empty)"}, nil
	}
	ex.mu.Lock()
	up := make(map[string]string, len(ex.outputs))
	for k, v := range ex.outputs {
		up[k] = v
	}
	// An output an estimate stands in for is no text Role A could read:
	// it reads the node without it, as the hover's preview does, so that
	// the two agree (and share the context assembled).
	for _, a := range ex.assumed {
		delete(up, a)
	}
	ex.mu.Unlock()
	return ex.r.cfg.Assembler.Assemble(ctx, ex.wf, n, up)
}

// resolver resolves references against this run's outputs.
func (ex *execution) resolver(ctx context.Context) Resolver {
	return runResolver{ex: ex, ctx: ctx}
}

type runResolver struct {
	ex  *execution
	ctx context.Context
}

func (rr runResolver) Output(name string) (string, bool) {
	rr.ex.mu.Lock()
	defer rr.ex.mu.Unlock()
	v, ok := rr.ex.outputs[name]
	return v, ok
}

func (rr runResolver) Knowledge(path, level string) (string, error) {
	if rr.ex.r.cfg.Knowledge == nil {
		return "", errors.New("no project knowledge is available to this run")
	}
	return rr.ex.r.cfg.Knowledge.Level(rr.ctx, path, level)
}

func (rr runResolver) Used(alias, node string) (string, error) {
	if rr.ex.estimate {
		return rr.ex.usedNow(alias, node)
	}
	return rr.ex.used(rr.ctx, alias, node)
}

// writeOutputDoc writes the node's latest output where the editor opens
// it: .flowcabal/outputs/<workflow>/<node>.md. A failed write is logged,
// not fatal: the store holds the output.
func (ex *execution) writeOutputDoc(node, text, state string) {
	if ex.r.cfg.Root == "" {
		return
	}
	p := OutputPath(ex.r.cfg.Root, ex.wid, node)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		ex.r.cfg.Log.Warn("output document", "node", node, "err", err)
		return
	}
	doc := fmt.Sprintf("<!-- flowcabal: workflow=%s node=%s state=%q -->\n%s", ex.wid, node, state, text)
	if err := writeAtomic(p, []byte(doc)); err != nil {
		ex.r.cfg.Log.Warn("output document", "node", node, "err", err)
	}
}

// OutputPath is where a node's output document lives.
func OutputPath(root, workflowID, node string) string {
	wf := strings.TrimSuffix(filepath.ToSlash(workflowID), ".flow")
	return filepath.Join(root, ".flowcabal", "outputs", filepath.FromSlash(wf), node+".md")
}

func newRunID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

func valueText(v workflowlang.Value) string {
	switch x := v.(type) {
	case *workflowlang.StringValue:
		return x.Value
	case *workflowlang.WordValue:
		return x.Name
	case *workflowlang.NumberValue:
		return x.Text
	case *workflowlang.BoolValue:
		if x.Value {
			return "true"
		}
		return "false"
	}
	return ""
}

func attrInt(n *workflowlang.Node, key string, def int) int {
	if a := n.Attr(key); a != nil {
		if v, ok := a.Value.(*workflowlang.NumberValue); ok && v.IsInt {
			return int(v.Value)
		}
	}
	return def
}

func attrIntWF(wf *workflowlang.Result, key string, def int) int {
	if w := wf.File.Workflow; w != nil {
		if a := w.Attr(key); a != nil {
			if v, ok := a.Value.(*workflowlang.NumberValue); ok && v.IsInt {
				return int(v.Value)
			}
		}
	}
	return def
}

// writeAtomic replaces p with data through a temporary file of its own,
// so that an editor never reads half a document and concurrent writers
// do not trip over one temporary name.
func writeAtomic(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*")
	if err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
