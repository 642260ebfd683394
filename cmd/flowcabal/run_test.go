package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
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
	for _, r := range srv.Requests() {
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("request %d sent Authorization %q", r.Seq, got)
		}
	}
	// The agent model is configured: the draft's checks also asked it.
	reqs, angles := nodeCalls(srv)
	if len(reqs) != 3 || angles == 0 {
		t.Fatalf("%d node calls, %d checker calls; want 3 and some", len(reqs), angles)
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

	// A second run is served from the cache (and checked again).
	code, out, _ = runWithKey("run", flow)
	if reqs, _ := nodeCalls(srv); code != exitOK || strings.Count(out, "(cached") != 3 || len(reqs) != 3 {
		t.Errorf("second run: exit %d, %d node calls:\n%s", code, len(reqs), out)
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

// nodeCalls returns the chat requests of the workflow's nodes and counts
// those of Role C's checker angles.
func nodeCalls(srv *llmtest.Server) ([]llmtest.Request, int) {
	var nodes []llmtest.Request
	angles := 0
	for _, r := range srv.Requests() {
		switch {
		case r.Endpoint != "chat":
		case len(r.Messages) > 0 && r.Messages[0].Role == "system" && strings.Contains(r.Messages[0].Content, " checker of a novel-writing tool"):
			angles++
		default:
			nodes = append(nodes, r)
		}
	}
	return nodes, angles
}

// TestRunCommandGatesWithTheEditorsMonitor: with an agent model in
// flowcabal.toml, the CLI reviews outputs with Role C's monitor, as the
// editor does; without one, with the deterministic checks. A draft that
// the deterministic checks pass but one confident model angle objects to
// is flagged by the first and approved by the second.
func TestRunCommandGatesWithTheEditorsMonitor(t *testing.T) {
	const draft = "Elizabeth stayed at Netherfield another night."
	script := llmtest.Script{
		Replies: []llmtest.Reply{
			{Match: &llmtest.Match{Model: "a", System: "the character state checker"}, Times: -1,
				Content: `{"findings":[{"quote":"Elizabeth stayed at Netherfield","explanation":"Elizabeth went home to Longbourn in chapter 10.","confidence":0.9}]}`},
			{Match: &llmtest.Match{Model: "a", System: " checker of a novel-writing tool"}, Times: -1, Content: `{"findings":[]}`},
		},
		Default: &llmtest.Reply{Content: draft},
	}
	tests := []struct {
		name       string
		agentModel bool
		code       int
		want       []string
	}{
		{"agent model: the monitor", true, exitFindings, []string{"⚠ draft", "Longbourn", "draft needs you"}},
		{"no agent model: the deterministic checks", false, exitOK, []string{"✓ draft", ": done"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, srv := runProject(t, script)
			if !tt.agentModel {
				toml := "[models.writer]\nbase_url = \"" + srv.URL + "\"\nmodel = \"w\"\napi_key_env = \"FLOWCABAL_TEST_KEY\"\n"
				if err := os.WriteFile(filepath.Join(root, "flowcabal.toml"), []byte(toml), 0o644); err != nil {
					t.Fatal(err)
				}
				// premise runs on the agent model: give it the writer's.
				flow := filepath.Join(root, "workflows", "chapter-11.flow")
				src, err := os.ReadFile(flow)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(flow, []byte(strings.Replace(string(src), `model = "agent"`, "", 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errs := runWithKey("run", filepath.Join(root, "workflows", "chapter-11.flow"))
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, out, errs)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if _, angles := nodeCalls(srv); (angles > 0) != tt.agentModel {
				t.Errorf("%d calls of the model checkers (agent model configured: %v)", angles, tt.agentModel)
			}
			assertNoKey(t, root)
		})
	}
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
	// A node whose chain is valid runs although a node downstream has an
	// error; the node in error is refused with its line.
	if err := os.WriteFile(flow, []byte("node a { user \"\"\"beats\"\"\" }\nnode b { user \"\"\"{{a}} {{nope}}\"\"\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runWithKey("run", "-node", "a", flow); code != exitOK || !strings.Contains(out, "✓ a") || !strings.Contains(errs, "unknown-ref") {
		t.Errorf("run -node a: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := runWithKey("run", "-node", "b", flow); code != exitFindings || !strings.Contains(errs, "node b cannot run: ") || !strings.Contains(errs, "broken.flow:2, in node b") {
		t.Errorf("run -node b: exit %d: %s", code, errs)
	}
}

// TestRunKeepsTheEditorsKeyOutOfTheHistory: the key is only in
// FLOWCABAL_API_KEY (what the editors pass), the project names another,
// unset variable, and the model echoes the key back. No file of the
// project, the database included, holds it.
func TestRunKeepsTheEditorsKeyOutOfTheHistory(t *testing.T) {
	root := copySample(t)
	srv := llmtest.New(t, llmtest.Script{Default: &llmtest.Reply{Content: "Your key is " + testKey + ", as you asked."}})
	projecttest.UseModels(t, root, srv.URL, "FLOWCABAL_UNSET_KEY")
	var out, errb bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string {
		if k == "FLOWCABAL_API_KEY" {
			return testKey
		}
		return ""
	}}
	code := dispatch(context.Background(), env, []string{"run", "-node", "outline", filepath.Join(root, "workflows", "chapter-11.flow")})
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || reqs[0].Header.Get("Authorization") != "Bearer "+testKey {
		t.Fatal("the run did not send the editor's key")
	}
	if printed := out.String() + errb.String(); strings.Contains(printed, testKey) || !strings.Contains(printed, "Your key is [redacted]") {
		t.Errorf("the key was printed, or the reply was not:\n%s", printed)
	}
	assertNoKey(t, root)
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

// TestRunCommandEmbedsForRoleA: with [models.embedding] configured, a run
// embeds the manuscript's passages (bounded, cached in the store) and
// Role A's provenance says the search used them.
func TestRunCommandEmbedsForRoleA(t *testing.T) {
	root, srv := runProject(t, llmtest.Script{Default: &llmtest.Reply{Content: "Five beats.", Times: -1}})
	projecttest.UseEmbedding(t, root, srv.URL, "FLOWCABAL_TEST_KEY")
	flow := filepath.Join(root, "workflows", "chapter-11.flow")
	if code, out, errs := runWithKey("run", "-node", "premise", flow); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	embeds := 0
	for _, r := range srv.Requests() {
		if r.Endpoint == "embeddings" {
			embeds++
		}
	}
	if embeds == 0 || embeds > 8 {
		t.Errorf("%d embeddings calls, want some and at most the run's bound of 8", embeds)
	}
	st, err := store.Open(context.Background(), root, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	o, ok, err := st.CurrentOutput(runner.WorkflowID(root, flow), "premise")
	st.Close()
	if err != nil || !ok {
		t.Fatalf("no output of premise: %v", err)
	}
	var c struct{ Notes []string }
	if err := json.Unmarshal(o.Provenance, &c); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Notes, "\n"); !strings.Contains(got, "embeddings") || strings.Contains(got, "unavailable") {
		t.Errorf("provenance notes %q, want the embeddings used", got)
	}
	assertNoKey(t, root)
}

// TestContextUsesTheEmbeddings: flowcabal context previews what a run
// injects: with an embedding model, the store's vectors once the project
// is indexed; before, it says why the search was lexical.
func TestContextUsesTheEmbeddings(t *testing.T) {
	root, srv := runProject(t, llmtest.Script{})
	projecttest.UseEmbedding(t, root, srv.URL, "FLOWCABAL_TEST_KEY")
	flow := filepath.Join(root, "workflows", "chapter-11.flow")
	notes := func() string {
		t.Helper()
		code, out, errs := runWithKey("context", "--json", flow, "outline")
		if code != exitOK {
			t.Fatalf("context: exit %d\n%s", code, errs)
		}
		var c struct{ Notes []string }
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatal(err)
		}
		return strings.Join(c.Notes, "\n")
	}
	if got := notes(); !strings.Contains(got, "no store yet") {
		t.Errorf("before the index, notes %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, ".flowcabal", "project.db")); err == nil {
		t.Error("context created the store")
	}
	if code, out, errs := runWithKey("index", root); code != exitOK {
		t.Fatalf("index: exit %d\n%s\n%s", code, out, errs)
	}
	if got := notes(); !strings.Contains(got, "embeddings") || strings.Contains(got, "unavailable") {
		t.Errorf("after the index, notes %q, want the embeddings used", got)
	}
	assertNoKey(t, root)
}
