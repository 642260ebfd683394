package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"github.com/flowcabal/flowcabal/workflowlang"
)

const mvUsage = `usage: flowcabal mv [-n] OLD NEW

Move a knowledge file (meta/…, entities/…, manuscript/…, …), a workflow
(.flow) or a folder of them within the project, and rewrite every
{{@…}} and use path that names what moves in the project's workflows
(a moved workflow's own relative uses too). Nothing else is touched:
prompt text, comments and persist targets stay as written.

NEW must not exist and its folder must. A move that would break a
reference no rewrite can mend (a knowledge file leaving the knowledge
folders) is refused. If a step fails, what was done is undone.
`

// mvRename is os.Rename, replaced by the tests that make a step fail.
var mvRename = os.Rename

func runMv(ctx context.Context, env *cliEnv, args []string) int {
	fl := flag.NewFlagSet("mv", flag.ContinueOnError)
	fl.SetOutput(env.stderr)
	dry := fl.Bool("n", false, "print what would change and change nothing")
	fl.Usage = func() {
		fmt.Fprint(env.stderr, mvUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fl.NArg() != 2 {
		fl.Usage()
		return exitUsage
	}
	plan, err := planMove(fl.Arg(0), fl.Arg(1))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal mv: %v\n", err)
		var r *source.MoveRefusal
		if errors.As(err, &r) {
			return exitFindings
		}
		return exitFailure
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(plan.root, p); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	verb := "moved"
	if *dry {
		verb = "would move"
	}
	if !*dry {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal mv: %v\n", err)
			return exitFailure
		}
		if err := plan.do(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal mv: %v\n", err)
			return exitFailure
		}
	}
	fmt.Fprintf(env.stdout, "%s %s -> %s\n", verb, rel(plan.move.Old), rel(plan.move.New))
	for _, fe := range plan.edits {
		fmt.Fprintf(env.stdout, "  %s: %d reference(s) rewritten\n", rel(fe.File.Path), len(fe.Edits))
	}
	return exitOK
}

// A movePlan is a checked move and the rewrites it needs.
type movePlan struct {
	root  string
	move  source.PathMove
	edits []source.FileEdit
}

// planMove checks a move and works out the rewrites, changing nothing
// (source.PlanMove, which the editors' move command shares).
func planMove(oldArg, newArg string) (*movePlan, error) {
	oldAbs, err := filepath.Abs(oldArg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", oldArg, err)
	}
	newAbs, err := filepath.Abs(newArg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", newArg, err)
	}
	root, err := project.FindRoot(filepath.Dir(oldAbs))
	if err != nil {
		return nil, err
	}
	ws, err := cache.NewWorkspace([]string{root}, workflowlang.UTF8)
	if err != nil {
		return nil, fmt.Errorf("read the project: %w", err)
	}
	move, edits, err := source.PlanMove(ws.Snapshot(), root, oldAbs, newAbs)
	if err != nil {
		return nil, err
	}
	return &movePlan{root: root, move: move, edits: edits}, nil
}

// do makes the move: each rewritten workflow is written beside itself
// first, the move is made, then each rewrite is renamed over its
// workflow (where the move took it). A failure undoes what was done:
// the rewritten workflows get their text back and the move is reversed.
func (p *movePlan) do() (err error) {
	at := func(path string) string {
		if strings.HasPrefix(path, p.move.Old) && (path == p.move.Old || os.IsPathSeparator(path[len(p.move.Old)])) {
			return p.move.New + path[len(p.move.Old):]
		}
		return path
	}
	type rewrite struct {
		path, tmp string // as they are before the move
		old       []byte
		mode      fs.FileMode
	}
	var rw []rewrite
	cleanup := func() {
		for _, r := range rw {
			os.Remove(r.tmp)
			os.Remove(at(r.tmp))
		}
	}
	for _, fe := range p.edits {
		cur, err := os.ReadFile(fe.File.Path)
		if err != nil {
			cleanup()
			return fmt.Errorf("read %s: %w", fe.File.Path, err)
		}
		if !bytes.Equal(cur, fe.File.Src) {
			cleanup()
			return fmt.Errorf("%s changed while the move was planned; nothing was moved", fe.File.Path)
		}
		fi, err := os.Stat(fe.File.Path)
		if err != nil {
			cleanup()
			return fmt.Errorf("stat %s: %w", fe.File.Path, err)
		}
		tmp, err := writeTemp(fe.File.Path, fe.Apply(), fi.Mode().Perm())
		if err != nil {
			cleanup()
			return err
		}
		rw = append(rw, rewrite{path: fe.File.Path, tmp: tmp, old: cur, mode: fi.Mode().Perm()})
	}
	if err := mvRename(p.move.Old, p.move.New); err != nil {
		cleanup()
		return fmt.Errorf("move %s: %w; nothing was changed", p.move.Old, err)
	}
	for i, r := range rw {
		if err := mvRename(at(r.tmp), at(r.path)); err != nil {
			// Undo: the workflows already rewritten get their text back,
			// the rest lose their rewrite, and the move is reversed.
			var undo []error
			for _, done := range rw[:i] {
				if tmp, werr := writeTemp(at(done.path), done.old, done.mode); werr != nil {
					undo = append(undo, werr)
				} else if rerr := os.Rename(tmp, at(done.path)); rerr != nil {
					undo = append(undo, rerr)
				}
			}
			for _, left := range rw[i:] {
				os.Remove(at(left.tmp))
			}
			if rerr := os.Rename(p.move.New, p.move.Old); rerr != nil {
				undo = append(undo, rerr)
			}
			if len(undo) > 0 {
				return fmt.Errorf("rewrite %s: %w; undoing it failed too: %v", at(r.path), err, errors.Join(undo...))
			}
			return fmt.Errorf("rewrite %s: %w; the move was undone", at(r.path), err)
		}
	}
	return nil
}

// writeTemp writes data to a new hidden file beside path, synced, with
// mode, and returns its name.
func writeTemp(path string, data []byte, mode fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".mv-*")
	if err != nil {
		return "", fmt.Errorf("write beside %s: %w", path, err)
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("write beside %s: %w", path, err)
	}
	return name, nil
}
