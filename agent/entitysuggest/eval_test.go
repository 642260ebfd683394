package entitysuggest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/knowledge"
)

// sharedDir finds shared/<rel> by walking up from the package: the books
// and the evaluation data live beside the repository (../shared).
func sharedDir(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "shared", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if filepath.Dir(d) == d {
			t.Fatalf("shared/%s not found above %s", rel, dir)
		}
	}
}

func loadEntities(t testing.TB, dir string) []*knowledge.Entity {
	t.Helper()
	p, errs := knowledge.LoadProject(dir)
	if len(errs) > 0 {
		t.Fatalf("entities of %s: %v", dir, errs)
	}
	if len(p.Entities) == 0 {
		t.Fatalf("no entities under %s", dir)
	}
	return p.Entities
}

func TestEvalScratch(t *testing.T) {
	book := os.Getenv("BOOK")
	ents := os.Getenv("ENTS")
	if book == "" {
		book, ents = "pride-and-prejudice", sharedDir(t, "eval/pride-and-prejudice")
	}
	chs, err := ReadBook(sharedDir(t, "corpus/"+book))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), chs, loadEntities(t, ents), EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.Format(&b, 40)
	for i, s := range rep.Suggestions {
		b.WriteString(strings.Repeat(" ", 0))
		b.WriteString(fmtS(i, s))
	}
	t.Log("\n" + b.String())
}

func fmtS(i int, s Suggestion) string {
	return strings.Join([]string{itoa(i + 1), s.Kind, s.Name, itoa(s.Mentions), itoa(s.Chapters), strings.Join(s.Aliases, "|"), "rel:" + strings.Join(s.Related, ",")}, "\t") + "\n"
}

func itoa(n int) string { return strconv.Itoa(n) }
