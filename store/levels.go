package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sourcegraph/conc/pool"
	bolt "go.etcd.io/bbolt"
)

// Levels are the derived views of one content: L0 (one sentence, under 50
// tokens) and L1 (an overview of 200–500 tokens). L2 is the text itself.
type Levels struct {
	Hash string `json:"hash"`
	L0   string `json:"l0"`
	L1   string `json:"l1"`
	// Extractive marks levels made of sentences picked from the text, not
	// written by a model.
	Extractive bool      `json:"extractive"`
	Model      string    `json:"model,omitempty"`
	At         time.Time `json:"at"`
}

// SummaryRequest is the text a Summarizer condenses.
type SummaryRequest struct {
	// Path is the resource path, or "arc-N" for an arc.
	Path string
	// Kind is the resource kind (KindChapter, "character", KindArc…).
	Kind  string
	Title string
	// Text is the whole text: an arc's is its chapters', one after the
	// other, each under a "# title" line.
	Text string
	// Parts are an arc's chapters with their current L1 (empty when a
	// chapter has none yet), for a model that summarises the arc from
	// its chapters' overviews rather than from the whole text.
	Parts []SummaryPart
}

// SummaryPart is one chapter of an arc.
type SummaryPart struct {
	Path, Title, L1 string
}

// Summary is what a Summarizer returns.
type Summary struct {
	L0, L1     string
	Extractive bool
	// Model names the model that wrote the summary, if any.
	Model string
}

// Summarizer writes L0/L1. The agent LLM implements it when configured;
// Extractive is the fallback. Implementations must be safe for
// concurrent use.
type Summarizer interface {
	Summarize(ctx context.Context, req SummaryRequest) (Summary, error)
}

// Job kinds.
const (
	JobResource = "resource"
	JobArc      = "arc"
)

// Job is one unit of summary work in the durable queue, keyed by the hash
// of the content to summarise, so that equal contents are summarised once.
type Job struct {
	Hash string `json:"hash"`
	Kind string `json:"kind"`
	// Arc is the arc number of an arc job.
	Arc       int       `json:"arc,omitempty"`
	Enqueued  time.Time `json:"enqueued"`
	Attempts  int       `json:"attempts,omitempty"`
	LastError string    `json:"last_error,omitempty"`
}

// maxAttempts is how often a Summarizer may fail on one job before the
// extractive summary is used instead.
const maxAttempts = 3

func enqueue(tx *bolt.Tx, j Job) error {
	b := tx.Bucket(bQueue)
	if b.Get([]byte(j.Hash)) != nil {
		return nil
	}
	if j.Enqueued.IsZero() {
		j.Enqueued = time.Now().UTC()
	}
	return putJSON(b, j.Hash, j)
}

// Queue returns the pending summary jobs, by content hash.
func (s *Store) Queue() ([]Job, error) {
	var out []Job
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bQueue).ForEach(func(k, v []byte) error {
			var j Job
			if err := unmarshal(v, &j); err != nil {
				return err
			}
			out = append(out, j)
			return nil
		})
	})
	return out, err
}

