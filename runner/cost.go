package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// This file holds what a run costs: the token count of a prompt, the
// estimate of a run before it starts, and max_cost, which stops a run
// before a call that would take it past its limit.

// AssumedOutput is the completion tokens an estimate assumes for a call
// whose max_tokens is not set, and for an upstream output not produced
// yet: a usual chapter-length reply.
const AssumedOutput = 4096

// counters holds one tokeniser per encoding, loaded on first use.
var counters sync.Map // encoding -> *textsearch.Counter

func counterFor(model string) *textsearch.Counter {
	enc := textsearch.EncodingFor(model)
	if c, ok := counters.Load(enc); ok {
		return c.(*textsearch.Counter)
	}
	c, _ := counters.LoadOrStore(enc, textsearch.NewCounter(model))
	return c.(*textsearch.Counter)
}

// PromptTokens counts the prompt tokens a call with p sends msgs as, with
// the tokeniser of p's model and the chat format's framing: what the
// endpoint reports as prompt_tokens, to within its own framing.
func PromptTokens(p Params, msgs []Message) int {
	cm := make([]textsearch.ChatMessage, len(msgs))
	for i, m := range msgs {
		cm[i] = textsearch.ChatMessage{Role: m.Role, Content: m.Content}
	}
	n, err := counterFor(p.Model).CountChat(cm)
	if err != nil {
		// The vocabularies are built in; a byte count never under-counts.
		n = 0
		for _, m := range msgs {
			n += len(m.Content) + 4
		}
	}
	return n
}

// maxOutput is the completion tokens a call with p may write, and whether
// that is assumed (max_tokens unset).
func maxOutput(p Params) (int, bool) {
	if p.MaxTokens > 0 {
		return p.MaxTokens, false
	}
	return AssumedOutput, true
}

// price returns the price of a call with p.
func (r *Runner) price(p Params) (project.Price, bool) {
	if r.cfg.Price == nil {
		return project.Price{}, false
	}
	return r.cfg.Price(p.ModelName, p.Model)
}

// CallEstimate is one model call a node would make.
type CallEstimate struct {
	Step      string `json:"step"` // "prompt", "critique 1", "revise 1", "g2 candidate 3"
	ModelName string `json:"model_name"`
	Model     string `json:"model"`
	Input     int    `json:"input_tokens"`
	// MaxOutput is the most the call may write: its max_tokens, or
	// AssumedOutput when that is not set.
	MaxOutput int     `json:"max_output_tokens"`
	Cost      float64 `json:"cost"` // input and max output at the model's price
}

// NodeEstimate is what running one node would send and cost now.
type NodeEstimate struct {
	Node string `json:"node"`
	// Input is the prompt tokens of the node's first call, Role A's
	// context and the node's own text with its references resolved,
	// exactly as the run would send it now.
	Input int `json:"input_tokens"`
	// MaxOutput is the most one of its calls may write.
	MaxOutput int `json:"max_output_tokens"`
	// Calls are every call the node may make: one, or a refinement's
	// passes, or every candidate of every generation.
	Calls []CallEstimate `json:"calls"`
	// TotalInput, TotalOutput and Cost sum the calls (an upper bound for
	// refinement, which stops once approved).
	TotalInput  int     `json:"total_input_tokens"`
	TotalOutput int     `json:"total_max_output_tokens"`
	Cost        float64 `json:"cost"`
	// Priced says every call has a price; else Cost counts the priced ones.
	Priced bool `json:"priced"`
	// Reuse says the run would not call the model: "cached", "frozen".
	Reuse string `json:"reuse,omitempty"`
	// Notes say what the estimate assumed.
	Notes []string `json:"notes,omitempty"`
	Err   error    `json:"-"`
}

// Estimate is what a run would send and cost, node by node.
type Estimate struct {
	Nodes []NodeEstimate `json:"nodes"`
	// Input, Output and Cost sum the nodes a run would call the model
	// for (the cached and frozen ones cost nothing).
	Input  int     `json:"input_tokens"`
	Output int     `json:"max_output_tokens"`
	Cost   float64 `json:"cost"`
	Priced bool    `json:"priced"`
	// MaxCost is the run's limit (0: none).
	MaxCost float64 `json:"max_cost,omitempty"`
}

