package session

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/agent/profile"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
)

// profilePass picks out the requests of the multi-angle profile pass by
// its instructions.
const profilePass = "You keep the multi-angle profiles"

type update struct {
	Path  string `json:"path"`
	Title string `json:"title"`
	Body  string `json:"body"`
}

// profileReply answers the profile pass with updates.
func profileReply(updates ...update) llmtest.Reply {
	data, _ := json.Marshal(map[string]any{"profiles": updates})
	return llmtest.Reply{Match: &llmtest.Match{System: profilePass}, Times: -1, JSON: data}
}

// Role C's angles (offered tools) find nothing.
var quietMonitor = llmtest.Reply{Match: &llmtest.Match{Tools: ptr(true)}, Times: -1, Content: `{"findings": []}`}

func passCalls(srv *llmtest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			if m.Role == "system" && strings.Contains(m.Content, profilePass) {
				n++
				break
			}
		}
	}
	return n
}

// waitTasks waits until the store's queue has no curated task left.
func waitTasks(t *testing.T, st *store.Store) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		tasks, err := st.Tasks(store.TaskCurated)
		if err == nil && len(tasks) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the curated task did not finish: %+v %v", tasks, err)
		}
		time.Sleep(20 * time.Millisecond) // the queue works in the background
	}
}

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// indexedProfile checks that rel is a valid profile file the store has
// indexed as such, and returns its front matter.
func indexedProfile(t *testing.T, st *store.Store, root, rel string) map[string]any {
	t.Helper()
	data := readFile(t, root, rel)
	d, err := knowledge.ParseDocument(rel, []byte(data))
	if err != nil || d.Front["kind"] != "profile" {
		t.Fatalf("%s: front matter %v:\n%s", rel, err, data)
	}
	res := strings.TrimSuffix(rel, ".md")
	r, err := st.Resource(res)
	if err != nil || r.Kind != store.KindProfile || r.Hash != d.Hash {
		t.Fatalf("%s is not indexed as it is on disk: %+v %v", res, r, err)
	}
	return d.Front
}

