package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/longbridgeapp/opencc"
)

// evalShared finds ../shared beside the repository by walking up from
// the test's folder (CI lays it beside the clone).
func evalShared(t *testing.T) string {
	t.Helper()
	return projecttest.Shared(t)
}

var closing = regexp.MustCompile(`(?m)^(baseline )?recall: ([0-9.]+) \((\d+)/(\d+)\) evidence: ([0-9.]+) \((\d+)/(\d+)\)$`)

type evalScore struct{ recall, evidence, baseRecall, baseEvidence float64 }

func scoreContextEval(t *testing.T, queries string, budget int) evalScore {
	t.Helper()
	sh := evalShared(t)
	s, out := runContextEval(t,
		"--book", filepath.Join(sh, "corpus", "pride-and-prejudice"),
		"--queries", filepath.Join(sh, "eval", queries),
		"--budget", strconv.Itoa(budget),
		"--entities", filepath.Join(sh, "eval", "pride-and-prejudice"),
		"--baseline",
	)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[len(lines)-1], "recall: ") || !strings.HasPrefix(lines[len(lines)-2], "baseline recall: ") {
		t.Fatalf("closing lines wrong:\n%s", out)
	}
	for _, want := range []string{"answer chapter rank: median ", "answer chapter considered but dropped for the budget: ", "strict recall: ", "baseline answer chapter rank: median "} {
		if !strings.Contains(out, "\n"+want) {
			t.Errorf("no %q line in the report", want)
		}
	}
	if !regexp.MustCompile(`(?m)^\S+ W=\d+ .* rank=(\d+|previous|-) injected=.* baseline_rank=(\d+|-)$`).MatchString(out) {
		t.Errorf("query lines give no rank:\n%s", lines[0])
	}
	t.Logf("%s at %d: recall %.2f evidence %.2f (baseline %.2f / %.2f)", queries, budget, s.recall, s.evidence, s.baseRecall, s.baseEvidence)
	return s
}

// runContextEval runs `flowcabal eval context` with args and returns the
// scores of its closing lines and its output.
func runContextEval(t *testing.T, args ...string) (evalScore, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	if code := runEvalContext(context.Background(), env, args); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var s evalScore
	for _, m := range closing.FindAllStringSubmatch(out.String(), -1) {
		r, _ := strconv.ParseFloat(m[2], 64)
		e, _ := strconv.ParseFloat(m[5], 64)
		if m[1] != "" {
			s.baseRecall, s.baseEvidence = r, e
		} else {
			s.recall, s.evidence = r, e
		}
	}
	return s, out.String()
}

// TestEvalContextChineseHard runs the hard Chinese set of testdata/assemble:
// simplified queries that name people by what the entity files say of them
// (role descriptions), paraphrase, or reach far back, on the traditional
// 红楼梦. Plain BM25 has no answer chapter in its top 3 for any of them.
// The entity files were rewritten from the book alone (they had been
// written with the queries, and echoed them): with them Role A's recall
// is no longer above its own without them at 24k (0.15 each), so the test
// holds what is true now: never below it, and above the baseline's.
func TestEvalContextChineseHard(t *testing.T) {
	sh := evalShared(t)
	args := []string{
		"--book", filepath.Join(sh, "corpus", "hongloumeng"),
		"--queries", filepath.Join("..", "..", "testdata", "assemble", "hongloumeng-hard-queries.jsonl"),
		"--budget", "24000", "--baseline",
	}
	without, _ := runContextEval(t, args...)
	with, out := runContextEval(t, append(args, "--entities", filepath.Join("..", "..", "testdata", "assemble", "hongloumeng-entities"))...)
	t.Logf("recall / evidence: with entities %.2f / %.2f, without %.2f / %.2f, baseline %.2f / %.2f",
		with.recall, with.evidence, without.recall, without.evidence, with.baseRecall, with.baseEvidence)
	if with.recall < without.recall || with.recall <= with.baseRecall || with.evidence <= with.baseEvidence {
		t.Errorf("with entities: recall %.2f evidence %.2f; want recall at least %.2f (without entities) and both above the baseline's %.2f / %.2f\n%s",
			with.recall, with.evidence, without.recall, with.baseRecall, with.baseEvidence, out)
	}
	// Chapters here are long (5–11k tokens): twice the budget must show
	// more, not spend itself on reading a few more wrong chapters whole.
	args[5] = "48000"
	wide, _ := runContextEval(t, append(args, "--entities", filepath.Join("..", "..", "testdata", "assemble", "hongloumeng-entities"))...)
	t.Logf("at 48k: recall %.2f evidence %.2f", wide.recall, wide.evidence)
	if wide.recall <= with.recall || wide.evidence <= with.evidence {
		t.Errorf("at 48k: recall %.2f evidence %.2f, not above 24k's %.2f / %.2f", wide.recall, wide.evidence, with.recall, with.evidence)
	}
}

