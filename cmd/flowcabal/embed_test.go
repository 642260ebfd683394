package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

// withEmbeddingModel adds [models.embedding] at url to the project's
// flowcabal.toml.
func withEmbeddingModel(t *testing.T, root, url string) {
	t.Helper()
	p := filepath.Join(root, "flowcabal.toml")
	data, _ := os.ReadFile(p)
	data = append(data, fmt.Sprintf("\n[models.embedding]\nbase_url = %q\nmodel = \"stand-in-embed\"\n", url)...)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func embedCalls(srv *llmtest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Endpoint == "embeddings" {
			n++
		}
	}
	return n
}

var embedLine = regexp.MustCompile(`embeddings: (\d+) passages \(stand-in-embed\): (\d+) cached, (\d+) embedded in (\d+) calls?`)

// TestIndexEmbeds: index embeds the passages when the project configures
// an embedding model, never the same text twice, and not at all with
// -no-embed.
func TestIndexEmbeds(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Dimensions: 32})
	root := copySample(t)
	withEmbeddingModel(t, root, srv.URL)

	code, out, errs := runCLI(t, "", "index", root)
	m := embedLine.FindStringSubmatch(out)
	if code != exitOK || m == nil {
		t.Fatalf("index: exit %d, no embeddings line:\n%s\n%s", code, out, errs)
	}
	if m[1] == "0" || m[2] != "0" || m[3] != m[1] || m[4] == "0" {
		t.Errorf("first index: %s", m[0])
	}
	first := embedCalls(srv)
	if fmt.Sprint(first) != m[4] {
		t.Errorf("%d requests, the report says %s calls", first, m[4])
	}

	code, out, _ = runCLI(t, "", "index", "-json", root)
	var rep struct {
		Embeddings *embedSummary `json:"embeddings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != exitOK || err != nil || rep.Embeddings == nil {
		t.Fatalf("index -json: exit %d, %v:\n%s", code, err, out)
	}
	if e := rep.Embeddings; e.Cached != e.Texts || e.Embedded != 0 || e.Calls != 0 || e.Error != "" {
		t.Errorf("second index embedded again: %+v", e)
	}
	if n := embedCalls(srv); n != first {
		t.Errorf("second index made %d embedding requests", n-first)
	}

	// A changed chapter: only its new passage is sent.
	ch := filepath.Join(root, "manuscript", "chapter-03", "content.md")
	data, err := os.ReadFile(ch)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ch, append(data, "\n\nA new last paragraph, written today.\n"...), 0o644)
	_, out, _ = runCLI(t, "", "index", root)
	if m := embedLine.FindStringSubmatch(out); m == nil || m[3] != "1" || m[4] != "1" {
		t.Errorf("after a one-paragraph change: %q", m)
	}

	code, out, _ = runCLI(t, "", "index", "-no-embed", root)
	if code != exitOK || strings.Contains(out, "embeddings:") || embedCalls(srv) != first+1 {
		t.Errorf("-no-embed: exit %d, %d requests:\n%s", code, embedCalls(srv), out)
	}
}

// TestIndexEmbedDeadEndpoint: a dead endpoint is reported; the index
// succeeds.
func TestIndexEmbedDeadEndpoint(t *testing.T) {
	root := copySample(t)
	withEmbeddingModel(t, root, llmtest.DeadURL(t))
	code, out, errs := runCLI(t, "", "index", root)
	if code != exitOK {
		t.Fatalf("index failed for a dead embedding endpoint: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "chapters:   10") || !regexp.MustCompile(`0 embedded in [1-4] calls?`).MatchString(out) ||
		!strings.Contains(out, "embeddings: incomplete") || !strings.Contains(out, "Role A searches them lexically") {
		t.Errorf("output:\n%s", out)
	}
}

// paraphraseBook writes a book of twelve chapters in which chapter 3
// tells of a parting in other words than the query's, and a query file.
func paraphraseBook(t *testing.T) (book, queries string) {
	t.Helper()
	dir := t.TempDir()
	book = filepath.Join(dir, "book")
	os.MkdirAll(book, 0o755)
	words := strings.Fields(`carriage road town officers dined ball music candles supper card table militia regiment
horses stable garden gravel path morning breakfast letter post village church rector sermon estate rent tenant`)
	for n := 1; n <= 12; n++ {
		var b strings.Builder
		for p := 0; p < 6; p++ {
			for i := 0; i < 40; i++ {
				b.WriteString(words[(n*7+p*13+i*5)%len(words)] + " ")
			}
			b.WriteString(".\n\n")
			if n == 3 && p == 2 {
				b.WriteString("Her sorrow was very great, and there were tears at the parting from dear Jane.\n\n")
			}
		}
		os.WriteFile(filepath.Join(book, fmt.Sprintf("%03d.txt", n)), []byte(b.String()), 0o644)
	}
	queries = filepath.Join(dir, "q.jsonl")
	os.WriteFile(queries, []byte(`{"id":"p1","writing_chapter":13,"query":"Recall the grief and weeping of the farewell to her beloved sister.","answer_chapters":[3],"evidence":"Her sorrow was very great"}`+"\n"), 0o644)
	return book, queries
}

// TestEvalContextEmbeddings: with --embeddings, a query in other words
// than the book's finds its chapter through the configured model (here
// the scripted stand-in, whose synonyms play meaning); the same run twice
// prints the same bytes; without the flag the search is lexical.
func TestEvalContextEmbeddings(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Dimensions: 256, Synonyms: map[string]string{
		"grief": "sorrow", "weeping": "tears", "farewell": "parting", "beloved": "dear", "sister": "jane"}})
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "flowcabal.toml"), nil, 0o644)
	withEmbeddingModel(t, proj, srv.URL)
	book, queries := paraphraseBook(t)
	args := []string{"eval", "context", "--book", book, "--queries", queries, "--budget", "1500"}

	code, lexical, errs := runCLI(t, "", args...)
	if code != exitOK || !strings.HasSuffix(lexical, "recall: 0.00 (0/1) evidence: 0.00 (0/1)\n") {
		t.Fatalf("lexical: exit %d (%s):\n%s", code, errs, lexical)
	}
	withEmb := append(args, "--embeddings", "--project", proj, "-v")
	code, out, errs := runCLI(t, "", withEmb...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; last != "recall: 1.00 (1/1) evidence: 1.00 (1/1)" {
		t.Errorf("closing line %q:\n%s", last, out)
	}
	if !strings.HasPrefix(lines[len(lines)-2], "embeddings: stand-in-embed, ") || !strings.Contains(lines[len(lines)-2], "used for 1 queries") {
		t.Errorf("embeddings line %q", lines[len(lines)-2])
	}
	if !strings.Contains(out, "similar in meaning to the prompt (cos ") || !strings.Contains(out, "note: embeddings: stand-in-embed") {
		t.Errorf("provenance lacks the semantic reason or note:\n%s", out)
	}
	if _, again, _ := runCLI(t, "", withEmb...); again != out {
		t.Errorf("a second run differs:\n%s\n---\n%s", again, out)
	}

	// Without a configured model the flag is a usage error.
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "flowcabal.toml"), nil, 0o644)
	if code, _, errs := runCLI(t, "", append(args, "--embeddings", "--project", empty)...); code != exitUsage || !strings.Contains(errs, "[models.embedding]") {
		t.Errorf("no model: exit %d, %q", code, errs)
	}
	// A dead endpoint: the run completes lexically and says why.
	dead := t.TempDir()
	os.WriteFile(filepath.Join(dead, "flowcabal.toml"), nil, 0o644)
	withEmbeddingModel(t, dead, llmtest.DeadURL(t))
	code, out, _ = runCLI(t, "", append(args, "--embeddings", "--project", dead, "-v")...)
	if code != exitOK || !strings.HasSuffix(out, "recall: 0.00 (0/1) evidence: 0.00 (0/1)\n") ||
		!strings.Contains(out, "note: embeddings unavailable") || !strings.Contains(out, "unavailable after that") {
		t.Errorf("dead endpoint: exit %d:\n%s", code, out)
	}
}

// TestEvalContextRefine: with --refine, the agent model's reading of a
// query (scripted: the threads it recalls) joins the search.
func TestEvalContextRefine(t *testing.T) {
	yes := true
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Schema: &yes, Contains: "farewell"},
		JSON: json.RawMessage(`{"entities": [], "threads": ["sorrow and tears at the parting"], "locations": []}`)}}})
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "flowcabal.toml"), []byte(fmt.Sprintf("[models.agent]\nbase_url = %q\nmodel = \"stand-in-agent\"\n", srv.URL)), 0o644)
	book, queries := paraphraseBook(t)
	args := []string{"eval", "context", "--book", book, "--queries", queries, "--budget", "1500", "--refine", "--project", proj, "-v"}
	code, out, errs := runCLI(t, "", args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[len(lines)-1] != "recall: 1.00 (1/1) evidence: 1.00 (1/1)" || lines[len(lines)-2] != "refinement: stand-in-agent read 1 queries" {
		t.Errorf("closing lines:\n%s", out)
	}
	if !strings.Contains(out, `note: intent refined by stand-in-agent: searched for "sorrow and tears at the parting"`) {
		t.Errorf("no refinement note:\n%s", out)
	}
	if code, _, errs := runCLI(t, "", "eval", "context", "--book", book, "--queries", queries, "--budget", "1500", "--refine", "--project", t.TempDir()); code == exitOK {
		t.Errorf("--refine without a project config: exit 0 (%s)", errs)
	}
}

// TestIndexEmbedMissingKey: a key variable that is not set is reported;
// the index succeeds without embeddings.
func TestIndexEmbedMissingKey(t *testing.T) {
	root := copySample(t)
	p := filepath.Join(root, "flowcabal.toml")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, append(data, "\n[models.embedding]\nbase_url = \"https://embed.example/v1\"\nmodel = \"e\"\napi_key_env = \"FLOWCABAL_TEST_UNSET_KEY\"\n"...), 0o644)
	code, out, errs := runCLI(t, "", "index", root)
	if code != exitOK || strings.Contains(out, "embeddings:") || !strings.Contains(errs, "embeddings:") || !strings.Contains(errs, "FLOWCABAL_TEST_UNSET_KEY") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}
