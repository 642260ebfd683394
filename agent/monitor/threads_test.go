package monitor

import (
	"context"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/knowledge"
)

func threadEntity(t *testing.T, path, front string) *knowledge.Entity {
	t.Helper()
	d, err := knowledge.ParseDocument(path, []byte("---\n"+front+"---\nBody.\n"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := knowledge.EntityFromDocument(d)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSetupAngleProposesResolvedThreads: the setup/payoff angle is told
// the threads open as of the chapter and says which the text pays off;
// only open threads are taken, located in the text, and become
// information findings that name the thread file and the chapter.
func TestSetupAngleProposesResolvedThreads(t *testing.T) {
	const text = "Margaret opened the letter at last: Frederick had been innocent all along. 信已拆開 𝄞."
	script := &llmtest.Script{Replies: []llmtest.Reply{
		reply("setup and payoff", `{"findings":[],"resolves":[
			{"thread":"entities/plot-threads/the-letter.md","quote":"Frederick had been innocent all along","confidence":0.8},
			{"thread":"entities/plot-threads/the-debt","quote":"信已拆開","confidence":0.4},
			{"thread":"entities/plot-threads/../../../etc/passwd","quote":"the letter","confidence":1},
			{"thread":"entities/plot-threads/the-ball.md","quote":"the letter","confidence":0.9}]}`),
	}}
	threads := []*knowledge.Entity{
		threadEntity(t, "entities/plot-threads/the-letter.md", "name: The letter\nkind: plot-thread\nopened: 1\ndue: 4\n"),
		threadEntity(t, "entities/plot-threads/the-debt.md", "name: 舊債\nkind: plot-thread\nopened: 2\n"),
		threadEntity(t, "entities/plot-threads/the-ball.md", "name: The ball\nkind: plot-thread\nopened: 1\ndue: 2\nresolved: 2\n"),
		threadEntity(t, "entities/plot-threads/the-will.md", "name: The will\nkind: plot-thread\nopened: 5\ndue: 9\n"),
	}
	h := newHarness(t, script, Options{Threads: threads})
	rep, err := h.mon.Check(context.Background(), Request{Text: text, Chapter: 3, Angles: []string{AngleSetup}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Resolves) != 2 {
		t.Fatalf("resolves %+v; notes %v", rep.Resolves, rep.Notes)
	}
	r := rep.Resolves[0]
	if r.Thread != "entities/plot-threads/the-letter.md" || r.Chapter != 3 || !r.Located || text[r.Start:r.End] != "Frederick had been innocent all along" {
		t.Errorf("first resolution %+v", r)
	}
	if rep.Resolves[1].Thread != "entities/plot-threads/the-debt.md" || !rep.Resolves[1].Located {
		t.Errorf("second resolution %+v", rep.Resolves[1])
	}
	ignored := 0
	for _, n := range rep.Notes {
		if strings.Contains(n, "no open plot thread") {
			ignored++
		}
	}
	if ignored != 2 {
		t.Errorf("%d resolutions noted as ignored, want 2 (a path out of the project, a resolved thread): %v", ignored, rep.Notes)
	}
	// What the angle was told: the open threads, not the resolved one nor
	// the one opened later.
	var input string
	for _, q := range h.srv.Requests() {
		if q.Endpoint == "chat" {
			input = q.LastUser()
		}
	}
	if !strings.Contains(input, "- entities/plot-threads/the-letter.md: The letter, opened in chapter 1, due by chapter 4") ||
		strings.Contains(input, "the-ball.md") || strings.Contains(input, "the-will.md") {
		t.Errorf("the angle's input:\n%s", input)
	}
	fs := rep.ResolutionFindings()
	if len(fs) != 2 || fs[0].Type != TypeThreadResolved || fs[0].Evidence.Path != "entities/plot-threads/the-letter.md" ||
		fs[0].Evidence.Key != "resolved" || fs[0].Evidence.Value != "3" || fs[0].Severity() != "information" ||
		!strings.Contains(fs[0].Message, `"The letter"`) {
		t.Errorf("findings %+v", fs)
	}
	// The editors get them with the model's findings.
	if got := rep.ModelFindings(); len(got) != 2 || got[1].Type != TypeThreadResolved {
		t.Errorf("ModelFindings %+v", got)
	}
}