// TestEvalContextTargets asserts the retrieval targets on the
// shared Pride and Prejudice sets.
func TestEvalContextTargets(t *testing.T) {
	type target struct {
		budget           int
		recall, evidence float64
	}
	targets := []target{{24000, 0.95, 0.85}, {8000, 0.85, 0.70}, {16000, 0, 0}}
	// Every budget from 2k to 14k, where reading whole chapters is what
	// the baseline does best, is held against the baseline.
	for b := 2000; b <= 14000; b += 1000 {
		if b != 8000 {
			targets = append(targets, target{budget: b})
		}
	}
	for _, tc := range targets {
		s := scoreContextEval(t, "role-a-queries.jsonl", tc.budget)
		if s.recall < tc.recall || s.evidence < tc.evidence {
			t.Errorf("at %d: recall %.2f evidence %.2f, want >= %.2f / %.2f", tc.budget, s.recall, s.evidence, tc.recall, tc.evidence)
		}
		if s.recall < s.baseRecall {
			t.Errorf("at %d: recall %.2f below the baseline's %.2f", tc.budget, s.recall, s.baseRecall)
		}
		// More evidence than the baseline, or all of it when the baseline
		// already has all.
		if s.evidence <= s.baseEvidence && s.evidence < 1 {
			t.Errorf("at %d: evidence %.2f not above the baseline's %.2f", tc.budget, s.evidence, s.baseEvidence)
		}
	}
	s := scoreContextEval(t, "role-a-queries-hard.jsonl", 24000)
	if s.recall < 0.7 || s.recall < s.baseRecall+0.2-1e-9 {
		t.Errorf("hard set at 24k: recall %.2f, want >= 0.70 and >= baseline %.2f + 0.20", s.recall, s.baseRecall)
	}
	if s.evidence <= s.baseEvidence {
		t.Errorf("hard set at 24k: evidence %.2f not above the baseline's %.2f", s.evidence, s.baseEvidence)
	}
	// A large budget is used: the chapters found are read whole, so the
	// evidence stays ahead of whole chapters by plain BM25.
	s = scoreContextEval(t, "role-a-queries-hard.jsonl", 64000)
	if s.evidence <= s.baseEvidence && s.evidence < 1 {
		t.Errorf("hard set at 64k: evidence %.2f not above the baseline's %.2f", s.evidence, s.baseEvidence)
	}
}

func TestEvalContextBadInput(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book")
	os.MkdirAll(book, 0o755)
	os.WriteFile(filepath.Join(book, "001.txt"), []byte("Chapter 1\n\nA fox ran.\n"), 0o644)
	os.WriteFile(filepath.Join(book, "003.txt"), []byte("Chapter 3\n\nA gap.\n"), 0o644)
	good := filepath.Join(dir, "q.jsonl")
	os.WriteFile(good, []byte(`{"id":"a","writing_chapter":2,"query":"the fox","answer_chapters":[1],"evidence":"A fox ran."}`+"\n"), 0o644)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{not json\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--book", book}, exitUsage, "usage"},
		{[]string{"--book", filepath.Join(dir, "none"), "--queries", good, "--budget", "1000"}, exitFailure, "read book"},
	} {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		if code := runEvalContext(context.Background(), env, tc.args); code != tc.code || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errb.String())
		}
	}
	for _, tc := range []struct {
		q    string
		code int
		want string
	}{{good, exitOK, "recall: 1.00 (1/1) evidence: 1.00 (1/1)"}, {bad, exitFailure, "bad.jsonl:1"}} {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		code := runEvalContext(context.Background(), env, []string{"--book", book, "--queries", tc.q, "--budget", "1000"})
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
			t.Errorf("%s: exit %d\n%s%s", tc.q, code, out.String(), errb.String())
		}
	}
}

// TestEvalContextChinese runs the Chinese query set of testdata/assemble
// (simplified queries) on the traditional 红楼梦, and the same queries
// in traditional characters on a simplified copy of the text.
func TestEvalContextChinese(t *testing.T) {
	sh := evalShared(t)
	queries := filepath.Join("..", "..", "testdata", "assemble", "hongloumeng-queries.jsonl")
	run := func(book, q string) (string, int) {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		code := runEvalContext(context.Background(), env, []string{"--book", book, "--queries", q, "--budget", "8000", "--baseline"})
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.String(), code
	}
	check := func(name, out string) {
		var rec, base float64
		for _, m := range closing.FindAllStringSubmatch(out, -1) {
			r, _ := strconv.ParseFloat(m[2], 64)
			if m[1] != "" {
				base = r
			} else {
				rec = r
			}
		}
		t.Logf("%s: recall %.2f (baseline %.2f)", name, rec, base)
		if rec < 0.85 || rec <= base {
			t.Errorf("%s: recall %.2f, want >= 0.85 and above the baseline's %.2f\n%s", name, rec, base, out)
		}
	}
	out, _ := run(filepath.Join(sh, "corpus", "hongloumeng"), queries)
	check("simplified queries, traditional text", out)

	// The other way round: a simplified text, traditional queries.
	s2t, err := opencc.New("s2t")
	if err != nil {
		t.Fatal(err)
	}
	folder := textsearch.NewFolder()
	book := t.TempDir()
	for n := 1; n <= 70; n++ {
		data, err := os.ReadFile(filepath.Join(sh, "corpus", "hongloumeng", fmt.Sprintf("%03d.txt", n)))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(book, fmt.Sprintf("%03d.txt", n)), []byte(folder.Fold(string(data))), 0o644)
	}
	data, _ := os.ReadFile(queries)
	var trad strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var q evalQuery
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatal(err)
		}
		if q.Query, err = s2t.Convert(q.Query); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(q)
		trad.Write(append(b, '\n'))
	}
	tq := filepath.Join(t.TempDir(), "trad.jsonl")
	os.WriteFile(tq, []byte(trad.String()), 0o644)
	out, _ = run(book, tq)
	check("traditional queries, simplified text", out)
}