// Node returns the estimate of one node.
func (e *Estimate) Node(name string) (NodeEstimate, bool) {
	for _, n := range e.Nodes {
		if n.Node == name {
			return n, true
		}
	}
	return NodeEstimate{}, false
}

type estimatingKey struct{}

// Estimating reports whether ctx is an estimate's: Role A then uses what
// is cached (a prompt's embedding, the agent model's reading of it) and
// calls no model.
func Estimating(ctx context.Context) bool {
	v, _ := ctx.Value(estimatingKey{}).(bool)
	return v
}

// Estimate says what running opts.Target now would send to the models
// and cost, node by node, without calling any model. Each node's prompt
// is built as the run builds it (its parameters, Role A's context, its
// references resolved), from the outputs the run would read: the current
// output of each upstream node, or, for one never run, AssumedOutput
// tokens in its place (noted). Nodes the cache or a freeze would serve
// are listed with Reuse and cost nothing.
func (r *Runner) Estimate(ctx context.Context, wf *workflowlang.Result, opts Options) (*Estimate, error) {
	plan, err := NewPlan(wf, opts.Target)
	var broken map[string]error
	if err != nil {
		if opts.Target.Node != "" || !errors.Is(err, ErrNotRunnable) {
			return nil, err
		}
		// A workflow with an error in some node cannot run whole, but
		// each node whose own chain is sound can: estimate those.
		plan, broken = runnablePart(wf)
	}
	ctx = context.WithValue(ctx, estimatingKey{}, true)
	wid := WorkflowID(r.cfg.Root, wf.File.Path)
	ex := &execution{r: r, wf: wf, wid: wid, plan: plan, opts: opts, estimate: true,
		outputs: map[string]string{}, results: map[string]NodeResult{}, cancels: map[string]context.CancelFunc{}}
	for k, v := range opts.Inputs {
		ex.outputs[k] = v
	}
	est := &Estimate{Priced: true, MaxCost: ex.maxCost()}
	h := r.cfg.History
	for _, name := range plan.Order {
		ne := ex.estimateNode(ctx, name)
		if ne.Err == nil && ne.Reuse == "" {
			est.Input += ne.TotalInput
			est.Output += ne.TotalOutput
			est.Cost += ne.Cost
			est.Priced = est.Priced && ne.Priced
		}
		est.Nodes = append(est.Nodes, ne)
		// Downstream nodes read this node's output: the current one, or
		// a stand-in of the size it may reach.
		if st, err := h.Node(wid, name); err == nil && st.Current > 0 {
			if o, err := h.OutputVersion(wid, name, st.Current); err == nil {
				ex.outputs[name] = o.Text
				continue
			}
		}
		ex.outputs[name] = standIn(ne.MaxOutput)
		ex.assumed = append(ex.assumed, name)
	}
	// A node that reads {{alias.node}} has the sub-workflow run what it
	// needs first, from its own cache: its calls are the caller's too.
	for _, ne := range ex.subEstimates(ctx, plan) {
		if ne.Err == nil && ne.Reuse == "" {
			est.Input += ne.TotalInput
			est.Output += ne.TotalOutput
			est.Cost += ne.Cost
			est.Priced = est.Priced && ne.Priced
		}
		est.Nodes = append(est.Nodes, ne)
	}
	for _, n := range wf.File.Nodes {
		if err, ok := broken[n.Name.Name]; ok {
			est.Nodes = append(est.Nodes, NodeEstimate{Node: n.Name.Name, Err: err})
		}
	}
	return est, nil
}

