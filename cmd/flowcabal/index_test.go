package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/store"
)

func copySample(t *testing.T) string {
	t.Helper()
	return projecttest.Copy(t, "pride-and-prejudice")
}

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := dispatch(context.Background(), env, args)
	return code, out.String(), errb.String()
}

func TestIndexExportImportCommands(t *testing.T) {
	root := copySample(t)
	code, out, errs := runCLI(t, "", "index", "-summarize", root)
	if code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	for _, want := range []string{"chapters:   10 in 1 arcs", "characters: 15 (of", "0 pending"} {
		if !strings.Contains(out, want) {
			t.Errorf("index output lacks %q:\n%s", want, out)
		}
	}
	if errs != "" {
		t.Errorf("progress written off a terminal: %q", errs)
	}
	code, out, _ = runCLI(t, "", "index", "-json", root)
	var rep struct {
		store.IndexReport
		Root string `json:"root"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil || rep.Unchanged != rep.Scanned || rep.Chapters != 10 {
		t.Errorf("second index -json: exit %d, %+v\n%s", code, rep, out)
	}

	exportFile := filepath.Join(t.TempDir(), "backup.json")
	if code, _, errs := runCLI(t, "", "db", "export", "-o", exportFile, root); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(exportFile)
	var doc store.Export
	if err != nil || json.Unmarshal(data, &doc) != nil || doc.Format != store.ExportFormat || len(doc.Buckets["levels"]) == 0 {
		t.Fatalf("export file: %v, format %q", err, doc.Format)
	}

	other := copySample(t)
	code, out, errs = runCLI(t, "", "db", "import", exportFile, other)
	if code != exitOK || !strings.Contains(out, "resources") {
		t.Fatalf("import: exit %d: %s %s", code, out, errs)
	}
	code, out, _ = runCLI(t, string(data), "db", "import", "-replace", "-", other)
	if code != exitOK {
		t.Fatalf("import from stdin: exit %d", code)
	}
	code, out, _ = runCLI(t, "", "index", "-json", other)
	if code != exitOK || !strings.Contains(out, `"pending_summaries": 0`) || !strings.Contains(out, `"added": 0`) {
		t.Errorf("index after import did work the import should have saved:\n%s", out)
	}

	if code, _, _ := runCLI(t, "", "db", "import", filepath.Join(t.TempDir(), "missing.json"), other); code != exitFailure {
		t.Errorf("import of a missing file: exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "index", "-nope"); code != exitUsage {
		t.Errorf("bad flag: exit %d", code)
	}
	if code, _, errs := runCLI(t, "", "db", "export", t.TempDir()); code != exitFailure || !strings.Contains(errs, "no project store") {
		t.Errorf("export without a store: exit %d %s", code, errs)
	}
}

func TestIndexCommandWhileLocked(t *testing.T) {
	root := copySample(t)
	s, err := store.Open(context.Background(), root, store.Options{Command: "flowcabal serve"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "", "index", "-wait", "100ms", root)
	if code != exitFailure || !strings.Contains(errs, "flowcabal serve") || !strings.Contains(errs, strconv.Itoa(os.Getpid())) {
		t.Errorf("index while locked: exit %d, %q", code, errs)
	}
	// Export reads a copy while the store is held.
	code, out, errs := runCLI(t, "", "db", "export", root)
	if code != exitOK || !strings.Contains(out, `"resources"`) {
		t.Errorf("export while locked: exit %d %s", code, errs)
	}
}

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := newProgressBar(&buf)
	p.update(1, 2, "a.md")
	if buf.Len() != 0 {
		t.Fatalf("progress drawn off a terminal: %q", buf.String())
	}
	p.on, p.width = true, 60
	p.update(5, 10, "manuscript/chapter-005/content.md")
	got := buf.String()
	if !strings.HasPrefix(got, "\r[") || !strings.Contains(got, "5/10") || !strings.Contains(got, "#") || !strings.HasSuffix(got, "\x1b[K") {
		t.Errorf("bar = %q", got)
	}
	if n := len([]rune(strings.TrimSuffix(got, "\x1b[K"))); n > 60 {
		t.Errorf("bar is %d runes on a 60-column terminal", n)
	}
	p.finish()
	if !strings.HasSuffix(buf.String(), "\r\x1b[K") {
		t.Errorf("finish does not clear the line: %q", buf.String())
	}
}
