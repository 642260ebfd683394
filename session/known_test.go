package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/runner"
)

// TestRunsUseTheSessionsKnowledgeAndEmbeddings: a session's runs take
// Role A's snapshot the session already holds, with the passages'
// vectors once they are embedded in the background (the provenance says
// so), and still see a knowledge file changed on disk behind the
// editor's back.
func TestRunsUseTheSessionsKnowledgeAndEmbeddings(t *testing.T) {
	root, srv := sample(t, llmtest.Script{Default: &llmtest.Reply{Content: "Five beats.", Times: -1}})
	projecttest.UseEmbedding(t, root, srv.URL, "K")
	s, rec := newSession(t, root)
	wf, env := checked(t, root, "chapter-11.flow")
	ctx := context.Background()
	run := func() {
		t.Helper()
		if _, err := s.Run(ctx, wf, env, runner.Options{Target: runner.Target{Node: "premise"}, Force: true}); err != nil {
			t.Fatal(err)
		}
		<-rec.finished
	}
	notes := func() []string {
		t.Helper()
		st, err := s.Store(ctx)
		if err != nil {
			t.Fatal(err)
		}
		o, ok, err := st.CurrentOutput(s.WorkflowID(wf.File.Path), "premise")
		if err != nil || !ok {
			t.Fatalf("no output of premise: %v", err)
		}
		var c struct{ Notes []string }
		if err := json.Unmarshal(o.Provenance, &c); err != nil {
			t.Fatal(err)
		}
		return c.Notes
	}

	run()
	// The first run started the embedding in the background.
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.kmu.Lock()
		ready := s.vecs != nil
		s.kmu.Unlock()
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the passages were never embedded")
		}
		time.Sleep(20 * time.Millisecond)
	}
	embedCalls := 0
	for _, r := range srv.Requests() {
		if r.Endpoint == "embeddings" {
			embedCalls++
		}
	}
	if embedCalls == 0 {
		t.Fatal("no embeddings request reached the endpoint")
	}
	s.kmu.Lock()
	before := s.snap
	s.kmu.Unlock()
	run()
	if got := strings.Join(notes(), "\n"); !strings.Contains(got, "embeddings") || strings.Contains(got, "unavailable") {
		t.Errorf("the second run's provenance notes %q, want the embeddings used", got)
	}
	s.kmu.Lock()
	same := s.snap == before
	s.kmu.Unlock()
	if !same {
		t.Error("a run rebuilt the session's snapshot though no file changed")
	}

	// A file changed on disk with no word from the editor: the next run
	// reads it.
	style := filepath.Join(root, "meta", "style-guide.md")
	if err := os.WriteFile(style, []byte("---\nname: Style\n---\nEvery chapter mentions the ZANZIBAR clock.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(style, future, future); err != nil {
		t.Fatal(err)
	}
	run()
	reqs := srv.Requests()
	last := ""
	for _, r := range reqs {
		if r.Endpoint == "chat" {
			last = string(r.Body)
		}
	}
	if !strings.Contains(last, "ZANZIBAR") {
		t.Error("the run after a change on disk did not see the new style guide")
	}
	assertNoKey(t, root)
}

// TestContinuityPointsAtThePreviousChapter: a continuity finding's
// evidence is the line of the previous chapter that wrote the name as
// the finding expects, so the editor links to it.
func TestContinuityPointsAtThePreviousChapter(t *testing.T) {
	root, _ := sample(t, llmtest.Script{})
	prev := filepath.Join(root, "manuscript", "chapter-10", "content.md")
	data, err := os.ReadFile(prev)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "\nColonel Fairfax called at Netherfield.\n\nColonel Fairfax stayed to dine.\n"...)
	if err := os.WriteFile(prev, data, 0o644); err != nil {
		t.Fatal(err)
	}
	wantLine := 1 + strings.Count(string(data[:strings.Index(string(data), "Colonel Fairfax")]), "\n")
	s, _ := newSession(t, root)
	var got *factcheck.Finding
	fs := s.Check("Captain Fairfax bowed to Elizabeth.\n", 11)
	for i := range fs {
		if fs[i].Type == factcheck.TypeContinuity {
			got = &fs[i]
		}
	}
	if got == nil {
		t.Fatalf("no continuity finding in %+v", fs)
	}
	if got.Evidence.Path != "manuscript/chapter-10/content.md" || got.Evidence.Line != wantLine {
		t.Errorf("evidence %s:%d, want manuscript/chapter-10/content.md:%d", got.Evidence.Path, got.Evidence.Line, wantLine)
	}
}
