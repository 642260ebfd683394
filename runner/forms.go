package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// This file holds the advanced node forms: recursive refinement
// (refine = N) and evolutionary candidates (candidates = N,
// generations = G, select = "auto" | "human").

// runData is what a run keeps in its checkpoint besides node states.
type runData struct {
	Target Target `json:"target"`
	// Evolve holds, per node, the winner chosen in each finished
	// generation (output versions), so that a resumed or decided run
	// continues from the right generation.
	Evolve map[string][]int `json:"evolve,omitempty"`
	// Spent is what the run's calls cost so far (see max_cost).
	Spent float64 `json:"spent,omitempty"`
}

func (ex *execution) data() runData {
	var d runData
	_ = json.Unmarshal(ex.cp.Data, &d)
	return d
}

func (ex *execution) setData(d runData) {
	b, _ := json.Marshal(d)
	ex.cp.Data = b
}

// step reports a step inside a node to the observer.
func (ex *execution) step(ctx context.Context, node, msg string) {
	if obs := ex.opts.Observer.Step; obs != nil && ex.startTold(ctx, node) {
		obs(node, msg)
	}
}

// record stores an output of node made from the prompt with key.
func (ex *execution) record(ctx context.Context, node, key string, p Params, r Reply) (store.Output, error) {
	ex.mu.Lock()
	b := ex.built[node]
	ex.mu.Unlock()
	o, err := ex.r.cfg.History.RecordOutput(ctx, store.Output{
		Workflow: ex.wid, Node: node, Text: r.Text, PromptHash: key,
		Model: r.Model, Usage: r.Usage, RunID: ex.cp.RunID, At: time.Now().UTC(),
		Provenance: b.provenance, Sources: b.sources, Params: paramsJSON(p),
	})
	if err != nil {
		return o, fmt.Errorf("record output of %s: %w", node, err)
	}
	return o, nil
}

// generate returns the output for msgs, from the cache when allowed.
func (ex *execution) generate(ctx context.Context, name string, p Params, msgs []Message, useCache bool) (store.Output, int, error) {
	key := CacheKey(p, msgs)
	if useCache {
		if o, ok := ex.cached(name, key); ok {
			return o, 0, nil
		}
	}
	reply, err := ex.call(ctx, name, p, msgs)
	if err != nil {
		return store.Output{}, 0, err
	}
	o, err := ex.record(ctx, name, key, p, reply)
	return o, reply.Usage.CompletionTokens, err
}

func (ex *execution) review(ctx context.Context, n *workflowlang.Node, text string, attempt int) Verdict {
	g := ex.r.cfg.Gate
	if g == nil {
		return Verdict{Decision: Approve}
	}
	v, err := g.Review(ctx, n, text, attempt)
	if err != nil {
		return Verdict{Decision: Flag, Feedback: "the checks could not run: " + err.Error()}
	}
	return v
}

// agentParams are the parameters of the agent model for the critique step.
func (ex *execution) agentParams() (Params, error) {
	if ex.r.cfg.ModelParams != nil {
		return ex.r.cfg.ModelParams("agent")
	}
	return Params{ModelName: "agent"}, nil
}

// templatePrompt returns the user prompt of a node template with its
// input marker replaced, falling back to def when the template base does
// not have it.
func (ex *execution) templatePrompt(id, in, def string) string {
	lib, err := ex.r.templates()
	if err == nil {
		if t := lib.Get(id); t != nil && t.User != "" {
			return strings.ReplaceAll(strings.TrimSpace(t.User), "{{in}}", in)
		}
	}
	return strings.ReplaceAll(def, "{{in}}", in)
}

