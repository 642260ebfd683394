package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/flowcabal/flowcabal/workflowlang"
	"github.com/sourcegraph/conc/iter"
)

// proseProject is what the fact checks of one project need, read once.
type proseProject struct {
	root  string
	kp    *knowledge.Project
	facts *factcheck.Knowledge
	last  int // the highest chapter number, for outputs (the next chapter)
}

// checkProse runs Role C's deterministic checks on chapters and node
// outputs, as the editor does: each chapter as its own number (facts as of
// it) with the chapter before it for continuity; an output as the chapter
// its node persists to, else the chapter after the last. The exit code is
// exitFindings when a finding is an error, exitFailure when a file or a
// project could not be read.
func checkProse(ctx context.Context, env *cliEnv, files []string) ([]jsonDiagnostic, int) {
	projects := map[string]*proseProject{}
	folder := textsearch.NewFolder()
	code := exitOK
	bar := newProgressBar(env.stderr)
	defer bar.finish()
	// The files are read in order, then checked on every core: Role C's
	// knowledge is safe for concurrent checks, and a whole book is
	// thousands of independent chapters.
	type job struct {
		name, text, body string
		off, ch          int
		pp               *proseProject
		prev             string
	}
	var jobs []*job
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
			return nil, exitFailure
		}
		abs, err := filepath.Abs(name)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
			code = exitFailure
			continue
		}
		root, err := project.FindRoot(filepath.Dir(abs))
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %s: %v\n", name, err)
			code = exitFailure
			continue
		}
		pp, ok := projects[root]
		if !ok {
			kp, errs := knowledge.LoadProject(root)
			for _, e := range errs {
				fmt.Fprintf(env.stderr, "flowcabal check: warning: %v\n", e)
			}
			if kp == nil {
				fmt.Fprintf(env.stderr, "flowcabal check: %s: the project's knowledge could not be read\n", root)
				code = exitFailure
				continue
			}
			pp = &proseProject{root: root, kp: kp, facts: factcheck.FromProject(kp, folder)}
			for _, c := range kp.Chapters {
				pp.last = max(pp.last, c.Number)
			}
			projects[root] = pp
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
			code = exitFailure
			continue
		}
		text := string(data)
		rel, _ := filepath.Rel(root, abs)
		rel = filepath.ToSlash(rel)
		body, off, ch := text, 0, 0
		if strings.HasPrefix(rel, project.OutputsDir+"/") {
			body, off, ch = pp.output(text)
		} else if n, ok := knowledge.ChapterNumber(project.ResourcePath(rel)); ok && strings.HasPrefix(rel, "manuscript/") {
			ch = n
		}
		prev := ""
		if ch >= 1 {
			if d := pp.kp.Chapter(ch - 1); d != nil {
				prev = d.Body
			}
		}
		jobs = append(jobs, &job{name: name, text: text, body: body, off: off, ch: ch, pp: pp, prev: prev})
	}
	var (
		done  atomic.Int64
		barMu sync.Mutex // the bar draws from one goroutine at a time
	)
	found := iter.Map(jobs, func(j **job) []factcheck.Finding {
		if ctx.Err() != nil {
			return nil
		}
		fs := factcheck.Check((*j).body, (*j).ch, (*j).pp.facts, (*j).prev)
		n := done.Add(1)
		barMu.Lock()
		bar.update(int(n), len(jobs), (*j).name)
		barMu.Unlock()
		return fs
	})
	if err := ctx.Err(); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
		return nil, exitFailure
	}
	var out []jsonDiagnostic
	for i, j := range jobs {
		findings := found[i]
		sort.SliceStable(findings, func(i, j int) bool { return findings[i].Start < findings[j].Start })
		m := workflowlang.NewMapper([]byte(j.text))
		for _, f := range findings {
			a := m.Position(f.Start+j.off, workflowlang.UTF8)
			b := m.Position(f.End+j.off, workflowlang.UTF8)
			sev := f.Severity()
			if sev == "error" && code == exitOK {
				code = exitFindings
			}
			jd := jsonDiagnostic{File: j.name, Line: a.Line + 1, Col: a.Col + 1, EndLine: b.Line + 1, EndCol: b.Col + 1,
				Start: f.Start + j.off, End: f.End + j.off, Severity: sev, Code: f.Type, Message: f.Message}
			if f.Suggestion != "" {
				jd.Suggestions = []string{f.Suggestion}
			}
			out = append(out, jd)
		}
	}
	return out, code
}

// output reads a node output document: its first line names the
// workflow and node (checked as the chapter the node persists to), the
// rest is the text.
func (pp *proseProject) output(text string) (body string, off, ch int) {
	ch = pp.last + 1
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || !runner.OutputHeader.MatchString(first) {
		return text, 0, ch
	}
	if n, ok := runner.OutputChapter(pp.root, first); ok {
		ch = n
	}
	return rest, len(first) + 1, ch
}
