package store

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestTasks(t *testing.T) {
	ctx := context.Background()
	root := copyProject(t, sampleProject)
	var mu sync.Mutex
	var got []CuratedTask
	failures := 0
	handlers := map[string]TaskHandler{
		TaskCurated: func(ctx context.Context, s *Store, task Task) error {
			var c CuratedTask
			if err := json.Unmarshal(task.Payload, &c); err != nil {
				return err
			}
			// The handler may read the store, the levels included.
			if _, err := s.Level(c.Target, 1); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			got = append(got, c)
			return nil
		},
		"always-fails": func(ctx context.Context, s *Store, task Task) error {
			mu.Lock()
			defer mu.Unlock()
			failures++
			return errors.New("no model")
		},
	}
	// Persist without handlers: the task waits, durable.
	s := openStore(t, root, Options{})
	s.Index(ctx, nil)
	res, err := s.Persist(ctx, "# Chapter 11\n\nText.\n", "manuscript/chapter-11", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Persist(ctx, "# Chapter 11\n\nText, revised.\n", "manuscript/chapter-11", nil)
	s.Enqueue(ctx, "unknown-kind", "k", map[string]int{"x": 1})
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	tasks, _ := s.Tasks(TaskCurated)
	if len(tasks) != 1 {
		t.Fatalf("curated tasks = %+v (one per target, the latest)", tasks)
	}
	s.Close()

	// Reopened with handlers: the curation task runs once, with the latest
	// version; a task of a kind nobody handles stays; a failing one is
	// retried a bounded number of times.
	s = openStore(t, root, Options{Tasks: handlers, TaskRetry: -1})
	if err := s.Enqueue(ctx, "always-fails", "x", nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < maxTaskAttempts+3; i++ {
		if _, err := s.Drain(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 1 || got[0].Target != "manuscript/chapter-11" || got[0].Version != res.Version+1 {
		t.Errorf("handled = %+v", got)
	}
	if failures != maxTaskAttempts {
		t.Errorf("failing task ran %d times, want %d", failures, maxTaskAttempts)
	}
	left, _ := s.Tasks("")
	if len(left) != 2 || left[0].Kind != "always-fails" || left[0].LastError != "no model" || left[1].Kind != "unknown-kind" {
		t.Errorf("tasks left = %+v", left)
	}
	if st, _ := s.Stats(); st.PendingTasks != 2 {
		t.Errorf("pending tasks = %d", st.PendingTasks)
	}
	if err := s.Enqueue(ctx, "", "k", nil); err == nil {
		t.Error("task without a kind accepted")
	}
}

// A failed task waits before it is tried again, longer after each
// failure; the background worker wakes for it when it is due.
func TestTaskRetryWaits(t *testing.T) {
	ctx := context.Background()
	root := copyProject(t, sampleProject)
	var mu sync.Mutex
	var calls []time.Time
	fail := true
	s := openStore(t, root, Options{TaskRetry: 150 * time.Millisecond, Tasks: map[string]TaskHandler{
		"flaky": func(ctx context.Context, s *Store, task Task) error {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, time.Now())
			if fail {
				fail = false
				return errors.New("endpoint down")
			}
			return nil
		},
	}})
	if err := s.Enqueue(ctx, "flaky", "k", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	// Drained again at once: not due yet.
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n := len(calls)
	mu.Unlock()
	if n != 1 {
		t.Fatalf("task ran %d times before its retry was due", n)
	}
	left, _ := s.Tasks("flaky")
	if len(left) != 1 || left[0].NotBefore.Sub(calls[0]) < 100*time.Millisecond {
		t.Fatalf("failed task = %+v, want a retry time after the failure", left)
	}
	// The worker retries it when due, without being woken.
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Work(wctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left, _ = s.Tasks("flaky")
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker did not retry the task when it was due")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 2 || calls[1].Sub(calls[0]) < 100*time.Millisecond {
		t.Errorf("calls at %v: want the second after the wait", calls)
	}
}
