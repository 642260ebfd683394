package knowledge

import (
	"cmp"
	"fmt"
	"slices"
)

// DefaultThreadWindow is how many chapters ahead a plot thread counts as
// due soon when the project does not say (flowcabal.toml thread_window).
const DefaultThreadWindow = 5

// ThreadState is where a plot thread stands as of a chapter.
type ThreadState string

// The states of a thread as of a chapter.
const (
	ThreadResolved ThreadState = "resolved" // paid off at or before the chapter
	ThreadOverdue  ThreadState = "overdue"  // due before the chapter and not paid off by it
	ThreadDueSoon  ThreadState = "due soon" // due at the chapter or within the window after it
	ThreadOpen     ThreadState = "open"     // planted, due later (or never said)
	ThreadPlanned  ThreadState = "not yet opened"
)

// IsThread reports whether e is a plot thread: kind plot-thread, or
// declared under entities/plot-threads/.
func (e *Entity) IsThread() bool { return e.Kind == "plot-thread" }

// ThreadStateAt says where thread e stands as of chapter ch (the chapter
// being written), with window chapters of "due soon". A thread resolved
// in a chapter after ch is still open as of ch.
func (e *Entity) ThreadStateAt(ch, window int) ThreadState {
	if window <= 0 {
		window = DefaultThreadWindow
	}
	switch {
	case e.Resolved > 0 && e.Resolved <= ch:
		return ThreadResolved
	case e.Opened > ch:
		return ThreadPlanned
	case e.Due > 0 && e.Due < ch:
		return ThreadOverdue
	case e.Due > 0 && e.Due <= ch+window:
		return ThreadDueSoon
	}
	return ThreadOpen
}

// OpenedAt says where a thread was planted, for messages: "opened in
// chapter 3 (entities/plot-threads/x.md:6)".
func (e *Entity) OpenedAt() string {
	line := e.KeyLines["opened"]
	if e.Opened == 0 {
		return fmt.Sprintf("opened where %s:%d does not say", e.Path, max(line, 1))
	}
	return fmt.Sprintf("opened in chapter %d (%s:%d)", e.Opened, e.Path, line)
}

// Threads returns the project's plot threads, by due chapter (threads
// without one last), then path.
func (p *Project) Threads() []*Entity {
	var out []*Entity
	for _, e := range p.Entities {
		if e.IsThread() {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Entity) int {
		da, db := a.Due, b.Due
		if da == 0 {
			da = int(^uint(0) >> 1)
		}
		if db == 0 {
			db = int(^uint(0) >> 1)
		}
		if c := cmp.Compare(da, db); c != 0 {
			return c
		}
		return cmp.Compare(a.Path, b.Path)
	})
	return out
}

// Overdue returns the threads past due and not resolved as of chapter ch.
func Overdue(threads []*Entity, ch int) []*Entity {
	var out []*Entity
	for _, t := range threads {
		if t.ThreadStateAt(ch, 1) == ThreadOverdue {
			out = append(out, t)
		}
	}
	return out
}

// OverdueMessage is the warning for a thread overdue at chapter ch.
func OverdueMessage(t *Entity, ch int) string {
	return fmt.Sprintf("plot thread %q was due by chapter %d and is not resolved (chapter %d; %s)", t.Name, t.Due, ch, t.OpenedAt())
}