// TestScoreDefinitions: Role A's hit is the baseline's (an answer chapter
// whole, or a passage of it holding the evidence); a summary or another
// passage of the answer chapter only reaches it.
func TestScoreDefinitions(t *testing.T) {
	ch := "Elizabeth walked to Netherfield. 𝄞 She came in muddy to the ankles.\n\nJane was ill."
	chapters := &book{nums: []int{1, 2, 3}, text: map[int]string{1: "one", 2: ch, 3: "three"}}
	path := chapterPath(2)
	at := strings.Index(ch, "Jane")
	for _, tc := range []struct {
		name         string
		src          assemble.Source
		text         string
		hit, reached bool
	}{
		{"whole chapter", assemble.Source{Path: path, Level: "L2"}, ch, true, true},
		{"passage with the quote", assemble.Source{Path: path, Level: "L2", Part: fmt.Sprintf("bytes 0-%d", at)}, ch[:at], true, true},
		{"another passage", assemble.Source{Path: path, Level: "L2", Part: fmt.Sprintf("bytes %d-%d", at, len(ch))}, ch[at:], false, true},
		{"summary", assemble.Source{Path: path, Level: "L1"}, "Elizabeth visits her sister.", false, true},
		{"another chapter whole", assemble.Source{Path: chapterPath(3), Level: "L2"}, "three", false, false},
	} {
		c := &assemble.Context{Sources: []assemble.Source{tc.src}, SystemPrefix: tc.text}
		q := evalQuery{AnswerChapters: []int{2}, Evidence: "muddy to the ankles"}
		hit, reached, _, _, err := score(c, q, chapters, textsearch.NewFolder())
		if err != nil || hit != tc.hit || reached != tc.reached {
			t.Errorf("%s: hit %v reached %v (%v), want %v %v", tc.name, hit, reached, err, tc.hit, tc.reached)
		}
	}
	// Offsets that do not name the injected passage are an error, not a miss.
	c := &assemble.Context{Sources: []assemble.Source{{Path: path, Level: "L2", Part: "bytes 5-9"}}, SystemPrefix: "unrelated"}
	if _, _, _, _, err := score(c, evalQuery{AnswerChapters: []int{2}}, chapters, textsearch.NewFolder()); err == nil {
		t.Error("a passage not in the context was scored")
	}
}

// TestEvalContextPrologueAndGaps: a book that starts at chapter 0 (a
// prologue) and skips a number is read as it is; the prologue is found
// from chapter 5, and chapter 4's previous chapter is 2.
func TestEvalContextPrologueAndGaps(t *testing.T) {
	dir := t.TempDir()
	bk := filepath.Join(dir, "book")
	os.MkdirAll(bk, 0o755)
	for name, text := range map[string]string{
		"000.txt": "楔子\n\n女娲补天时剩下一块顽石，弃在青埂峰下。\n",
		"001.txt": "第一章\n\n甄士隐梦中见一僧一道。\n",
		"002.txt": "第二章\n\n冷子兴演说荣国府。\n",
		"004.txt": "第四章\n\n葫芦僧判断葫芦案。\n",
	} {
		os.WriteFile(filepath.Join(bk, name), []byte(text), 0o644)
	}
	q := filepath.Join(dir, "q.jsonl")
	os.WriteFile(q, []byte(`{"id":"a","writing_chapter":5,"query":"那块补天剩下的顽石","answer_chapters":[0],"evidence":"剩下一块顽石"}`+"\n"+
		`{"id":"b","writing_chapter":4,"query":"接着写","answer_chapters":[2],"evidence":"冷子兴演说荣国府"}`+"\n"), 0o644)
	code, out, errs := runCLI(t, "", "eval", "context", "--book", bk, "--queries", q, "--budget", "2000", "-v")
	if code != exitOK || !strings.HasSuffix(out, "recall: 1.00 (2/2) evidence: 1.00 (2/2)\n") || !strings.Contains(out, "chapter-02/content.md L2  ") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "previous chapter") {
		t.Errorf("chapter 2 is not the previous chapter of 4 across the gap:\n%s", out)
	}
}