// subEstimates estimates the sub-workflow nodes the planned nodes read,
// with the inputs their use declarations give them now; each is named
// "alias.node".
func (ex *execution) subEstimates(ctx context.Context, plan *Plan) []NodeEstimate {
	type target struct{ alias, node string }
	var targets []target
	seen := map[target]bool{}
	for _, name := range plan.Order {
		for _, ref := range ex.wf.File.Node(name).Refs() {
			t := target{ref.Alias, ref.Name}
			if ref.Kind == workflowlang.RefUse && !seen[t] {
				seen[t] = true
				targets = append(targets, t)
			}
		}
	}
	var out []NodeEstimate
	done := map[string]bool{}
	for _, t := range targets {
		f, inputs, err := ex.useInputs(ctx, t.alias)
		if err != nil {
			out = append(out, NodeEstimate{Node: t.alias + "." + t.node, Err: err})
			continue
		}
		sub, err := ex.r.Estimate(ctx, workflowlang.Check(f, ex.r.cfg.Env), Options{Target: Target{Node: t.node}, Inputs: inputs})
		if err != nil {
			out = append(out, NodeEstimate{Node: t.alias + "." + t.node, Err: err})
			continue
		}
		for _, ne := range sub.Nodes {
			ne.Node = t.alias + "." + ne.Node
			if !done[ne.Node] {
				done[ne.Node] = true
				out = append(out, ne)
			}
		}
	}
	return out
}

// runnablePart plans every node of wf that can run on its own (its chain
// free of errors), and returns why the others cannot.
func runnablePart(wf *workflowlang.Result) (*Plan, map[string]error) {
	broken := map[string]error{}
	in := map[string]bool{}
	p := &Plan{Deps: map[string][]string{}, Requested: map[string]bool{}}
	for _, n := range wf.File.Nodes {
		name := n.Name.Name
		if name == "" {
			continue
		}
		np, err := NewPlan(wf, Target{Node: name})
		if err != nil {
			broken[name] = err
			continue
		}
		for _, m := range np.Order {
			in[m] = true
			p.Deps[m] = np.Deps[m]
		}
		p.Requested[name] = true
	}
	for _, m := range wf.Order {
		if in[m] {
			p.Order = append(p.Order, m)
		}
	}
	return p, broken
}

// standIn is text of n tokens in every tokeniser in use (" x" is one
// token in cl100k_base and o200k_base), for an output not produced yet.
func standIn(n int) string {
	if n <= 0 {
		n = AssumedOutput
	}
	return strings.Repeat(" x", n)
}