// TestCurationRegeneratesMultiAngleProfiles: a chapter curated through a
// run and Persist triggers the agent model's pass on the store's queue;
// the affected profiles appear under their angles with valid front matter
// and are indexed; the task run again (as after a crash) asks the model
// nothing and rewrites nothing; the author's section survives.
func TestCurationRegeneratesMultiAngleProfiles(t *testing.T) {
	root, srv := sample(t, llmtest.Script{
		Replies: []llmtest.Reply{
			profileReply(
				update{Path: "profiles/characters/charles-bingley.md", Title: "Bingley", Body: "Bingley is all attention to Jane at Netherfield."},
				update{Path: "profiles/plot-threads/jane-and-bingley.md", Title: "Jane and Bingley", Body: "Their attachment deepens in the shrubbery."},
				update{Path: "profiles/themes/marriage.md", Title: "Marriage", Body: "Courtship as the family's hope."},
			),
			quietMonitor,
		},
		Default: &llmtest.Reply{Content: "Jane and Mr. Bingley walked in the shrubbery at Netherfield."},
	})
	mine := "<!-- author -->\nBingley must stay amiable. 彬格萊永遠和氣。\n<!-- /author -->"
	bingley := filepath.Join(root, "profiles", "characters", "charles-bingley.md")
	if err := os.MkdirAll(filepath.Dir(bingley), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bingley, []byte(mine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, rec := newSession(t, root)
	wf, env := checked(t, root, "chapter-11.flow")
	ctx := context.Background()
	if _, err := s.Run(ctx, wf, env, runner.Options{Target: runner.Target{Node: "draft"}}); err != nil {
		t.Fatal(err)
	}
	if res := <-rec.finished; res.Status != store.RunDone {
		t.Fatalf("run: %s %+v", res.Status, res.Nodes["draft"])
	}
	if _, err := s.Persist(ctx, wf, "draft", ""); err != nil {
		t.Fatal(err)
	}
	st, _ := s.Store(ctx)
	waitTasks(t, st)
	if n := passCalls(srv); n != 1 {
		t.Fatalf("the profile pass called the model %d times, want 1", n)
	}
	chapter := readFile(t, root, "manuscript/chapter-11/content.md")
	hash := profile.SourceHash("manuscript/chapter-11/content.md", chapter)
	for _, rel := range []string{"profiles/characters/charles-bingley.md", "profiles/plot-threads/jane-and-bingley.md", "profiles/themes/marriage.md"} {
		front := indexedProfile(t, st, root, rel)
		if front["source_hash"] != hash || front["source_chapter"] != 11 || front["source"] != "manuscript/chapter-11" {
			t.Errorf("%s: front matter %v", rel, front)
		}
	}
	// Role A navigates by them: a theme is a profile of the whole work.
	c, err := s.Context(wf, "draft")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, src := range c.Sources {
		found = found || src.Path == "profiles/themes/marriage.md"
	}
	if !found {
		t.Errorf("Role A's context for the draft lacks the theme's profile: %+v", c.Sources)
	}
	b := readFile(t, root, "profiles/characters/charles-bingley.md")
	for _, want := range []string{mine, "Last seen in chapter 11", "Bingley is all attention to Jane", "generated: factual, model", "about: entities/characters/charles-bingley"} {
		if !strings.Contains(b, want) {
			t.Errorf("Bingley's profile lacks %q:\n%s", want, b)
		}
	}

	// The task again, through the queue and by hand: no call, no write.
	before := map[string]string{}
	for _, rel := range []string{"profiles/characters/charles-bingley.md", "profiles/themes/marriage.md"} {
		before[rel] = readFile(t, root, rel)
	}
	payload := store.CuratedTask{Target: "manuscript/chapter-11", File: "manuscript/chapter-11/content.md"}
	if err := st.Enqueue(ctx, store.TaskCurated, payload.Target, payload); err != nil {
		t.Fatal(err)
	}
	waitTasks(t, st)
	data, _ := json.Marshal(payload)
	if err := s.curated(ctx, st, store.Task{Kind: store.TaskCurated, Key: payload.Target, Payload: data}); err != nil {
		t.Fatal(err)
	}
	if n := passCalls(srv); n != 1 {
		t.Errorf("running the task again called the model: %d pass calls", n)
	}
	for rel, was := range before {
		if now := readFile(t, root, rel); now != was {
			t.Errorf("%s was rewritten:\n%s\n---\n%s", rel, was, now)
		}
	}
	assertNoKey(t, root)
}

// TestCurationMultiAngleChinese: a Chinese chapter curated through the
// store gets its profiles — a character's beside its facts, a theme and
// the world state under Chinese file names.
func TestCurationMultiAngleChinese(t *testing.T) {
	root := projecttest.Copy(t, "hongloumeng")
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{profileReply(
		update{Path: "profiles/characters/lin-daiyu.md", Title: "林黛玉", Body: "黛玉初到榮國府，步步留心，時時在意。"},
		update{Path: "profiles/themes/木石前盟", Title: "木石前盟", Body: "寶黛初會，似曾相識。"},
		update{Path: "profiles/world-state/榮國府.md", Title: "榮國府", Body: "王熙鳳當家，賈母疼愛外孫女。"},
	)}})
	projecttest.UseModels(t, root, srv.URL, "K")
	s, _ := newSession(t, root)
	ctx := context.Background()
	st, err := s.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	text := "第六回\n\n黛玉在賈母房中，寶玉進來，笑道：「這個妹妹我曾見過的。」王熙鳳笑聲先到。\n"
	if _, err := st.Persist(ctx, text, "manuscript/chapter-06", nil); err != nil {
		t.Fatal(err)
	}
	waitTasks(t, st)
	if n := passCalls(srv); n != 1 {
		t.Fatalf("%d pass calls, want 1", n)
	}
	for _, rel := range []string{"profiles/characters/lin-daiyu.md", "profiles/themes/木石前盟.md", "profiles/world-state/榮國府.md"} {
		if front := indexedProfile(t, st, root, rel); front["source_chapter"] != 6 {
			t.Errorf("%s: %v", rel, front)
		}
	}
	lin := readFile(t, root, "profiles/characters/lin-daiyu.md")
	if !strings.Contains(lin, "Last seen in chapter 6") || !strings.Contains(lin, "步步留心") {
		t.Errorf("黛玉's profile:\n%s", lin)
	}
	assertNoKey(t, root)
}

