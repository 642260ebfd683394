package profile

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
)

// BenchmarkPass is one multi-angle pass over chapter 3 of 紅樓夢 (8,500
// characters) against the loopback stand-in, the model asked every time
// (no cache): the cost the pass adds to a curation besides the model's
// own latency. It reports the size of the model's task.
func BenchmarkPass(b *testing.B) {
	root := projecttest.Copy(b, "hongloumeng")
	srv := llmtest.New(b, scripted(
		proposal{Path: "profiles/characters/lin-daiyu.md", Title: "林黛玉", Body: "黛玉初到榮國府，步步留心。"},
		proposal{Path: "profiles/themes/木石前盟.md", Title: "木石前盟", Body: "寶黛初會。"},
		proposal{Path: "profiles/style/voice.md", Title: "文風", Body: "白話夾文言，回目對仗。"}))
	f := fixtureAt(b, root, srv.URL, srv)
	data, err := os.ReadFile(filepath.Join(root, "manuscript", "chapter-03", "content.md"))
	if err != nil {
		b.Fatal(err)
	}
	kp, _ := knowledge.LoadProject(root)
	ps := Pass{Root: root, Project: kp, File: "manuscript/chapter-03/content.md", Text: string(data), Agents: f.m}
	for b.Loop() {
		if _, err := ps.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(utf8.RuneCountInString(ps.input())), "task-runes")
}

var _ Agents = (*core.Manager)(nil)

// BenchmarkPassCached is the same pass run again: the answer from the
// store, nothing written, no model call.
func BenchmarkPassCached(b *testing.B) {
	root := projecttest.Copy(b, "hongloumeng")
	srv := llmtest.New(b, scripted(
		proposal{Path: "profiles/characters/lin-daiyu.md", Title: "林黛玉", Body: "黛玉初到榮國府，步步留心。"},
		proposal{Path: "profiles/themes/木石前盟.md", Title: "木石前盟", Body: "寶黛初會。"}))
	f := fixtureAt(b, root, srv.URL, srv)
	data, err := os.ReadFile(filepath.Join(root, "manuscript", "chapter-03", "content.md"))
	if err != nil {
		b.Fatal(err)
	}
	kp, _ := knowledge.LoadProject(root)
	ps := Pass{Root: root, Project: kp, File: "manuscript/chapter-03/content.md", Text: string(data), Agents: f.m, Cache: f.st}
	if _, err := ps.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		out, err := ps.Run(context.Background())
		if err != nil || !out.Cached || len(out.Changed) != 0 {
			b.Fatalf("%+v %v", out, err)
		}
	}
}