func (ex *execution) estimateNode(ctx context.Context, name string) NodeEstimate {
	ne := NodeEstimate{Node: name, Priced: true}
	h := ex.r.cfg.History
	n := ex.wf.File.Node(name)
	if st, err := h.Node(ex.wid, name); err == nil && st.Frozen > 0 {
		ne.Reuse = "frozen"
		return ne
	}
	for _, d := range ex.plan.Deps[name] {
		for _, a := range ex.assumed {
			if a == d {
				ne.Notes = append(ne.Notes, fmt.Sprintf("%s has no output yet: %d tokens assumed for it", d, len(ex.outputs[d])/2))
			}
		}
	}
	p, inj, msgs, err := ex.prompt(ctx, n)
	if err != nil {
		ne.Err = err
		return ne
	}
	_ = inj
	if fb := ex.opts.Feedback[name]; fb != "" {
		msgs = withFeedback(msgs, fb)
	}
	ne.Input = PromptTokens(p, msgs)
	out, assumed := maxOutput(p)
	ne.MaxOutput = out
	if assumed {
		ne.Notes = append(ne.Notes, fmt.Sprintf("max_tokens is not set: %d output tokens assumed a call", AssumedOutput))
	}
	add := func(step string, cp Params, in, out int) {
		c := CallEstimate{Step: step, ModelName: cp.ModelName, Model: cp.Model, Input: in, MaxOutput: out}
		if pr, ok := ex.r.price(cp); ok {
			c.Cost = pr.Cost(in, out)
		} else {
			ne.Priced = false
		}
		ne.Calls = append(ne.Calls, c)
		ne.TotalInput += in
		ne.TotalOutput += out
		ne.Cost += c.Cost
	}
	useCache := !(ex.opts.Force && ex.plan.Requested[name]) && ex.opts.Feedback[name] == ""
	switch count, passes := attrInt(n, "candidates", 1), attrInt(n, "refine", 0); {
	case count > 1:
		gens := attrInt(n, "generations", 1)
		for g := 1; g <= gens; g++ {
			in := ne.Input
			if g > 1 {
				// The winner of the generation before is appended.
				in = PromptTokens(p, withFeedback(msgs, "Improve on this version, keeping what works in it:\n"+standIn(out)))
			}
			for k := 1; k <= count; k++ {
				add(fmt.Sprintf("generation %d candidate %d", g, k), p, in, out)
			}
		}
		if count*gens > 1 && useCache && ex.cachedAll(name, p, msgs, count) {
			ne.Reuse = "cached"
		}
	case passes > 0:
		add("draft", p, ne.Input, out)
		ap, err := ex.agentParams()
		if err != nil {
			ne.Err = err
			return ne
		}
		aout, _ := maxOutput(ap)
		draft := standIn(out)
		crit := []Message{{Role: "user", Content: ex.templatePrompt("self-critique",
			"Instructions:\n"+msgs[len(msgs)-1].Content+"\n\nFindings of the fact checks:\n(none)\n\nDraft:\n"+draft,
			"Review this draft against its instructions. List concrete problems only:\n{{in}}")}}
		rev := append([]Message(nil), msgs...)
		rev[len(rev)-1].Content += "\n\n" + ex.templatePrompt("revise",
			"Draft:\n"+draft+"\n\nCritique:\n"+standIn(aout),
			"Revise the draft to address the critique; keep what it does not mention.\n{{in}}")
		cin, rin := PromptTokens(ap, crit), PromptTokens(p, rev)
		for pass := 1; pass <= passes; pass++ {
			add(fmt.Sprintf("critique %d", pass), ap, cin, aout)
			add(fmt.Sprintf("revise %d", pass), p, rin, out)
		}
		ne.Notes = append(ne.Notes, fmt.Sprintf("refine = %d: every pass counted (the run stops at the first approved draft)", passes))
		if useCache {
			if _, ok := ex.cached(name, CacheKey(p, msgs)); ok {
				ne.Reuse = "cached"
			}
		}
	default:
		add("prompt", p, ne.Input, out)
		if useCache {
			if _, ok := ex.cached(name, CacheKey(p, msgs)); ok {
				ne.Reuse = "cached"
			}
		}
	}
	return ne
}

// cachedAll reports whether the first generation's candidates are all in
// the cache.
func (ex *execution) cachedAll(name string, p Params, msgs []Message, count int) bool {
	for k := 1; k <= count; k++ {
		cp := p
		cp.Variant = fmt.Sprintf("g1-c%d", k)
		if _, ok := ex.cached(name, CacheKey(cp, msgs)); !ok {
			return false
		}
	}
	return true
}

// MaxCostError stops a run before a call that would take it past its
// max_cost. The run waits, resumable, for the author to raise the limit.
type MaxCostError struct {
	Node      string
	Estimated float64 // the refused call, at its input and max output
	Input     int
	MaxOutput int
	Spent     float64 // by the run before it
	MaxCost   float64
	// Earlier says the run had already stopped at another node.
	Earlier string
}

func (e *MaxCostError) Error() string {
	if e.Earlier != "" {
		return fmt.Sprintf("not started: the run stopped at max_cost before a call of %s", e.Earlier)
	}
	return fmt.Sprintf("max_cost %s reached: the next call of %s (%s tokens in, up to %s out) is estimated at %s and the run has spent %s; "+
		"stopped before it. Raise max_cost (flowcabal.toml or the workflow header) and resume the run",
		FormatCost(e.MaxCost), e.Node, groupDigits(e.Input), groupDigits(e.MaxOutput), FormatCost(e.Estimated), FormatCost(e.Spent))
}

// ErrMaxCost matches a *MaxCostError with errors.Is.
var ErrMaxCost = errors.New("max_cost reached")

