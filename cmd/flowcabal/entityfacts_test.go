package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
)

// runCLIEnv is runCLI with an environment.
func runCLIEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &cliEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	code := dispatch(context.Background(), e, args)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, root, rel, text string) string {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return full
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// factsReply scripts the model's answer to the question about entity.
func factsReply(t *testing.T, entity string, facts, progressions []map[string]any) llmtest.Reply {
	t.Helper()
	if facts == nil {
		facts = []map[string]any{}
	}
	if progressions == nil {
		progressions = []map[string]any{}
	}
	data, err := json.Marshal(map[string]any{"facts": facts, "progressions": progressions})
	if err != nil {
		t.Fatal(err)
	}
	schema := true
	return llmtest.Reply{Match: &llmtest.Match{Contains: "Entity: " + entity + " (", Schema: &schema}, JSON: data}
}

func item(key, value string, chapter int, quote string) map[string]any {
	return map[string]any{"key": key, "value": value, "chapter": chapter, "quote": quote}
}

const factsKey = "sk-test-DO-NOT-LEAK-4242"

func TestEntitiesFactsCommand(t *testing.T) {
	root := bookProject(t, "pride-and-prejudice", 1, 3)
	bingleyText := "---\nname: Mr. Bingley\naliases: [Bingley]\nkind: character\ndraft: true\nfacts: {}\n---\n\nSuggested by `flowcabal entities suggest`: 40 mentions, chapters 1 to 3.\n"
	bingley := writeFile(t, root, "entities/characters/mr-bingley.md", bingleyText)
	lizzyText := "---\nname: Elizabeth Bennet\naliases: [Lizzy, Elizabeth]\nkind: character\n# set by the author\nfacts: { home: Pemberley }   # on purpose\nrelations:\n  - { to: entities/characters/mr-bingley, kind: acquaintance }\n---\nThe second daughter.\n\n<!-- a note to self -->\n"
	lizzy := writeFile(t, root, "entities/characters/elizabeth-bennet.md", lizzyText)

	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{
		factsReply(t, "Mr. Bingley", []map[string]any{
			item("fortune", "four or five thousand a year", 1, "A single man of large fortune; four or five thousand a year."),
			item("origin", "the north of England", 1, "a young man of large fortune from the north of England"),
			// Invented: not in the book at all.
			item("eyes", "blue", 1, "He had fine blue eyes and a pleasing smile."),
			// Real, but in chapter 2, not 1.
			item("liked_by", "Lizzy", 1, "I hope Mr. Bingley will like it, Lizzy."),
		}, []map[string]any{
			item("location", "Netherfield", 3, "talked of giving one himself at Netherfield"),
		}),
		factsReply(t, "Elizabeth Bennet", []map[string]any{
			item("home", "Longbourn", 3, "They returned, therefore, in good spirits to Longbourn, the village where they lived"),
			item("Position ", "second daughter", 2, "Observing his second daughter employed in trimming a hat"),
		}, []map[string]any{
			item("feeling_for_darcy", "no very cordial feelings", 3, "Elizabeth remained with no very cordial feelings towards him"),
		}),
	}})
	writeFile(t, root, "flowcabal.toml", fmt.Sprintf("[models.agent]\nbase_url = %q\nmodel = \"stand-in-agent\"\napi_key_env = \"FACTS_TEST_KEY\"\n", srv.URL))
	env := map[string]string{"FACTS_TEST_KEY": factsKey}

	// 1. Proposals printed with their evidence; nothing written.
	code, out, errOut := runCLIEnv(t, env, "entities", "facts", "--project", root)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"new       fact fortune: four or five thousand a year",
		"chapter 1, line 29: “A single man of large fortune; four or five thousand a year.”",
		"new       from chapter 3, location: Netherfield",
		"rejected  fact eyes: blue — the quotation is not in chapter 1",
		"rejected  fact liked_by: Lizzy — the quotation is not in chapter 1",
		"conflict  fact home: Longbourn   (the file says: Pemberley)",
		"new       fact position: second daughter",
		"Nothing was written",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if readFile(t, bingley) != bingleyText || readFile(t, lizzy) != lizzyText {
		t.Fatal("entity files changed without --write")
	}
	if n := srv.Count(); n != 2 {
		t.Fatalf("%d requests, want one per entity (2)", n)
	}
	for _, r := range srv.Requests() {
		if len(r.Schema) == 0 {
			t.Errorf("request %d asked for no structured output", r.Seq)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+factsKey {
			t.Errorf("request %d: Authorization %q", r.Seq, got)
		}
		if strings.Contains(r.LastUser(), "Pemberley") {
			t.Errorf("the question shows the file's facts (it must not, or accepting would void the cache):\n%s", r.LastUser())
		}
	}
	if q := srv.Requests()[1].LastUser(); !strings.Contains(q, "[Chapter 3]") || !strings.Contains(q, "Elizabeth remained with no very cordial feelings towards him") {
		t.Errorf("the question lacks chapter 3's passage:\n%s", q)
	}

	// 2. Again, through the spelling the issue uses, as JSON: from the
	// cache, no request.
	code, out, errOut = runCLIEnv(t, env, "entities", "suggest", "--facts", "--project", root, "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if n := srv.Count(); n != 2 {
		t.Fatalf("the second run made %d requests", n-2)
	}
	var res []struct {
		Entity    string
		Cached    bool
		Written   bool
		Proposals []struct{ Kind, Key, Value, Quote, Status, Existing string }
		Rejected  []struct{ Key, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res) != 2 {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	for _, r := range res {
		if !r.Cached || r.Written {
			t.Errorf("%s: cached %v, written %v", r.Entity, r.Cached, r.Written)
		}
	}
	if b := res[1]; b.Entity != "Mr. Bingley" || len(b.Proposals) != 3 || len(b.Rejected) != 2 {
		t.Errorf("Bingley from the cache: %+v", b)
	}

	// 3. --write: the new proposals only, every other byte kept.
	code, out, errOut = runCLIEnv(t, env, "entities", "facts", "--project", root, "--write")
	if code != exitOK || srv.Count() != 2 {
		t.Fatalf("--write: exit %d, %d requests\n%s\n%s", code, srv.Count(), out, errOut)
	}
	wantBingley := strings.Replace(bingleyText, "facts: {}\n",
		"facts: { fortune: four or five thousand a year, origin: the north of England }\nprogressions:\n  - { chapter: 3, facts: { location: Netherfield } }\n", 1)
	if got := readFile(t, bingley); got != wantBingley {
		t.Errorf("Bingley's file:\n%s\nwant\n%s", got, wantBingley)
	}
	wantLizzy := strings.Replace(lizzyText, "facts: { home: Pemberley }   # on purpose\n",
		"facts: { home: Pemberley, position: second daughter }   # on purpose\nprogressions:\n  - { chapter: 3, facts: { feeling_for_darcy: no very cordial feelings } }\n", 1)
	if got := readFile(t, lizzy); got != wantLizzy {
		t.Errorf("Elizabeth's file:\n%s\nwant\n%s", got, wantLizzy)
	}
	if !strings.Contains(out, "1 conflicts were not written") {
		t.Errorf("the conflict is not reported:\n%s", out)
	}

	// 4. After the accept, the same answers come from the cache and
	// are all in the files now.
	code, out, _ = runCLIEnv(t, env, "entities", "facts", "--project", root, "Lizzy")
	if code != exitOK || srv.Count() != 2 || !strings.Contains(out, "same      fact position: second daughter") || !strings.Contains(out, "conflict  fact home: Longbourn") {
		t.Errorf("after --write: exit %d, %d requests:\n%s", code, srv.Count(), out)
	}

	// The key reached the endpoint only: not the output, not the store.
	db, err := os.ReadFile(filepath.Join(root, ".flowcabal", "project.db"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(db, []byte(factsKey)) || strings.Contains(out+errOut, factsKey) {
		t.Error("the API key leaked")
	}
	if !bytes.Contains(db, []byte("entity-facts:")) {
		t.Error("no cached answer in the store")
	}
}

func TestEntitiesFactsChinese(t *testing.T) {
	root := bookProject(t, "hongloumeng", 1, 3)
	ch3 := filepath.Join(root, "manuscript", "chapter-003", "content.md")
	f, err := os.OpenFile(ch3, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n黛玉撫琴，琴譜上畫著一個𝄞記號。\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	daiyuText := "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\ndraft: true\nfacts: {}\n---\n\n𝄞 待補。\n"
	daiyu := writeFile(t, root, "entities/characters/林黛玉.md", daiyuText)
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{
		factsReply(t, "林黛玉", []map[string]any{
			item("age", "五歲", 2, "乳名黛玉，年方五歲"),
			// Simplified, where the book is traditional: not verbatim.
			item("father", "林如海", 2, "生得一女，乳名黛玉，年方五岁"),
			item("instrument", "琴𝄞", 3, "「琴譜上畫著一個𝄞記號」"),
		}, []map[string]any{
			item("location", "榮國府", 3, "林黛玉扶著婆子的手，進了垂花門"),
		}),
	}})
	writeFile(t, root, "flowcabal.toml", fmt.Sprintf("[models.agent]\nbase_url = %q\nmodel = \"stand-in-agent\"\n", srv.URL))
	code, out, errOut := runCLI(t, "", "entities", "facts", "--project", root, "--write", "黛玉")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"new       fact age: 五歲",
		"“乳名黛玉，年方五歲”",
		"rejected  fact father: 林如海 — the quotation is not in chapter 2",
		"new       fact instrument: 琴𝄞",
		"“琴譜上畫著一個𝄞記號”",
		"new       from chapter 3, location: 榮國府",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	want := strings.Replace(daiyuText, "facts: {}\n", "facts: { age: 五歲, instrument: 琴𝄞 }\nprogressions:\n  - { chapter: 3, facts: { location: 榮國府 } }\n", 1)
	if got := readFile(t, daiyu); got != want {
		t.Errorf("the file:\n%s\nwant\n%s", got, want)
	}
}

func TestEntitiesFactsWithoutModel(t *testing.T) {
	root := bookProject(t, "pride-and-prejudice", 1, 1)
	text := "---\nname: Mr. Bingley\nfacts: {}\n---\n"
	file := writeFile(t, root, "entities/characters/mr-bingley.md", text)
	code, out, errOut := runCLI(t, "", "entities", "facts", "--project", root, "--write")
	if code != exitFailure {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFailure, out, errOut)
	}
	for _, want := range []string{"no agent model is configured", "[models.agent]", "base_url", "api_key_env"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the error does not say %q:\n%s", want, errOut)
		}
	}
	if readFile(t, file) != text {
		t.Error("the entity file changed")
	}
	if _, err := os.Stat(filepath.Join(root, ".flowcabal")); err == nil {
		t.Error("a store was made for a command that could not run")
	}
	// A name no file declares is a usage error, before any model is needed.
	if code, _, errOut := runCLI(t, "", "entities", "facts", "--project", root, "Mr. Nobody"); code != exitUsage || !strings.Contains(errOut, "Mr. Nobody") {
		t.Errorf("unknown name: exit %d: %s", code, errOut)
	}
}

// TestEntitiesFactsWhileTheServerHoldsTheStore: the language server has
// the store open; the command reads a copy, asks, prints, and says the
// answers were not kept.
func TestEntitiesFactsWhileTheServerHoldsTheStore(t *testing.T) {
	root := bookProject(t, "pride-and-prejudice", 1, 1)
	writeFile(t, root, "entities/characters/mr-bingley.md", "---\nname: Mr. Bingley\nfacts: {}\n---\n")
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{factsReply(t, "Mr. Bingley", []map[string]any{
		item("fortune", "large", 1, "A single man of large fortune"),
	}, nil)}})
	writeFile(t, root, "flowcabal.toml", fmt.Sprintf("[models.agent]\nbase_url = %q\nmodel = \"m\"\n", srv.URL))
	st, err := store.Open(context.Background(), root, store.Options{Command: "flowcabal serve"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	code, out, errOut := runCLI(t, "", "entities", "facts", "--project", root)
	if code != exitOK || !strings.Contains(out, "new       fact fortune: large") || !strings.Contains(errOut, "not cached this time") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}
