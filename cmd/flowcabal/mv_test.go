package main

import (
	"errors"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mvProject is a small project with Chinese names and astral characters
// before every path a move rewrites.
func mvProject() map[string]string {
	return map[string]string{
		"flowcabal.toml":                   "",
		"README.md":                        "# 说明\n",
		"meta/style-guide.md":              "# 文风\n",
		"entities/characters/林黛玉.md":       "---\nname: 林黛玉\n---\n林黛玉。\n",
		"manuscript/chapter-01/content.md": "第一回 😀\n",
		"workflows/第一卷.flow": "# 😀 {{@entities/characters/林黛玉}} in a comment stays\nuse \"第二卷.flow\" as 续\n\nnode 开篇 \"𠀀\" {\n" +
			"  persist = \"manuscript/chapter-01\"\n  user \"\"\"\n    😀 {{@entities/characters/林黛玉:L1}} 与 {{@manuscript/chapter-01}}；{{续.承接}}\n  \"\"\"\n}\n",
		"workflows/第二卷.flow":   "use \"sub/子.flow\" as 子\n\nnode 承接 {\n  user \"𠀀 {{@entities/characters/林黛玉:L0}} {{子.末}}\"\n}\n",
		"workflows/sub/子.flow": "node 末 {\n  user \"😀 {{@meta/style-guide}}\"\n}\n",
	}
}

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	return projecttest.Write(t, files)
}

// readProject returns every file under dir, by slash path.
func readProject(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMvRewritesReferences moves files and folders and compares the whole
// project after with what it must be: the moved entries, the rewritten
// paths, and everything else byte for byte as before.
func TestMvRewritesReferences(t *testing.T) {
	before := mvProject()
	for _, tc := range []struct {
		name     string
		old, new string
		// want maps each path whose content changes (or that appears) to
		// its content, and each path that disappears to "".
		want map[string]string
	}{
		{
			name: "knowledge file", old: "entities/characters/林黛玉.md", new: "entities/characters/黛玉.md",
			want: map[string]string{
				"entities/characters/林黛玉.md": "",
				"entities/characters/黛玉.md":  before["entities/characters/林黛玉.md"],
				"workflows/第一卷.flow":         strings.Replace(before["workflows/第一卷.flow"], "{{@entities/characters/林黛玉:L1}}", "{{@entities/characters/黛玉:L1}}", 1),
				"workflows/第二卷.flow":         strings.Replace(before["workflows/第二卷.flow"], "林黛玉:L0", "黛玉:L0", 1),
			},
		},
		{
			name: "chapter folder", old: "manuscript/chapter-01", new: "manuscript/chapter-02",
			want: map[string]string{
				"manuscript/chapter-01/content.md": "",
				"manuscript/chapter-02/content.md": before["manuscript/chapter-01/content.md"],
				// The persist target is where output goes, not a reference: it stays.
				"workflows/第一卷.flow": strings.Replace(before["workflows/第一卷.flow"], "{{@manuscript/chapter-01}}", "{{@manuscript/chapter-02}}", 1),
			},
		},
		{
			name: "workflow into a subfolder", old: "workflows/第二卷.flow", new: "workflows/sub/第二卷.flow",
			want: map[string]string{
				"workflows/第二卷.flow":     "",
				"workflows/sub/第二卷.flow": strings.Replace(before["workflows/第二卷.flow"], `"sub/子.flow"`, `"子.flow"`, 1),
				"workflows/第一卷.flow":     strings.Replace(before["workflows/第一卷.flow"], `"第二卷.flow"`, `"sub/第二卷.flow"`, 1),
			},
		},
		{
			name: "folder of workflows", old: "workflows/sub", new: "workflows/子集",
			want: map[string]string{
				"workflows/sub/子.flow": "",
				"workflows/子集/子.flow":  before["workflows/sub/子.flow"],
				"workflows/第二卷.flow":   strings.Replace(before["workflows/第二卷.flow"], `"sub/子.flow"`, `"子集/子.flow"`, 1),
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeProject(t, before)
			code, out, errs := runCmd(t, runMv, filepath.Join(dir, tc.old), filepath.Join(dir, tc.new))
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			if !strings.HasPrefix(out, "moved "+tc.old+" -> "+tc.new+"\n") {
				t.Errorf("output:\n%s", out)
			}
			want := map[string]string{}
			for k, v := range before {
				want[k] = v
			}
			for k, v := range tc.want {
				if v == "" {
					delete(want, k)
				} else {
					want[k] = v
				}
			}
			got := readProject(t, dir)
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s:\n got %q\nwant %q", k, got[k], v)
				}
			}
			for k := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("unexpected file %s", k)
				}
			}
		})
	}
}