// Is makes errors.Is(err, ErrMaxCost) true.
func (e *MaxCostError) Is(target error) bool { return target == ErrMaxCost }

// FormatCost renders an amount in the prices' currency.
func FormatCost(c float64) string {
	switch {
	case c == 0:
		return "$0"
	case c < 0.01:
		return fmt.Sprintf("$%.4f", c)
	default:
		return fmt.Sprintf("$%.2f", c)
	}
}

func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// maxCost is the run's limit: the run's option, else the workflow's
// max_cost, else the project's.
func (ex *execution) maxCost() float64 {
	if ex.opts.MaxCost > 0 {
		return ex.opts.MaxCost
	}
	if w := ex.wf.File.Workflow; w != nil {
		if a := w.Attr("max_cost"); a != nil {
			if v, ok := a.Value.(*workflowlang.NumberValue); ok && v.Value > 0 {
				return v.Value
			}
		}
	}
	return ex.r.cfg.MaxCost
}

// reserve admits a call of p with msgs under max_cost, holding its
// estimated cost (input and max output) until settle says what it cost.
func (ex *execution) reserve(node string, p Params, msgs []Message) (held float64, err error) {
	limit := ex.maxCost()
	if limit <= 0 {
		return 0, nil
	}
	pr, ok := ex.r.price(p)
	if !ok {
		return 0, nil // tokens only: nothing to hold against the limit
	}
	in := PromptTokens(p, msgs)
	out, _ := maxOutput(p)
	est := pr.Cost(in, out)
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.stoppedAt != "" {
		return 0, &MaxCostError{Node: node, Earlier: ex.stoppedAt, MaxCost: limit}
	}
	if ex.spent+ex.held+est > limit {
		ex.stoppedAt = node
		return 0, &MaxCostError{Node: node, Estimated: est, Input: in, MaxOutput: out, Spent: ex.spent + ex.held, MaxCost: limit}
	}
	ex.held += est
	return est, nil
}

// settle releases a call's hold and adds what it cost.
func (ex *execution) settle(p Params, held float64, u store.Usage) {
	cost := 0.0
	if pr, ok := ex.r.price(p); ok {
		cost = pr.Cost(u.PromptTokens, u.CompletionTokens)
	}
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.held -= held
	ex.spent += cost
	d := ex.data()
	d.Spent = ex.spent
	ex.setData(d)
}

// logReader is what a History that keeps the agent log offers: a resumed
// run counts what it spent before from there, where every call was
// recorded as it returned, even when the run was killed before its
// checkpoint caught up.
type logReader interface {
	Log(q store.LogQuery) ([]store.LogEntry, error)
}

// spentBefore is what the run spent on its own calls before it was
// resumed.
func (ex *execution) spentBefore() float64 {
	spent := ex.data().Spent
	lr, ok := ex.r.cfg.History.(logReader)
	if !ok || ex.r.cfg.Price == nil {
		return spent
	}
	entries, err := lr.Log(store.LogQuery{Role: "writer"})
	if err != nil {
		return spent
	}
	logged := 0.0
	for _, e := range entries {
		if e.WorkflowRun != ex.cp.RunID {
			continue
		}
		if pr, ok := ex.r.cfg.Price(e.Agent, e.Model); ok {
			logged += pr.Cost(e.TokensIn, e.TokensOut)
		}
	}
	return max(spent, logged)
}

// chapterOf is the chapter a node writes, for cost reports: Role A's
// (from the injection's provenance), else its persist target's.
func chapterOf(n *workflowlang.Node, inj Injection) int {
	if len(inj.Provenance) > 0 {
		var c struct {
			Chapter int `json:"chapter"`
		}
		if json.Unmarshal(inj.Provenance, &c) == nil && c.Chapter > 0 {
			return c.Chapter
		}
	}
	if a := n.Attr("persist"); a != nil {
		if ch, ok := knowledge.ChapterNumber(valueText(a.Value)); ok {
			return ch
		}
	}
	return 0
}
