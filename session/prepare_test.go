package session

import (
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

// Prepare has Role A's view read in the background, with nothing asking
// for it: a session left alone after Prepare holds a snapshot, and the
// first preview then answers with the context, never with "still
// indexing". A session never prepared reads nothing.
func TestPrepareReadsTheViewInTheBackground(t *testing.T) {
	root, _ := sample(t, llmtest.Script{})
	built := func(s *Session) bool {
		s.kmu.Lock()
		defer s.kmu.Unlock()
		return s.snap != nil
	}

	idle := New(root, Options{})
	t.Cleanup(func() { idle.Close() })
	time.Sleep(200 * time.Millisecond)
	if built(idle) {
		t.Fatal("a session nobody asked holds a snapshot")
	}

	s := New(root, Options{})
	t.Cleanup(func() { s.Close() })
	s.Prepare()
	deadline := time.Now().Add(time.Minute)
	for !built(s) {
		if time.Now().After(deadline) {
			t.Fatal("Prepare did not have the view read within a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	wf, _ := checked(t, root, "act-1.flow")
	var node string
	for _, n := range wf.File.Nodes {
		node = n.Name.Name
		break
	}
	c, err := s.ContextPreview(wf, node)
	if err != nil || c == nil {
		t.Fatalf("the first preview after Prepare: %v", err)
	}
	s.Prepare() // read already: nothing more to do, and no panic
}
