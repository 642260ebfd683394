package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sourcegraph/conc/pool"
	bolt "go.etcd.io/bbolt"
)

// TaskCurated is the kind of task Persist queues for each curation, so
// that semantic work that follows one (profile regeneration, relations)
// runs durably: a handler registered for it in Options.Tasks gets a
// CuratedTask payload.
const TaskCurated = "curated"

// Task is durable background work queued by other packages (Role A's
// profile regeneration, for one). A task is identified by kind and key:
// queuing the same kind and key again replaces the payload, so a task
// stands for "this needs doing", not for each time it was asked.
type Task struct {
	Kind     string          `json:"kind"`
	Key      string          `json:"key"`
	Payload  json.RawMessage `json:"payload,omitempty"`
	Enqueued time.Time       `json:"enqueued"`
	Attempts int             `json:"attempts,omitempty"`
	// LastError is the handler's last failure; after maxTaskAttempts the
	// task stays queued but is not retried until queued again.
	LastError string `json:"last_error,omitempty"`
	// NotBefore is when a failed task may be tried again: an endpoint that
	// just failed is not asked again at the next wake (which may come at
	// once, from the failing handler's own writes).
	NotBefore time.Time `json:"not_before,omitzero"`
}

// DefaultTaskRetry is the first wait before a failed task is retried.
const DefaultTaskRetry = 5 * time.Second

// retryDelay is the wait after a task's attempts-th failure.
func (s *Store) retryDelay(attempts int) time.Duration {
	d := s.opts.TaskRetry
	if d < 0 {
		return 0
	}
	if d == 0 {
		d = DefaultTaskRetry
	}
	return d << min(attempts-1, 10)
}

// nextRetry is when the earliest failed task that will be retried is due;
// zero when there is none.
func (s *Store) nextRetry() time.Time {
	tasks, err := s.Tasks("")
	if err != nil {
		return time.Time{}
	}
	var next time.Time
	for _, t := range tasks {
		if s.opts.Tasks[t.Kind] == nil || t.Attempts >= maxTaskAttempts || t.NotBefore.IsZero() {
			continue
		}
		if next.IsZero() || t.NotBefore.Before(next) {
			next = t.NotBefore
		}
	}
	return next
}

// CuratedTask is the payload of a TaskCurated task.
type CuratedTask struct {
	Target  string `json:"target"`
	File    string `json:"file"`
	Hash    string `json:"hash"`
	Version int    `json:"version"`
}

// TaskHandler does one task. It must be idempotent: a crash after it
// finished but before the task was removed runs it again.
type TaskHandler func(ctx context.Context, s *Store, t Task) error

// maxTaskAttempts bounds the retries of a failing task.
const maxTaskAttempts = 5

func taskKey(kind, key string) string { return joinKey(kind, key) }

// Enqueue queues a task; it returns once the task is durable.
func (s *Store) Enqueue(ctx context.Context, kind, key string, payload any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if kind == "" || key == "" || strings.ContainsRune(kind+key, 0) {
		return fmt.Errorf("enqueue: kind and key are required")
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("enqueue %s %s: %w", kind, key, err)
	}
	err = s.update(func(tx *bolt.Tx) error { return putTask(tx, kind, key, data) })
	if err != nil {
		return fmt.Errorf("enqueue %s %s: %w", kind, key, err)
	}
	s.notify()
	return nil
}

func putTask(tx *bolt.Tx, kind, key string, payload []byte) error {
	t := Task{Kind: kind, Key: key, Payload: payload, Enqueued: time.Now().UTC()}
	return putJSON(tx.Bucket(bTasks), taskKey(kind, key), t)
}

// Tasks returns the queued tasks of a kind ("" for all), by kind and key.
func (s *Store) Tasks(kind string) ([]Task, error) {
	var out []Task
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bTasks).ForEach(func(k, v []byte) error {
			var t Task
			if err := unmarshal(v, &t); err != nil {
				return err
			}
			if kind == "" || t.Kind == kind {
				out = append(out, t)
			}
			return nil
		})
	})
	return out, err
}

// runTasks runs the queued tasks that have a handler, at most
// Options.Concurrency at once, and returns how many finished.
func (s *Store) runTasks(ctx context.Context) (int, error) {
	if len(s.opts.Tasks) == 0 {
		return 0, nil
	}
	tasks, err := s.Tasks("")
	if err != nil {
		return 0, err
	}
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].Enqueued.Before(tasks[j].Enqueued) })
	done := make([]bool, len(tasks))
	p := pool.New().WithContext(ctx).WithMaxGoroutines(s.opts.Concurrency)
	for i, t := range tasks {
		h := s.opts.Tasks[t.Kind]
		if h == nil || t.Attempts >= maxTaskAttempts || time.Now().Before(t.NotBefore) {
			continue
		}
		p.Go(func(ctx context.Context) error {
			herr := h(ctx, s, t)
			if herr != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			return s.update(func(tx *bolt.Tx) error {
				b := tx.Bucket(bTasks)
				var cur Task
				ok, err := getJSON(b, taskKey(t.Kind, t.Key), &cur)
				if err != nil || !ok {
					return err
				}
				if !cur.Enqueued.Equal(t.Enqueued) || string(cur.Payload) != string(t.Payload) {
					return nil // queued again meanwhile: run it again
				}
				if herr != nil {
					s.log.Warn("task failed", "kind", t.Kind, "key", t.Key, "attempt", cur.Attempts+1, "err", herr)
					cur.Attempts++
					cur.LastError = s.clean(herr.Error())
					cur.NotBefore = time.Now().UTC().Add(s.retryDelay(cur.Attempts))
					return putJSON(b, taskKey(t.Kind, t.Key), cur)
				}
				done[i] = true
				return b.Delete([]byte(taskKey(t.Kind, t.Key)))
			})
		})
	}
	err = p.Wait()
	n := 0
	for _, d := range done {
		if d {
			n++
		}
	}
	return n, err
}