// refine drafts, then while the gate does not approve, has the agent
// model critique the draft against the node's own instructions and the
// findings, and the writer revise it: at most passes revisions.
func (ex *execution) refine(ctx context.Context, n *workflowlang.Node, p Params, msgs []Message, passes int, res NodeResult) NodeResult {
	name := n.Name.Name
	useCache := !(ex.opts.Force && ex.plan.Requested[name])
	ex.step(ctx, name, "draft")
	cur, tok, err := ex.generate(ctx, name, p, msgs, useCache)
	if err != nil {
		return ex.ended(ctx, res, err)
	}
	res.Tokens += tok
	var history []string
	instructions := msgs[len(msgs)-1].Content
	for pass := 0; ; pass++ {
		res.Attempts = pass + 1
		res.Version, res.Output = cur.Version, cur.Text
		v := ex.review(ctx, n, cur.Text, pass+1)
		res.Verdict = &v
		if v.Decision == Approve {
			res.Status = "done"
			ex.writeOutputDoc(name, cur.Text+passesSection(history), fmt.Sprintf("approved v%d after %d pass(es)", cur.Version, pass))
			return res
		}
		if pass >= passes {
			res.Status = "flagged"
			if v.Feedback == "" {
				v.Feedback = fmt.Sprintf("still not approved after %d refinement passes (the depth limit)", passes)
			}
			ex.writeOutputDoc(name, cur.Text+passesSection(history), fmt.Sprintf("needs you v%d", cur.Version))
			return res
		}
		if err := ctx.Err(); err != nil {
			res.Status, res.Err = "cancelled", err
			return res
		}
		history = append(history, fmt.Sprintf("Pass %d · v%d", pass, cur.Version), cur.Text)
		ex.step(ctx, name, fmt.Sprintf("pass %d of %d: critique", pass+1, passes))
		ap, err := ex.agentParams()
		if err != nil {
			return fail(res, err)
		}
		ap.Node = name
		// Each pass is its own step: equal prompts in two passes must
		// still reach the model (the cache replays a resumed loop only).
		ap.Variant = fmt.Sprintf("critique-%d", pass+1)
		findings := strings.Join(v.Reasons, "\n")
		if findings == "" {
			findings = "(none)"
		}
		critMsgs := []Message{{Role: "user", Content: ex.templatePrompt("self-critique",
			"Instructions:\n"+instructions+"\n\nFindings of the fact checks:\n"+findings+"\n\nDraft:\n"+cur.Text,
			"Review this draft against its instructions. List concrete problems only:\n{{in}}")}}
		crit, tok, err := ex.generate(ctx, name+".critique", ap, critMsgs, useCache)
		if err != nil {
			return ex.ended(ctx, res, err)
		}
		res.Tokens += tok
		history = append(history, fmt.Sprintf("Critique of pass %d", pass), crit.Text)
		ex.step(ctx, name, fmt.Sprintf("pass %d of %d: revise", pass+1, passes))
		rev := append([]Message(nil), msgs...)
		rev[len(rev)-1].Content += "\n\n" + ex.templatePrompt("revise",
			"Draft:\n"+cur.Text+"\n\nCritique:\n"+crit.Text,
			"Revise the draft to address the critique; keep what it does not mention.\n{{in}}")
		rp := p
		rp.Variant = fmt.Sprintf("revise-%d", pass+1)
		next, tok, err := ex.generate(ctx, name, rp, rev, useCache)
		if err != nil {
			return ex.ended(ctx, res, err)
		}
		res.Tokens += tok
		cur = next
	}
}

// ended turns an error of a model call into the node's end: cancelled
// when the run is being cancelled, failed otherwise.
func (ex *execution) ended(ctx context.Context, res NodeResult, err error) NodeResult {
	if ctx.Err() != nil {
		res.Status, res.Err = "cancelled", ctx.Err()
		return res
	}
	return fail(res, err)
}

func passesSection(history []string) string {
	if len(history) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n---\n")
	for i := 0; i+1 < len(history); i += 2 {
		fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n%s\n\n</details>\n", history[i], history[i+1])
	}
	return b.String()
}

// candidate is one candidate of a generation.
type candidate struct {
	out   store.Output
	score int
	err   error
}