func (s *Store) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Work runs the summary queue until ctx ends: it drains the queue, then
// waits for indexing or curation to add jobs. The server runs it in the
// background; a killed process resumes the queue on the next Work.
func (s *Store) Work(ctx context.Context) error {
	for {
		if _, err := s.Drain(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("summary queue", "err", err)
		}
		// Retry failed jobs now and then, and failed tasks when due.
		wait := time.Minute
		if next := s.nextRetry(); !next.IsZero() {
			wait = max(min(wait, time.Until(next)), 10*time.Millisecond)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-s.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// Drain runs the queued summary jobs, at most Options.Concurrency at once,
// until the queue is empty, then the queued tasks that have a handler
// (one pass), and returns how many jobs and tasks it completed. Results
// are committed in batches (one sync for many jobs), each job's levels
// durable before it counts as done.
func (s *Store) Drain(ctx context.Context) (int, error) {
	if s.readOnly {
		return 0, ErrReadOnly
	}
	done := 0
	for round := 0; ; round++ {
		jobs, err := s.Queue()
		if err != nil {
			return done, err
		}
		if len(jobs) == 0 {
			// Then the tasks of other packages, which may read the levels.
			n, err := s.runTasks(ctx)
			return done + n, err
		}
		// Chapters before arcs, so that an arc's request carries its
		// chapters' current L1.
		if res := slices.DeleteFunc(slices.Clone(jobs), func(j Job) bool { return j.Kind == JobArc }); len(res) > 0 {
			jobs = res
		}
		outcomes := make(chan jobOutcome, 256)
		committed := make(chan commitResult, 1)
		go func() { committed <- s.commitOutcomes(outcomes) }()
		p := pool.New().WithContext(ctx).WithMaxGoroutines(s.opts.Concurrency)
		for _, j := range jobs {
			p.Go(func(ctx context.Context) error {
				o, err := s.runJob(ctx, j)
				if err != nil {
					return err
				}
				outcomes <- o
				return nil
			})
		}
		err = p.Wait()
		close(outcomes)
		res := <-committed
		done += res.progressed
		if res.err != nil {
			return done, res.err
		}
		if err != nil {
			return done, err
		}
		if ctx.Err() != nil {
			return done, ctx.Err()
		}
		if res.progressed == 0 && round > maxAttempts+1 {
			return done, fmt.Errorf("summary queue: %d jobs make no progress", len(jobs))
		}
	}
}

// jobOutcome is what became of one job, to be committed.
type jobOutcome struct {
	job    Job
	drop   bool   // nothing holds the content any more
	failed string // the Summarizer's error
	levels Levels
}

type commitResult struct {
	progressed int
	err        error
}

// commitOutcomes writes outcomes as they come, as many per transaction as
// have arrived while the previous one was syncing.
func (s *Store) commitOutcomes(in <-chan jobOutcome) commitResult {
	var res commitResult
	for o := range in {
		batch := []jobOutcome{o}
	gather:
		for len(batch) < 512 {
			select {
			case o, ok := <-in:
				if !ok {
					break gather
				}
				batch = append(batch, o)
			default:
				break gather
			}
		}
		if res.err != nil {
			continue // keep draining so that workers never block
		}
		err := s.update(func(tx *bolt.Tx) error {
			q := tx.Bucket(bQueue)
			for _, o := range batch {
				switch {
				case o.drop:
					if err := q.Delete([]byte(o.job.Hash)); err != nil {
						return err
					}
				case o.failed != "":
					var cur Job
					if ok, err := getJSON(q, o.job.Hash, &cur); err != nil {
						return err
					} else if !ok {
						continue
					}
					cur.Attempts++
					cur.LastError = o.failed
					if err := putJSON(q, o.job.Hash, cur); err != nil {
						return err
					}
				default:
					if err := putJSON(tx.Bucket(bLevels), o.job.Hash, o.levels); err != nil {
						return err
					}
					if err := q.Delete([]byte(o.job.Hash)); err != nil {
						return err
					}
					if err := s.markLevels(tx, o.job); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			res.err = fmt.Errorf("summary queue: %w", err)
			continue
		}
		for _, o := range batch {
			if o.failed == "" {
				res.progressed++
				if !o.drop && s.opts.jobDone != nil {
					s.opts.jobDone(o.job)
				}
			}
		}
	}
	return res
}

// runJob does one job's work, writing nothing itself.
func (s *Store) runJob(ctx context.Context, j Job) (jobOutcome, error) {
	req, ok, err := s.jobRequest(ctx, j)
	if err != nil {
		return jobOutcome{}, err
	}
	if !ok {
		return jobOutcome{job: j, drop: true}, nil
	}
	sum, serr := s.summarize(ctx, req, j.Attempts)
	if serr != nil {
		if ctx.Err() != nil {
			return jobOutcome{}, ctx.Err()
		}
		s.log.Warn("summary failed", "path", req.Path, "attempt", j.Attempts+1, "err", serr)
		return jobOutcome{job: j, failed: s.clean(serr.Error())}, nil
	}
	lv := Levels{Hash: j.Hash, L0: s.clean(sum.L0), L1: s.clean(sum.L1), Extractive: sum.Extractive, Model: sum.Model, At: time.Now().UTC()}
	return jobOutcome{job: j, levels: lv}, nil
}

// summarize asks the configured Summarizer, falling back to the extractive
// one when there is none or it has failed maxAttempts times.
func (s *Store) summarize(ctx context.Context, req SummaryRequest, attempts int) (Summary, error) {
	if s.opts.Summarizer != nil && attempts < maxAttempts {
		sum, err := s.opts.Summarizer.Summarize(ctx, req)
		if err == nil && strings.TrimSpace(sum.L0) != "" {
			return sum, nil
		}
		if err == nil {
			err = errors.New("summarizer returned an empty L0")
		}
		return Summary{}, err
	}
	return s.extractive().Summarize(ctx, req)
}

// markLevels points every holder of the job's content at its new levels.
func (s *Store) markLevels(tx *bolt.Tx, j Job) error {
	if j.Kind == JobArc {
		b := tx.Bucket(bArcs)
		arcs := map[string]Arc{}
		if err := b.ForEach(func(k, v []byte) error {
			var a Arc
			if err := unmarshal(v, &a); err != nil {
				return err
			}
			if a.Hash == j.Hash {
				arcs[string(k)] = a
			}
			return nil
		}); err != nil {
			return err
		}
		for k, a := range arcs {
			a.LevelHash = j.Hash
			if err := putJSON(b, k, a); err != nil {
				return err
			}
		}
		return nil
	}
	res := tx.Bucket(bResources)
	for _, p := range holders(tx, j.Hash) {
		var r Resource
		if ok, err := getJSON(res, p, &r); err != nil || !ok {
			return err
		}
		r.LevelHash = j.Hash
		if err := putJSON(res, p, r); err != nil {
			return err
		}
	}
	return nil
}

// holders lists the resource paths whose content has hash h.
func holders(tx *bolt.Tx, h string) []string {
	prefix := h + "\x00"
	var out []string
	c := tx.Bucket(bByHash).Cursor()
	for k, _ := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, _ = c.Next() {
		out = append(out, strings.TrimPrefix(string(k), prefix))
	}
	return out
}

// jobRequest builds the text of a job; ok is false when no resource or
// arc holds the job's content any more. A file that changed on disk since
// it was indexed is re-indexed first, so that the job is judged against
// the files as they are (and the changed content gets its own job).
func (s *Store) jobRequest(ctx context.Context, j Job) (SummaryRequest, bool, error) {
	for attempt := 0; attempt < 3; attempt++ {
		req, ok, changed, err := s.tryJobRequest(j)
		if err != nil || ok || len(changed) == 0 {
			return req, ok, err
		}
		if _, err := s.Reindex(ctx, changed...); err != nil {
			return req, false, err
		}
	}
	// The files keep changing under us: try again on a later drain.
	return SummaryRequest{}, false, fmt.Errorf("summary of %.12s: its files keep changing", j.Hash)
}

// tryJobRequest returns the job's text, or the files that changed on disk
// since they were indexed.
func (s *Store) tryJobRequest(j Job) (req SummaryRequest, ok bool, changed []string, err error) {
	if j.Kind == JobArc {
		var a Arc
		var found bool
		if err := s.view(func(tx *bolt.Tx) error {
			// By content, not number: arcs are renumbered as files change.
			return tx.Bucket(bArcs).ForEach(func(k, v []byte) error {
				var x Arc
				if err := unmarshal(v, &x); err != nil {
					return err
				}
				if x.Hash == j.Hash && !found {
					a, found = x, true
				}
				return nil
			})
		}); err != nil {
			return req, false, nil, err
		}
		if !found {
			return req, false, nil, nil
		}
		var sb strings.Builder
		var parts []SummaryPart
		for _, p := range a.Chapters {
			r, err := s.Resource(p)
			if err != nil {
				return req, false, nil, err
			}
			body, h, err := s.readBody(r.File)
			if err != nil || h != r.Hash {
				changed = append(changed, r.File)
				continue
			}
			fmt.Fprintf(&sb, "# %s\n\n%s\n\n", r.Title, body)
			part := SummaryPart{Path: r.Path, Title: r.Title}
			if lv, err := s.levelFrom(LevelText{Level: 1}, r.Hash, ""); err == nil && !lv.Pending {
				part.L1 = lv.Text
			}
			parts = append(parts, part)
		}
		if len(changed) > 0 {
			return req, false, changed, nil
		}
		return SummaryRequest{Path: fmt.Sprintf("arc-%d", a.N), Kind: KindArc, Title: fmt.Sprintf("Chapters %d–%d", a.From, a.To), Text: sb.String(), Parts: parts}, true, nil, nil
	}
	var paths []string
	if err := s.view(func(tx *bolt.Tx) error { paths = holders(tx, j.Hash); return nil }); err != nil {
		return req, false, nil, err
	}
	for _, p := range paths {
		r, err := s.Resource(p)
		if err != nil {
			return req, false, nil, err
		}
		body, h, err := s.readBody(r.File)
		if err != nil || h != j.Hash {
			changed = append(changed, r.File)
			continue
		}
		return SummaryRequest{Path: r.Path, Kind: r.Kind, Title: r.Title, Text: body}, true, nil, nil
	}
	return req, false, changed, nil
}

// LevelText is one level of a resource as served.
type LevelText struct {
	Path  string `json:"path"`
	Level int    `json:"level"`
	Text  string `json:"text"`
	// Extractive marks text picked from the source, not written by a model.
	Extractive bool `json:"extractive,omitempty"`
	// Stale is set when Text belongs to an earlier content of the
	// resource: the current level is being produced.
	Stale bool `json:"stale,omitempty"`
	// Pending is set when the current level is queued or being produced.
	Pending bool `json:"pending,omitempty"`
	// Hash is the content hash Text belongs to.
	Hash string `json:"hash"`
}

// Level returns level 0, 1 or 2 of a resource. L2 is the file's text as
// it is now. L0 and L1 are served current when they exist for the
// resource's indexed content; otherwise the previous content's, marked
// Stale, or empty, and always marked Pending.
func (s *Store) Level(p string, level int) (LevelText, error) {
	r, err := s.Resource(p)
	if err != nil {
		return LevelText{}, err
	}
	out := LevelText{Path: r.Path, Level: level}
	switch level {
	case 2:
		body, h, err := s.readBody(r.File)
		if err != nil {
			return out, err
		}
		out.Text, out.Hash, out.Stale = body, h, h != r.Hash
		return out, nil
	case 0, 1:
	default:
		return out, fmt.Errorf("level %d of %s: levels are 0, 1 and 2", level, r.Path)
	}
	if !summarizable(r) {
		// No text (or a file that could not be read): nothing to wait for.
		out.Hash = r.Hash
		return out, nil
	}
	return s.levelFrom(out, r.Hash, r.LevelHash)
}

// ArcLevel returns level 0 or 1 of arc n, as Level does for resources.
func (s *Store) ArcLevel(n, level int) (LevelText, error) {
	if level != 0 && level != 1 {
		return LevelText{}, fmt.Errorf("level %d of arc %d: arcs have levels 0 and 1", level, n)
	}
	var a Arc
	if err := s.view(func(tx *bolt.Tx) error {
		ok, err := getJSON(tx.Bucket(bArcs), fmt.Sprintf("%06d", n), &a)
		if err == nil && !ok {
			err = fmt.Errorf("arc %d: %w", n, ErrNotFound)
		}
		return err
	}); err != nil {
		return LevelText{}, err
	}
	return s.levelFrom(LevelText{Path: fmt.Sprintf("arc-%d", n), Level: level}, a.Hash, a.LevelHash)
}

func (s *Store) levelFrom(out LevelText, hash, levelHash string) (LevelText, error) {
	err := s.view(func(tx *bolt.Tx) error {
		var lv Levels
		ok, err := getJSON(tx.Bucket(bLevels), hash, &lv)
		if err != nil {
			return err
		}
		if !ok {
			out.Pending = true
			if levelHash == "" || levelHash == hash {
				return nil
			}
			ok, err = getJSON(tx.Bucket(bLevels), levelHash, &lv)
			if err != nil || !ok {
				return err
			}
			out.Stale = true
		}
		out.Hash, out.Extractive = lv.Hash, lv.Extractive
		out.Text = lv.L1
		if out.Level == 0 {
			out.Text = lv.L0
		}
		return nil
	})
	return out, err
}