// TestCurationSurvivesBadModelAnswers: malformed JSON, an answer of the
// wrong shape, or paths out of profiles/ leave the factual profiles in
// place, end the task (it is not retried forever) and write nothing
// outside the project.
func TestCurationSurvivesBadModelAnswers(t *testing.T) {
	cases := []struct {
		name  string
		reply llmtest.Reply
		wrote []string // the profiles the model's pass may write
	}{
		{name: "malformed", reply: llmtest.Reply{Match: &llmtest.Match{System: profilePass}, Times: -1, Content: `{"profiles": [{"path": "profiles/themes/x.md", `}},
		{name: "wrong schema", reply: llmtest.Reply{Match: &llmtest.Match{System: profilePass}, Times: -1, Fault: llmtest.FaultSchema}},
		{name: "escaping paths", reply: profileReply(
			update{Path: "../../etc/x", Title: "x", Body: "pwned"},
			update{Path: "profiles/../../x.md", Title: "x", Body: "pwned"},
			update{Path: "manuscript/chapter-01/content.md", Title: "x", Body: "pwned"},
			update{Path: "profiles/themes/pride.md", Title: "Pride", Body: "Darcy's pride."}),
			wrote: []string{"profiles/themes/pride.md"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, srv := sample(t, llmtest.Script{Replies: []llmtest.Reply{tc.reply}})
			s, _ := newSession(t, root)
			ctx := context.Background()
			st, err := s.Store(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ch1 := readFile(t, root, "manuscript/chapter-01/content.md")
			if _, err := st.Persist(ctx, "Jane and Mr. Bingley walked in the shrubbery at Netherfield.", "manuscript/chapter-11", nil); err != nil {
				t.Fatal(err)
			}
			waitTasks(t, st)
			if passCalls(srv) == 0 {
				t.Fatal("the model was not asked")
			}
			if b := readFile(t, root, "profiles/characters/charles-bingley.md"); !strings.Contains(b, "Last seen in chapter 11") || !strings.Contains(b, "generated: factual\n") {
				t.Errorf("the factual profile:\n%s", b)
			}
			for _, p := range []string{filepath.Join(root, "..", "..", "etc", "x"), filepath.Join(root, "..", "x.md")} {
				if _, err := os.Stat(p); !os.IsNotExist(err) {
					t.Errorf("%s was written", p)
				}
			}
			if readFile(t, root, "manuscript/chapter-01/content.md") != ch1 {
				t.Error("the model's answer rewrote chapter 1")
			}
			var got []string
			_ = filepath.WalkDir(filepath.Join(root, "profiles"), func(p string, de os.DirEntry, err error) error {
				if err != nil || de.IsDir() {
					return err
				}
				if data, _ := os.ReadFile(p); strings.Contains(string(data), "<!-- model -->") {
					rel, _ := filepath.Rel(root, p)
					got = append(got, filepath.ToSlash(rel))
				}
				return nil
			})
			if strings.Join(got, ",") != strings.Join(tc.wrote, ",") {
				t.Errorf("the model wrote %v, want %v", got, tc.wrote)
			}
		})
	}
}

// TestCurationWithoutAgentModel: no [models.agent], the factual profiles
// are built as they always were, and no model is asked.
func TestCurationWithoutAgentModel(t *testing.T) {
	root := projecttest.Copy(t, "pride-and-prejudice")
	srv := llmtest.New(t, llmtest.Script{})
	toml := "[models.writer]\nbase_url = \"" + srv.URL + "\"\nmodel = \"w\"\napi_key_env = \"K\"\n"
	if err := os.WriteFile(filepath.Join(root, "flowcabal.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := newSession(t, root)
	ctx := context.Background()
	st, err := s.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Persist(ctx, "Jane and Mr. Bingley walked in the shrubbery at Netherfield.", "manuscript/chapter-11", nil); err != nil {
		t.Fatal(err)
	}
	waitTasks(t, st)
	kp, _ := knowledge.LoadProject(root)
	e := kp.Entity("entities/characters/charles-bingley")
	want := string(profile.Render(e, profile.Factual(kp, e), nil))
	if got := readFile(t, root, "profiles/characters/charles-bingley.md"); got != want || !strings.Contains(got, "Last seen in chapter 11") {
		t.Errorf("the factual profile:\n%s\nwant\n%s", got, want)
	}
	indexedProfile(t, st, root, "profiles/characters/charles-bingley.md")
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d model requests without an agent model", n)
	}
	if _, err := os.Stat(filepath.Join(root, "profiles", "themes")); !os.IsNotExist(err) {
		t.Errorf("profiles/themes exists without a model: %v", err)
	}
}

// TestCurationRetriesATransientModelFailureThenGivesUp: an endpoint that
// is unavailable fails the task so that the queue retries it, a bounded
// number of times; then the pass is given up with a warning, the task
// ends and the factual profiles stand. The key is in no log line.
func TestCurationRetriesATransientModelFailureThenGivesUp(t *testing.T) {
	root, srv := sample(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{System: profilePass}, Times: -1,
		Fault: llmtest.Fault429, RetryAfter: "3600"}}})
	var logs strings.Builder
	var mu sync.Mutex
	s := New(root, Options{
		Getenv: func(k string) string {
			if k == "K" {
				return key
			}
			return ""
		},
		Log: slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil)),
	})
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	st, err := s.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Persist(ctx, "Jane and Mr. Bingley walked in the shrubbery at Netherfield.", "manuscript/chapter-11", nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		tasks, err := st.Tasks(store.TaskCurated)
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) == 1 && tasks[0].Attempts == 1 {
			if !strings.Contains(tasks[0].LastError, "rate-limited") {
				t.Errorf("the task's last error: %q", tasks[0].LastError)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task did not fail once: %+v", tasks)
		}
		time.Sleep(20 * time.Millisecond) // the queue works in the background
	}
	if b := readFile(t, root, "profiles/characters/charles-bingley.md"); !strings.Contains(b, "Last seen in chapter 11") {
		t.Errorf("the factual profile was not rebuilt before the model failed:\n%s", b)
	}
	task := store.Task{Kind: store.TaskCurated, Key: "manuscript/chapter-11",
		Payload: json.RawMessage(`{"target":"manuscript/chapter-11","file":"manuscript/chapter-11/content.md"}`)}
	task.Attempts = 1
	if err := s.curated(ctx, st, task); err == nil {
		t.Error("the second attempt gave up already")
	}
	task.Attempts = modelPassAttempts - 1
	if err := s.curated(ctx, st, task); err != nil {
		t.Errorf("the last attempt failed the task: %v", err)
	}
	if passCalls(srv) == 0 {
		t.Error("the model was not asked") // how often depends on the queue's own retries, running meanwhile
	}
	mu.Lock()
	out := logs.String()
	mu.Unlock()
	if !strings.Contains(out, "given up") || strings.Contains(out, key) {
		t.Errorf("the log:\n%s", out)
	}
	assertNoKey(t, root)
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *strings.Builder
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
