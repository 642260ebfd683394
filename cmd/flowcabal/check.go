package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/workflowlang"
)

const checkUsage = `usage: flowcabal check [--json] [paths]

Check .flow workflows: syntax, references (nodes, used files, project
knowledge), attributes and the DAG. Paths are files or directories
(searched recursively for *.flow, skipping hidden folders); the default
is the current directory.

Manuscript chapters and node outputs get Role C's deterministic fact
checks, as the editor shows them (names, declared facts, who is where,
world rules, continuity with the previous chapter): name a Markdown file,
or a folder inside manuscript/ or .flowcabal/outputs/ (flowcabal check
manuscript/ checks the whole book, with a progress bar on a terminal).

Each diagnostic is printed as

	file:line:col: severity: message [code]

with line and column 1-based and the column counted in UTF-8 bytes (as go
vet does). --json prints a JSON array instead. The exit status is 1 when
any error was found, 3 when a file could not be read.
`

func runCheck(ctx context.Context, env *cliEnv, args []string) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(env.stderr)
	asJSON := fl.Bool("json", false, "print diagnostics as a JSON array")
	fl.Usage = func() {
		fmt.Fprint(env.stderr, checkUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	files, prose, err := checkFiles(fl.Args())
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
		return exitFailure
	}
	envs := map[string]workflowlang.Env{}
	var all []jsonDiagnostic
	code := exitOK
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
			return exitFailure
		}
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
			code = exitFailure
			continue
		}
		wenv, err := projectEnv(envs, name)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
			return exitFailure
		}
		abs, _ := filepath.Abs(name)
		f := workflowlang.Parse(abs, src)
		res := workflowlang.Check(f, wenv)
		for _, d := range res.Diagnostics {
			if d.Severity == workflowlang.SeverityError && code == exitOK {
				code = exitFindings
			}
			jd := toJSONDiagnostic(name, f, d)
			if *asJSON {
				all = append(all, jd)
				continue
			}
			fmt.Fprintf(env.stdout, "%s:%d:%d: %s: %s [%s]\n", jd.File, jd.Line, jd.Col, jd.Severity, jd.Message, jd.Code)
		}
	}
	if len(prose) > 0 {
		diags, pcode := checkProse(ctx, env, prose)
		if pcode == exitFailure || (pcode == exitFindings && code == exitOK) {
			code = pcode
		}
		for _, jd := range diags {
			if *asJSON {
				all = append(all, jd)
				continue
			}
			fmt.Fprintf(env.stdout, "%s:%d:%d: %s: %s [%s]\n", jd.File, jd.Line, jd.Col, jd.Severity, jd.Message, jd.Code)
		}
	}
	if *asJSON {
		if all == nil {
			all = []jsonDiagnostic{}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal check: %v\n", err)
			return exitFailure
		}
	}
	return code
}

// jsonDiagnostic is one diagnostic of `check --json`. Lines and columns
// are 1-based, columns in UTF-8 bytes; offsets are byte offsets.
type jsonDiagnostic struct {
	File        string        `json:"file"`
	Line        int           `json:"line"`
	Col         int           `json:"col"`
	EndLine     int           `json:"end_line"`
	EndCol      int           `json:"end_col"`
	Start       int           `json:"start"`
	End         int           `json:"end"`
	Severity    string        `json:"severity"`
	Code        string        `json:"code"`
	Message     string        `json:"message"`
	Suggestions []string      `json:"suggestions,omitempty"`
	Related     []jsonRelated `json:"related,omitempty"`
}

type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

func toJSONDiagnostic(name string, f *workflowlang.File, d workflowlang.Diagnostic) jsonDiagnostic {
	m := f.Mapper()
	s := m.Position(d.Span.Start, workflowlang.UTF8)
	e := m.Position(d.Span.End, workflowlang.UTF8)
	jd := jsonDiagnostic{
		File: name, Line: s.Line + 1, Col: s.Col + 1, EndLine: e.Line + 1, EndCol: e.Col + 1,
		Start: d.Span.Start, End: d.Span.End,
		Severity: d.Severity.String(), Code: string(d.Code), Message: d.Message, Suggestions: d.Suggestions,
	}
	if d.Path != "" {
		jd.File = d.Path
	}
	for _, r := range d.Related {
		if r.Path != "" {
			jd.Related = append(jd.Related, jsonRelated{File: r.Path, Message: r.Message})
			continue
		}
		p := m.Position(r.Span.Start, workflowlang.UTF8)
		jd.Related = append(jd.Related, jsonRelated{File: name, Line: p.Line + 1, Col: p.Col + 1, Message: r.Message})
	}
	return jd
}

