package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runEvalImportArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := runEval(context.Background(), env, append([]string{"import"}, args...))
	return code, out.String(), errb.String()
}

func TestEvalImport(t *testing.T) {
	code, out, errs := runEvalImportArgs(t, "testdata/evalimport")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"cases split exactly as expected: 1/1", "recall 1.000, precision 1.000"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// The same case with an expectation the importer does not meet: each
	// kind of difference is reported, and the case fails.
	dir := filepath.Join(t.TempDir(), "wrong")
	if err := os.CopyFS(dir, os.DirFS("testdata/evalimport/web")); err != nil {
		t.Fatal(err)
	}
	exp, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer(`"number": 2`, `"number": 3`, `"第一卷 風起", "first_chapter": 1`, `"第一卷 風起", "first_chapter": 2`,
		`"encoding": "utf-8"`, `"encoding": "big5"`, `"這一日正是花朝節。"`, `"那一日正是花朝節。"`)
	if err := os.WriteFile(filepath.Join(dir, "expected.json"), []byte(r.Replace(string(exp))), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runEvalImportArgs(t, "-v", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"FAIL",
		`chapter "第2章 再見": number 2 chapter, want 3 chapter`,
		`arc "第一卷 風起" from chapter 2 not found`,
		"read as utf-8, want big5",
		`extra "番外 花朝" not found`,
		"cases split exactly as expected: 0/1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The import sets written apart from the importer (testdata/eval/import,
// import2) hold their figures: every chapter placed, numbered and headed
// as the writer expected, and every case split exactly but import's
// case11 (its writer reads "Book One, Chapter I" as no arc; the importer
// keeps the arc).
func TestEvalImportSets(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{"../../testdata/eval/import", []string{
			"cases split exactly as expected: 15/16",
			"placed: recall 1.000, precision 1.000; right number and kind 1.000; right heading 1.000",
			`found an arc not expected: "Book One" from chapter 1`,
		}},
		{"../../testdata/eval/import2", []string{
			"cases split exactly as expected: 16/16",
			"chapters: 139 expected, 139 found; placed: recall 1.000, precision 1.000; right number and kind 1.000; right heading 1.000",
		}},
	} {
		code, out, errs := runEvalImportArgs(t, tc.dir)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", tc.dir, code, errs)
		}
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q:\n%s", tc.dir, want, out)
			}
		}
	}
}
