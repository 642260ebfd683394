package session

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/summarize"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// estimateTTL bounds how long an estimate is reused for an unchanged
// workflow: long enough that the lenses of one screen share one, short
// enough that a run made from a terminal shows soon.
const estimateTTL = 5 * time.Second

type estimateEntry struct {
	key  [32]byte
	at   time.Time
	est  *runner.Estimate
	err  error
	done chan struct{} // closed once est and err are set
	// prev is the estimate made before this one, shown while this one is
	// being made; samePrev says it was made for the same state, only
	// longer ago than estimateTTL.
	prev     *runner.Estimate
	samePrev bool
}

func (e *estimateEntry) fresh(key [32]byte) bool {
	return e != nil && e.key == key && time.Since(e.at) < estimateTTL
}

func (e *estimateEntry) ready() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// estimates caches the latest estimate of each workflow file.
type estimates struct {
	mu sync.Mutex
	m  map[string]*estimateEntry
}

// entry returns the estimate of wf for its current state, starting it
// when there is none; started says this call started it.
func (s *Session) entry(wf *workflowlang.Result) (e *estimateEntry, started bool) {
	key := s.estimateKey(wf)
	s.est.mu.Lock()
	defer s.est.mu.Unlock()
	if s.est.m == nil {
		s.est.m = map[string]*estimateEntry{}
	}
	old := s.est.m[wf.File.Path]
	if old.fresh(key) {
		return old, false
	}
	e = &estimateEntry{key: key, at: time.Now(), done: make(chan struct{})}
	if old != nil {
		e.prev = old.prev
		if old.ready() && old.err == nil {
			e.prev, e.samePrev = old.est, old.key == key
		}
	}
	s.est.m[wf.File.Path] = e
	return e, true
}

// Estimate says what running the whole of wf now would send to the models
// and cost, node by node (runner.Estimate): each node's prompt built as a
// run builds it, from the current outputs, Role A's context and the
// project's knowledge. It calls no model and writes nothing; without a
// store yet, knowledge is read from the files as a first run would.
func (s *Session) Estimate(wf *workflowlang.Result) (*runner.Estimate, error) {
	e, started := s.entry(wf)
	if started {
		s.made(e, wf)
	}
	<-e.done
	return e.est, e.err
}

// EstimateAsync is Estimate for the lenses, which must answer at once:
// when the estimate of wf's current state is made, it returns it (ok);
// else it has it made in the background, calling ready once it is, and
// returns the estimate made before, for an earlier state (nil if none).
func (s *Session) EstimateAsync(wf *workflowlang.Result, ready func()) (est *runner.Estimate, ok bool) {
	e, started := s.entry(wf)
	if started {
		s.estimating.Add(1)
		go func() {
			defer s.estimating.Done()
			s.made(e, wf)
			if ready != nil {
				ready()
			}
		}()
	}
	if e.ready() {
		return e.est, e.err == nil
	}
	if !started && ready != nil {
		// Being made for someone else (a workflow just opened): this
		// caller is told too once it is.
		s.estimating.Add(1)
		go func() {
			defer s.estimating.Done()
			<-e.done
			ready()
		}()
	}
	return e.prev, e.samePrev
}

// made makes e's estimate. Its age counts from when it is made, so that
// an estimate slower than estimateTTL is not made again and again.
func (s *Session) made(e *estimateEntry, wf *workflowlang.Result) {
	est, err := s.estimate(wf)
	s.est.mu.Lock()
	e.at = time.Now()
	s.est.mu.Unlock()
	e.est, e.err = est, err
	close(e.done)
}

// estimateKey identifies what an estimate reads: the workflow's text,
// the knowledge files and flowcabal.toml, and the runs made in this
// session.
func (s *Session) estimateKey(wf *workflowlang.Result) [32]byte {
	h := sha256.New()
	h.Write(wf.File.Src)
	printed := s.fp.of(s.root)
	h.Write(printed[:])
	s.mu.Lock()
	gen := s.finished
	s.mu.Unlock()
	h.Write([]byte{byte(gen), byte(gen >> 8), byte(gen >> 16), byte(gen >> 24)})
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func (s *Session) estimate(wf *workflowlang.Result) (*runner.Estimate, error) {
	cfg, err := project.LoadConfig(s.root)
	if err != nil {
		return nil, err
	}
	snap, fk, kp, err := s.knowledge()
	if err != nil {
		return nil, err
	}
	s.kmu.Lock()
	emb, vecs := s.emb, s.vecs
	if s.snap != snap {
		vecs = nil
	}
	s.kmu.Unlock()
	o := runner.ProjectOptions{Getenv: s.opts.Getenv, Overrides: s.opts.Overrides, Offline: true,
		Known: &runner.Known{Snapshot: snap, Facts: fk, Project: kp, Embedding: emb, Vectors: vecs, Contexts: s.contextMemo(snap)}}
	st, done := s.reader()
	if st == nil {
		// No store yet: a first run would index the files and, its levels
		// pending, summarise them on the spot, as FileKnowledge does.
		tc := textsearch.NewCounter(cfg.Models["writer"].Model)
		o.History = runner.NoHistory{}
		o.Knowledge = runner.FileKnowledge{Project: kp, Summarizer: summarize.New(textsearch.NewAnalyzer(textsearch.NewFolder()), tc)}
	} else {
		defer done()
	}
	r, err := runner.ForProject(context.Background(), s.root, cfg, st, o)
	if err != nil {
		return nil, err
	}
	return r.Estimate(context.Background(), wf, runner.Options{})
}

// Spend is what the model calls of a node's latest run cost, its Role C
// checks included.
type Spend struct {
	RunID         string
	Calls         int
	Input, Output int
	Cost          float64
	// Priced says every call had a price.
	Priced bool
}

// NodeSpend reads from the agent log what the latest run of wf that ran
// node spent on it. ok is false when no run recorded a call for it.
func (s *Session) NodeSpend(wf *workflowlang.Result, node string) (sp Spend, ok bool) {
	st, done := s.reader()
	if st == nil {
		return sp, false
	}
	defer done()
	cfg, err := project.LoadConfig(s.root)
	if err != nil {
		return sp, false
	}
	wid := s.WorkflowID(wf.File.Path)
	runs, err := st.Runs(wid, false)
	if err != nil {
		return sp, false
	}
	for _, r := range runs {
		if nr, had := r.Nodes[node]; had && nr.Status != "cached" && nr.Status != "frozen" && nr.Status != "skipped" {
			sp.RunID = r.RunID
			break
		}
	}
	if sp.RunID == "" {
		return sp, false
	}
	entries, err := st.Log(store.LogQuery{Node: node})
	if err != nil {
		return sp, false
	}
	sp.Priced = true
	for _, e := range entries {
		if e.WorkflowRun != sp.RunID || e.Workflow != wid || e.Tool != "" || e.TokensIn+e.TokensOut == 0 {
			continue
		}
		sp.Calls++
		sp.Input += e.TokensIn
		sp.Output += e.TokensOut
		if p, ok := cfg.PriceOf(e.Agent, e.Model); ok {
			sp.Cost += p.Cost(e.TokensIn, e.TokensOut)
		} else {
			sp.Priced = false
		}
	}
	return sp, sp.Calls > 0
}
