package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCleanRel(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		bad      bool
	}{
		{in: "meta/style-guide", want: "meta/style-guide"},
		{in: "manuscript/chapter-12/../chapter-13", want: "manuscript/chapter-13"},
		{in: "entities/人物/林黛玉", want: "entities/人物/林黛玉"},
		{in: "../../etc/passwd", bad: true},
		{in: "meta/../../x", bad: true},
		{in: "/etc/passwd", bad: true},
		{in: "C:/Windows", bad: true},
		{in: `meta\..\..\x`, bad: true},
		{in: "meta/\x00x", bad: true},
		{in: "", bad: true},
	} {
		got, err := CleanRel(tc.in)
		if tc.bad {
			if !errors.Is(err, ErrOutside) {
				t.Errorf("CleanRel(%q) = %q, %v; want ErrOutside", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CleanRel(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestResolveRefusesSymlinksOutOfTheProject(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "meta", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "meta"), filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(root, "meta/link/secret.md"); !errors.Is(err, ErrOutside) {
		t.Errorf("a symlink out of the project was followed: %v", err)
	}
	if _, err := Resolve(root, "meta/link/not-yet.md"); !errors.Is(err, ErrOutside) {
		t.Errorf("a new file under a symlink out of the project was allowed: %v", err)
	}
	if p, err := Resolve(root, "alias/style.md"); err != nil || !strings.HasSuffix(p, filepath.Join("alias", "style.md")) {
		t.Errorf("a symlink inside the project was refused: %q %v", p, err)
	}
	if _, err := Resolve(root, "../x"); !errors.Is(err, ErrOutside) {
		t.Errorf("../ was resolved: %v", err)
	}
}

func TestFindRoot(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "workflows", "act-1")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// Without flowcabal.toml, a knowledge folder marks the root.
	if err := os.MkdirAll(filepath.Join(root, "meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := FindRoot(deep); got != root {
		t.Errorf("FindRoot by knowledge folder = %s, want %s", got, root)
	}
	if err := os.WriteFile(filepath.Join(root, ConfigFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(deep, "x.flow")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := FindRoot(file); got != root {
		t.Errorf("FindRoot of a file = %s, want %s", got, root)
	}
}

func TestLoadConfig(t *testing.T) {
	root := t.TempDir()
	c, err := LoadConfig(root)
	if err != nil || c.Budget != DefaultBudget || c.Models == nil {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	toml := "budget = 16000\n[models.writer]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\napi_key_env = \"KEY\"\n"
	if err := os.WriteFile(filepath.Join(root, ConfigFile), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = LoadConfig(root)
	if err != nil || c.Budget != 16000 || !c.Models["writer"].Configured() || c.Models["writer"].APIKeyEnv != "KEY" {
		t.Fatalf("loaded: %+v %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(root, ConfigFile), []byte("budget = \n[models"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(root); err == nil || !strings.Contains(err.Error(), ConfigFile) {
		t.Errorf("a malformed config gave %v, want an error naming the file", err)
	}
}

func TestResourcePath(t *testing.T) {
	for in, want := range map[string]string{
		"meta/style-guide.md":              "meta/style-guide",
		"manuscript/chapter-12/content.md": "manuscript/chapter-12",
		"entities/characters/林黛玉.md":       "entities/characters/林黛玉",
	} {
		if got := ResourcePath(in); got != want {
			t.Errorf("ResourcePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrices(t *testing.T) {
	dir := t.TempDir()
	toml := `max_cost = 0.5
[models.writer]
base_url = "http://127.0.0.1:1/v1"
model = "gpt-4o-mini"
[models.agent]
base_url = "http://127.0.0.1:1/v1"
model = "deepseek-chat"
[prices.writer]
input = 0.15
output = 0.60
[prices."deepseek-chat"]
input = 0.27
output = 1.10
`
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxCost != 0.5 {
		t.Errorf("max_cost %v", c.MaxCost)
	}
	for _, tc := range []struct {
		name, model string
		want        Price
		ok          bool
	}{
		{"writer", "gpt-4o-mini", Price{0.15, 0.60}, true},
		{"", "gpt-4o-mini-2024-07-18", Price{0.15, 0.60}, true}, // the id an endpoint reports
		{"agent", "deepseek-chat", Price{0.27, 1.10}, true},
		{"embedding", "text-embedding-3-small", Price{}, false},
	} {
		p, ok := c.PriceOf(tc.name, tc.model)
		if p != tc.want || ok != tc.ok {
			t.Errorf("PriceOf(%q, %q) = %v, %v; want %v, %v", tc.name, tc.model, p, ok, tc.want, tc.ok)
		}
	}
	if got := (Price{Input: 0.15, Output: 0.60}).Cost(1_000_000, 500_000); got != 0.45 {
		t.Errorf("Cost = %v, want 0.45", got)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte("[prices.writer]\ninput = -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), "prices.writer") {
		t.Errorf("a negative price: %v", err)
	}
}
