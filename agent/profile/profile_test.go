package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
)

func TestFactualProfileFromTheIndex(t *testing.T) {
	root := projecttest.Copy(t, "pride-and-prejudice")
	p, _ := knowledge.LoadProject(root)
	var lizzy *knowledge.Entity
	for _, e := range p.Entities {
		if e.Name == "Elizabeth Bennet" {
			lizzy = e
		}
	}
	got := Factual(p, lizzy)
	for _, want := range []string{"# Elizabeth Bennet — profile", "Appears in ", "Last seen in chapter 10", "Appears most with: ", "Facts as of chapter 10:", "- eyes: dark", "Relations:", "love-interest: entities/characters/fitzwilliam-darcy"} {
		if !strings.Contains(got, want) {
			t.Errorf("profile lacks %q:\n%s", want, got)
		}
	}
}

func TestRegenerateKeepsTheAuthorsSectionAndIsIdempotent(t *testing.T) {
	root := projecttest.Copy(t, "pride-and-prejudice")
	p, _ := knowledge.LoadProject(root)
	prof := filepath.Join(root, "profiles", "characters", "elizabeth-bennet.md")
	mine := "<!-- author -->\nShe must never forgive Darcy too quickly.\n<!-- /author -->"
	old, _ := os.ReadFile(prof)
	if err := os.WriteFile(prof, append(old, []byte("\n"+mine+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := Regenerate(root, p, "Elizabeth smiled at her sister.")
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0] != "profiles/characters/elizabeth-bennet.md" {
		t.Fatalf("changed %v, want only Elizabeth's profile", changed)
	}
	data, _ := os.ReadFile(prof)
	if !strings.Contains(string(data), mine) || !strings.Contains(string(data), "generated: factual") {
		t.Fatalf("the regenerated profile:\n%s", data)
	}
	if _, err := knowledge.ParseDocument("profiles/characters/elizabeth-bennet.md", data); err != nil {
		t.Errorf("the profile's front matter does not parse: %v", err)
	}
	again, err := Regenerate(root, p, "Elizabeth smiled at her sister.")
	if err != nil || len(again) != 0 {
		t.Errorf("a second regeneration changed %v (%v)", again, err)
	}
}

func TestSpans(t *testing.T) {
	if got := spans([]int{1, 2, 3, 7, 9, 10}); got != "1–3, 7, 9–10" {
		t.Errorf("spans = %q", got)
	}
}
