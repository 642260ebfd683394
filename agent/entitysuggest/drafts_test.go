package entitysuggest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/knowledge"
)

func TestDrafts(t *testing.T) {
	root := t.TempDir()
	authors := "---\nname: Elizabeth Bennet\naliases: [Lizzy]\nkind: character\n---\nThe author's own.\n"
	own := filepath.Join(root, "entities", "characters", "elizabeth-bennet.md")
	taken := filepath.Join(root, "entities", "characters", "fitzwilliam-darcy.md")
	for p, body := range map[string]string{own: authors, taken: "not an entity file, but a file all the same\n"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := knowledge.LoadProject(root)
	sugg := []Suggestion{
		{Name: "Lizzy", Aliases: []string{"Miss Lizzy"}, Kind: KindCharacter, Mentions: 90, FirstChapter: 1, LastChapter: 60},
		{Name: "Fitzwilliam Darcy", Aliases: []string{"Mr. Darcy", "Darcy"}, Kind: KindCharacter, Mentions: 370, FirstChapter: 3, LastChapter: 61, Related: []string{"Elizabeth"}},
		{Name: "Netherfield Park", Aliases: []string{"Netherfield"}, Kind: KindLocation, Mentions: 70, FirstChapter: 1, LastChapter: 55},
		{Name: "賈寶玉", Aliases: []string{"寶玉"}, Kind: KindCharacter, Mentions: 4000, FirstChapter: 1, LastChapter: 120},
	}
	existing := Existing(sugg, p.Entities, testFolder)
	if existing[0] == nil || existing[0].Name != "Elizabeth Bennet" || existing[1] != nil {
		t.Fatalf("existing: %v", existing)
	}
	written, err := WriteDrafts(root, sugg, existing)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"entities/characters/fitzwilliam-darcy-2.md", "entities/locations/netherfield-park.md", "entities/characters/賈寶玉.md"}
	if len(written) != len(want) {
		t.Fatalf("written %v, want %v", written, want)
	}
	for i := range want {
		if written[i] != want[i] {
			t.Errorf("written[%d] = %s, want %s", i, written[i], want[i])
		}
	}
	for p, body := range map[string]string{own: authors, taken: "not an entity file, but a file all the same\n"} {
		if got, _ := os.ReadFile(p); string(got) != body {
			t.Errorf("%s was changed:\n%s", p, got)
		}
	}
	// The drafts read back as entities of the project's format.
	p2, errs := knowledge.LoadProject(root)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	d := p2.Entity("entities/characters/fitzwilliam-darcy-2")
	if d == nil || d.Name != "Fitzwilliam Darcy" || len(d.Aliases) != 2 || d.Kind != KindCharacter || len(d.Facts) != 0 {
		t.Fatalf("draft read back as %+v", d)
	}
	if l := p2.Entity("entities/locations/netherfield-park"); l == nil || l.Kind != KindLocation {
		t.Fatalf("location draft: %+v", l)
	}
	raw, _ := os.ReadFile(filepath.Join(root, "entities/characters/fitzwilliam-darcy-2.md"))
	if !strings.Contains(string(raw), "draft: true") {
		t.Errorf("no draft: true in\n%s", raw)
	}
	// A second run writes nothing: every suggestion has its file now.
	again, err := WriteDrafts(root, sugg, Existing(sugg, p2.Entities, testFolder))
	if err != nil || len(again) != 0 {
		t.Fatalf("second run wrote %v (%v)", again, err)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Lady Catherine de Bourgh": "lady-catherine-de-bourgh",
		"Mr. Darcy":                "mr-darcy",
		"Natásha":                  "natásha",
		"賈寶玉":                      "賈寶玉",
		"../../etc/passwd":         "etc-passwd",
		"":                         "entity",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