// TestMvRefusesAndChangesNothing: every refusal and failure leaves the
// project exactly as it was, with a message saying why.
func TestMvRefusesAndChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string // relative to the project; "-n" passed as is
		code     int
		msg      string
		failStep int // make the n-th rename fail (1: the move)
	}{
		{"new exists", []string{"meta/style-guide.md", "entities/characters/林黛玉.md"}, exitFindings, "never overwrites", 0},
		{"old missing", []string{"meta/nope.md", "meta/yes.md"}, exitFailure, "nothing to move", 0},
		{"outside the project", []string{"meta/style-guide.md", "../style.md"}, exitFindings, "is not in the project", 0},
		{"out of the knowledge folders", []string{"meta/style-guide.md", "style-guide.md"}, exitFindings, "{{@meta/style-guide}} names a file that leaves the knowledge folders", 0},
		{"not a workflow nor knowledge", []string{"README.md", "读我.md"}, exitFindings, "neither a workflow nor a knowledge file", 0},
		{"extension changes", []string{"workflows/第一卷.flow", "workflows/第一卷.txt"}, exitFindings, "keeps its .flow extension", 0},
		{"folder missing", []string{"meta/style-guide.md", "meta/new/style-guide.md"}, exitFindings, "folder of", 0},
		{"into itself", []string{"workflows", "workflows/inner"}, exitFindings, "into itself", 0},
		{"usage", []string{"meta/style-guide.md"}, exitUsage, "usage: flowcabal mv", 0},
		{"dry run", []string{"-n", "entities/characters/林黛玉.md", "entities/characters/黛玉.md"}, exitOK, "", 0},
		{"the move fails", []string{"entities/characters/林黛玉.md", "entities/characters/黛玉.md"}, exitFailure, "nothing was changed", 1},
		{"a rewrite fails", []string{"entities/characters/林黛玉.md", "entities/characters/黛玉.md"}, exitFailure, "the move was undone", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeProject(t, mvProject())
			before := readProject(t, dir)
			var args []string
			for _, a := range tc.args {
				if a != "-n" {
					a = filepath.Join(dir, a)
				}
				args = append(args, a)
			}
			if tc.failStep > 0 {
				n := 0
				mvRename = func(from, to string) error {
					if n++; n == tc.failStep {
						return errors.New("disk full")
					}
					return os.Rename(from, to)
				}
				t.Cleanup(func() { mvRename = os.Rename })
			}
			code, out, errs := runCmd(t, runMv, args...)
			if code != tc.code || !strings.Contains(errs, tc.msg) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			if tc.name == "dry run" && !strings.Contains(out, "would move entities/characters/林黛玉.md -> entities/characters/黛玉.md\n  workflows/第一卷.flow: 1 reference(s) rewritten\n  workflows/第二卷.flow: 1 reference(s) rewritten\n") {
				t.Errorf("dry run output:\n%s", out)
			}
			after := readProject(t, dir)
			for k, v := range before {
				if after[k] != v {
					t.Errorf("%s changed:\n%q\n->\n%q", k, v, after[k])
				}
			}
			for k := range after {
				if _, ok := before[k]; !ok {
					t.Errorf("file left behind: %s", k)
				}
			}
		})
	}
}