// flowFiles expands the command line into .flow files, in a stable order.
// checkFiles lists the workflows to check and the prose (chapters, node
// outputs) to fact-check: a Markdown file named is prose; a folder gives
// its .flow files, and its .md files too when it is inside manuscript/ or
// the outputs folder of a project.
func checkFiles(args []string) (flows, prose []string, err error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, nil, err
		}
		if !fi.IsDir() {
			if strings.HasSuffix(a, ".md") {
				prose = append(prose, a)
			} else {
				flows = append(flows, a)
			}
			continue
		}
		withProse := isProseDir(a)
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != a && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			switch {
			case d.IsDir():
			case strings.HasSuffix(d.Name(), ".flow"):
				flows = append(flows, p)
			case withProse && strings.HasSuffix(d.Name(), ".md"):
				prose = append(prose, p)
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("walk %s: %w", a, err)
		}
	}
	return flows, prose, nil
}

// isProseDir reports whether dir is, or is inside, the manuscript or the
// node outputs of its project.
func isProseDir(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	root, err := project.FindRoot(abs)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, d := range []string{"manuscript", project.OutputsDir} {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// projectEnv returns the check environment of the project holding file,
// building it once per project root.
func projectEnv(cache map[string]workflowlang.Env, file string) (workflowlang.Env, error) {
	root, err := project.FindRoot(filepath.Dir(file))
	if err != nil {
		return workflowlang.Env{}, err
	}
	if e, ok := cache[root]; ok {
		return e, nil
	}
	e, err := newProjectEnv(root)
	if err != nil {
		return workflowlang.Env{}, err
	}
	cache[root] = e
	return e, nil
}

// newProjectEnv builds an Env from a project on disk: its knowledge
// resources (Markdown under project.KnowledgeDirs), its models and
// budget from flowcabal.toml, and a loader for used .flow files.
//
// Token counts for over-budget are a conservative estimate until the
// real tokenizer is wired in: one token per CJK character plus one per
// three other bytes of the whole file, known for level L2 only (the L0/L1
// summaries are derived later, so they count as unknown).
func newProjectEnv(root string) (workflowlang.Env, error) {
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return workflowlang.Env{}, err
	}
	resources := map[string]string{} // resource path -> file
	var names []string
	for _, dir := range project.KnowledgeDirs {
		base := filepath.Join(root, dir)
		if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
			continue
		}
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != base && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			r := project.ResourcePath(rel)
			if _, dup := resources[r]; !dup {
				names = append(names, r)
			}
			resources[r] = p
			return nil
		})
		if err != nil {
			return workflowlang.Env{}, fmt.Errorf("walk %s: %w", base, err)
		}
	}
	slices.Sort(names)
	models := make([]string, 0, len(cfg.Models))
	for name := range cfg.Models {
		models = append(models, name)
	}
	slices.Sort(models)
	tokens := map[string]int{}
	return workflowlang.Env{
		Load: func(from, use string) (*workflowlang.File, error) {
			p := filepath.Join(filepath.Dir(from), filepath.FromSlash(use))
			src, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("load %s: %w", use, err)
			}
			return workflowlang.Parse(p, src), nil
		},
		Resource:  func(p string) bool { _, ok := resources[p]; return ok },
		Resources: func() []string { return names },
		Tokens: func(p, level string) (int, bool) {
			file, ok := resources[p]
			if !ok || level != "L2" {
				return 0, false
			}
			if n, ok := tokens[file]; ok {
				return n, true
			}
			data, err := os.ReadFile(file)
			if err != nil {
				return 0, false
			}
			n := estimateTokens(data)
			tokens[file] = n
			return n, true
		},
		DefaultBudget: cfg.Budget,
		Models:        models,
		Root:          root,
	}, nil
}

// estimateTokens over-estimates the tokens of text: one per CJK (or other
// wide) character, one per three bytes of the rest.
func estimateTokens(b []byte) int {
	wide, narrow := 0, 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x2E80 {
			wide++
		} else {
			narrow += size
		}
		b = b[size:]
	}
	return wide + (narrow+2)/3
}

// flowFiles lists the workflows among args (for fmt).
func flowFiles(args []string) ([]string, error) {
	flows, _, err := checkFiles(args)
	return flows, err
}
