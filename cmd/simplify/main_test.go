package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/longbridgeapp/opencc"
)

// TestSimplifyTree: entity files and chapters come out in simplified
// characters, and a planted case keeps its id, its planted word is
// converted and its span still covers it.
func TestSimplifyTree(t *testing.T) {
	cc, err := opencc.New("t2s")
	if err != nil {
		t.Fatal(err)
	}
	src, dst := t.TempDir(), t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("entities/characters/jiamu.md", "---\nname: 賈母\n---\n榮府的老太太。\n")
	c := map[string]any{"id": "hlm-x-01", "type": "name", "original_excerpt": "寶玉說：賈母來了。",
		"modified_excerpt": "寶玉說：買母來了。", "span": []int{4, 6}, "planted": "買母"}
	b, _ := json.Marshal(c)
	write("planted.jsonl", string(b)+"\n")
	if err := simplifyTree(cc.Convert, src, dst); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dst, "entities/characters/jiamu.md"))
	if err != nil || !strings.Contains(string(got), "name: 贾母") || !strings.Contains(string(got), "荣府") {
		t.Fatalf("entity file: %q, %v", got, err)
	}
	got, err = os.ReadFile(filepath.Join(dst, "planted.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		ID       string `json:"id"`
		Modified string `json:"modified_excerpt"`
		Span     []int  `json:"span"`
		Planted  string `json:"planted"`
	}
	if err := json.Unmarshal(got, &out); err != nil {
		t.Fatal(err)
	}
	if out.ID != "hlm-x-01" || out.Planted != "买母" || len(out.Span) != 2 {
		t.Fatalf("case: %+v", out)
	}
	if sp := string([]rune(out.Modified)[out.Span[0]:out.Span[1]]); !strings.Contains(sp, "买母") {
		t.Errorf("span %v covers %q, want the planted 买母", out.Span, sp)
	}
}

// TestRespanWidensToTheDifference: a span narrower than where the
// converted excerpts differ is widened to the difference.
func TestRespanWidensToTheDifference(t *testing.T) {
	c := map[string]any{"original_excerpt": "甲乙丙丁", "modified_excerpt": "甲戊己丁", "span": []any{1.0, 2.0}}
	respan(c)
	if sp := c["span"].([]int); sp[0] != 1 || sp[1] != 3 {
		t.Errorf("span %v, want [1 3]", sp)
	}
}