// evolve runs generations of n candidates each; the gate scores them (an
// approved candidate beats any other, then fewer findings win, then the
// earlier candidate), or the author picks with select = "human"; the
// winner seeds the next generation.
func (ex *execution) evolve(ctx context.Context, n *workflowlang.Node, p Params, msgs []Message, count, gens int, human bool, res NodeResult) NodeResult {
	name := n.Name.Name
	useCache := !(ex.opts.Force && ex.plan.Requested[name])
	ex.mu.Lock()
	winners := append([]int(nil), ex.data().Evolve[name]...)
	ex.mu.Unlock()
	var seed store.Output
	for g := 1; g <= gens; g++ {
		genMsgs := msgs
		if seed.Text != "" {
			genMsgs = withFeedback(msgs, "Improve on this version, keeping what works in it:\n"+seed.Text)
		}
		cands := make([]candidate, count)
		var wg conc.WaitGroup
		var mu sync.Mutex
		for k := range count {
			wg.Go(func() {
				ex.step(ctx, name, fmt.Sprintf("generation %d of %d, candidate %d of %d", g, gens, k+1, count))
				cp := p
				cp.Variant = fmt.Sprintf("g%d-c%d", g, k+1)
				o, tok, err := ex.generate(ctx, name, cp, genMsgs, useCache)
				c := candidate{out: o, err: err}
				if err == nil {
					v := ex.review(ctx, n, o.Text, 1)
					c.score = -len(v.Reasons)
					if v.Decision == Approve {
						c.score += 1000
					}
				}
				mu.Lock()
				cands[k] = c
				res.Tokens += tok
				mu.Unlock()
			})
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			res.Status, res.Err = "cancelled", err
			return res
		}
		for _, c := range cands {
			if c.err != nil {
				return fail(res, c.err)
			}
		}
		ex.writeOutputDoc(name, candidatesDoc(cands, g, gens), fmt.Sprintf("generation %d of %d", g, gens))
		var win *candidate
		if g <= len(winners) {
			for i := range cands {
				if cands[i].out.Version == winners[g-1] {
					win = &cands[i]
				}
			}
			if win == nil { // the author picked a version outside this generation
				o, err := ex.r.cfg.History.OutputVersion(ex.wid, name, winners[g-1])
				if err != nil {
					return fail(res, fmt.Errorf("the chosen version %d: %w", winners[g-1], err))
				}
				win = &candidate{out: o}
			}
		} else if human {
			versions := make([]string, len(cands))
			for i, c := range cands {
				versions[i] = fmt.Sprintf("v%d", c.out.Version)
			}
			res.Status = "flagged"
			res.Version, res.Output = cands[0].out.Version, cands[0].out.Text
			res.Verdict = &Verdict{Decision: Flag, Feedback: fmt.Sprintf("generation %d of %d: choose one of the candidates (%s)", g, gens, strings.Join(versions, ", "))}
			res.Select = versions
			return res
		} else {
			best := 0
			for i := range cands {
				if cands[i].score > cands[best].score {
					best = i
				}
			}
			win = &cands[best]
			winners = append(winners, win.out.Version)
			ex.mu.Lock()
			d := ex.data()
			if d.Evolve == nil {
				d.Evolve = map[string][]int{}
			}
			d.Evolve[name] = append([]int(nil), winners...)
			ex.setData(d)
			ex.mu.Unlock()
		}
		seed = win.out
	}
	res.Version, res.Output = seed.Version, seed.Text
	res.Attempts = gens
	v := ex.review(ctx, n, seed.Text, 1)
	res.Verdict = &v
	res.Status = "done"
	if v.Decision != Approve && !human {
		res.Status = "flagged"
	}
	ex.writeOutputDoc(name, seed.Text, fmt.Sprintf("kept v%d after %d generation(s)", seed.Version, gens))
	return res
}

func candidatesDoc(cands []candidate, g, gens int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Generation %d of %d\n", g, gens)
	for k, c := range cands {
		fmt.Fprintf(&b, "\n## Candidate %d · v%d\n\n%s\n", k+1, c.out.Version, c.out.Text)
	}
	return b.String()
}
