package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bookProject lays chapters first..last of a shared book out as a
// project's manuscript (manuscript/chapter-NNN/content.md) in a temp dir.
func bookProject(t *testing.T, book string, first, last int) string {
	t.Helper()
	src := filepath.Join(evalShared(t), "corpus", book)
	root := t.TempDir()
	for n := first; n <= last; n++ {
		data, err := os.ReadFile(filepath.Join(src, fmt.Sprintf("%03d.txt", n)))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(root, "manuscript", fmt.Sprintf("chapter-%03d", n))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "content.md"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestEntitiesSuggestCommand(t *testing.T) {
	root := bookProject(t, "pride-and-prejudice", 1, 12)
	own := filepath.Join(root, "entities", "characters", "darcy.md")
	ownText := "---\nname: Fitzwilliam Darcy\naliases: [Mr. Darcy, Darcy]\nkind: character\n---\n"
	if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(own, []byte(ownText), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runCLI(t, "", "entities", "suggest", "--project", root, "--json", "--top", "20")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(got) == 0 || len(got) > 20 {
		t.Fatalf("%d suggestions", len(got))
	}
	var names []string
	elizabeth := ""
	for _, s := range got {
		for _, k := range []string{"name", "aliases", "kind", "mentions", "first_chapter", "last_chapter", "related"} {
			if _, ok := s[k]; !ok {
				t.Fatalf("no %q in %v", k, s)
			}
		}
		names = append(names, s["name"].(string))
		for _, a := range append([]any{s["name"]}, s["aliases"].([]any)...) {
			if a == "Elizabeth" {
				elizabeth = s["name"].(string)
			}
		}
	}
	if elizabeth == "" || !slices.Contains(names, "Jane") {
		t.Errorf("Elizabeth and Jane not among %v", names)
	}
	// Nothing is written without --write.
	if des, _ := os.ReadDir(filepath.Join(root, "entities", "characters")); len(des) != 1 {
		t.Fatalf("files were written without --write: %v", des)
	}

	code, out, errOut = runCLI(t, "", "entities", "suggest", "--project", root, "--top", "10")
	if code != exitOK || !strings.Contains(out, "entities/characters/darcy.md") || !strings.Contains(out, "(none)") {
		t.Fatalf("table (exit %d): %s%s", code, out, errOut)
	}

	code, _, errOut = runCLI(t, "", "entities", "suggest", "--project", root, "--top", "10", "--write")
	if code != exitOK {
		t.Fatalf("--write: exit %d: %s", code, errOut)
	}
	draft := strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(elizabeth, ".", ""), " ", "-")) + ".md"
	data, err := os.ReadFile(filepath.Join(root, "entities", "characters", draft))
	if err != nil || !strings.Contains(string(data), "draft: true") || !strings.Contains(string(data), "name: "+elizabeth) {
		t.Fatalf("draft of Elizabeth: %v\n%s\n%s", err, data, errOut)
	}
	if b, _ := os.ReadFile(own); string(b) != ownText {
		t.Fatalf("the author's file was changed:\n%s", b)
	}
	if strings.Contains(errOut, "darcy") {
		t.Errorf("a draft for Darcy, who has a file: %s", errOut)
	}
	// Again: every suggestion has a file now, nothing more is written.
	_, _, errOut = runCLI(t, "", "entities", "suggest", "--project", root, "--top", "10", "--write")
	if strings.Contains(errOut, "wrote") {
		t.Errorf("second --write wrote again: %s", errOut)
	}
}

func TestEntitiesSuggestUsage(t *testing.T) {
	for _, args := range [][]string{{"entities"}, {"entities", "nope"}, {"entities", "suggest", "--top", "-1"}, {"eval", "entities"}} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if code, _, _ := runCLI(t, "", "entities", "suggest", "--project", t.TempDir()); code != exitFailure {
		t.Errorf("a project without chapters: exit %d, want %d", code, exitFailure)
	}
}

func TestEvalEntitiesCommand(t *testing.T) {
	sh := evalShared(t)
	code, out, errOut := runCLI(t, "", "eval", "entities", "--book", filepath.Join(sh, "corpus", "pride-and-prejudice"), "--entities", filepath.Join(sh, "eval", "pride-and-prejudice"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"found: 15/15 in the top 40", "entries merging two people: 0", "aliases merged:"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
