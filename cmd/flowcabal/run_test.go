package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
)

const testKey = "sk-flowcabal-test-7f3a9c"

// runProject copies the English sample, points its models at a scripted
// server and returns the project root.
func runProject(t *testing.T, script llmtest.Script) (string, *llmtest.Server) {
	t.Helper()
	root := copySample(t)
	srv := llmtest.New(t, script)
	projecttest.UseModels(t, root, srv.URL, "FLOWCABAL_TEST_KEY")
	return root, srv
}

func runWithKey(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string {
		if k == "FLOWCABAL_TEST_KEY" {
			return testKey
		}
		return ""
	}}
	code := dispatch(context.Background(), env, args)
	return code, out.String(), errb.String()
}

func TestRunCommandRunsTheSampleWorkflow(t *testing.T) {
	root, srv := runProject(t, llmtest.Script{Default: &llmtest.Reply{Content: "Elizabeth stayed at Netherfield another night."}})
	flow := filepath.Join(root, "workflows", "chapter-11.flow")
	code, out, errs := runWithKey("run", flow)
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{"✓ premise", "✓ outline", "✓ draft", ": done"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3", len(reqs))
	}
	for _, r := range reqs {
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("request %d sent Authorization %q", r.Seq, got)
		}
	}
	// Layer 3: the draft's prompt holds the outline's output and the style
	// guide; layer 2: Role A's injection is in the system prompt.
	draft := reqs[2]
	if !strings.Contains(draft.LastUser(), "Elizabeth stayed at Netherfield") || draft.Messages[0].Role != "system" ||
		!strings.Contains(draft.Messages[0].Content, "Third person, past tense") {
		t.Errorf("the draft's prompt was not assembled in three layers: %+v", draft.Messages)
	}
	doc, err := os.ReadFile(filepath.Join(root, ".flowcabal", "outputs", "workflows", "chapter-11", "draft.md"))
	if err != nil || !strings.Contains(string(doc), "another night") {
		t.Errorf("output document: %q %v", doc, err)
	}

	// A second run is served from the cache.
	code, out, _ = runWithKey("run", flow)
	if code != exitOK || strings.Count(out, "(cached") != 3 || len(srv.Requests()) != 3 {
		t.Errorf("second run: exit %d, %d calls:\n%s", code, len(srv.Requests()), out)
	}
	assertNoKey(t, root)
}

func TestRunCommandFlagsAndApproves(t *testing.T) {
	// Every draft mentions a telegram, which the world rules forbid: the
	// gate retries three times, then flags the node for the author.
	root, srv := runProject(t, llmtest.Script{
		Replies: []llmtest.Reply{{Match: &llmtest.Match{Contains: "Write chapter 11"}, Times: -1,
			Content: "A telegram arrived at Netherfield for Mr. Bingley."}},
		Default: &llmtest.Reply{Content: "Five beats."},
	})
	flow := filepath.Join(root, "workflows", "chapter-11.flow")
	code, out, errs := runWithKey("run", flow)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFindings, out, errs)
	}
	if !strings.Contains(out, "⚠ draft") || !strings.Contains(out, "telegram") || !strings.Contains(out, "draft needs you") {
		t.Errorf("the flag is not reported:\n%s", out)
	}
	drafts := 0
	for _, r := range srv.Requests() {
		if strings.Contains(r.LastUser(), "Write chapter 11") {
			drafts++
		}
	}
	if drafts != 4 {
		t.Errorf("the draft was attempted %d times, want 4 (1 + 3 retries)", drafts)
	}
	code, out, errs = runWithKey("run", "-approve", "draft", flow)
	if code != exitOK || !strings.Contains(out, ": done") {
		t.Fatalf("approve: exit %d\n%s\n%s", code, out, errs)
	}
	assertNoKey(t, root)
}

func TestRunCommandRefusesBrokenWorkflows(t *testing.T) {
	root, srv := runProject(t, llmtest.Script{})
	flow := filepath.Join(root, "workflows", "broken.flow")
	if err := os.WriteFile(flow, []byte("node a { user \"\"\"{{nope}}\"\"\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runWithKey("run", flow)
	if code != exitFindings || !strings.Contains(errs, "unknown-ref") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a broken workflow called the model")
	}
}

// assertNoKey greps every file of the project, the database included,
// for the API key.
func assertNoKey(t *testing.T, root string) {
	t.Helper()
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(testKey)) {
			t.Errorf("the API key is in %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
