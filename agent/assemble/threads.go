package assemble

import (
	"fmt"

	"github.com/flowcabal/flowcabal/knowledge"
)

// dueThread is an open plot thread the chapter being written must keep
// in view.
type dueThread struct {
	path   string
	prio   float64
	reason string
}

// dueThreads lists the plot threads open as of the chapter being written
// that are due within the window, or overdue: a thread planted in
// chapter 20 that must pay off by chapter 200 is in the context of the
// chapters that lead up to its payoff, whether the prompt names it or
// not. The nearest due comes first; all rank below the entities the
// author marked "always" and above those the prompt names.
func (a *assembly) dueThreads(ents []*Entity) []dueThread {
	if a.chapter <= 0 {
		return nil // no chapter: nothing is due
	}
	var out []dueThread
	for _, e := range ents {
		d := e.Decl
		if !d.IsThread() || d.Due == 0 {
			continue
		}
		reason := fmt.Sprintf("thread due by chapter %d", d.Due)
		switch d.ThreadStateAt(a.chapter, a.threadWindow) {
		case knowledge.ThreadDueSoon:
		case knowledge.ThreadOverdue:
			reason += " (overdue)"
		default:
			continue
		}
		// 250 down to 240 over the next hundred chapters.
		out = append(out, dueThread{path: e.Path, prio: 250 - float64(d.Due-a.chapter)/10, reason: reason})
	}
	return out
}
