package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server/cache"
)

// A MoveRefusal is a move refused for what it would do to the project,
// rather than a failure to look at it.
type MoveRefusal struct{ Msg string }

func (r *MoveRefusal) Error() string { return r.Msg }

func refuseMove(format string, args ...any) error {
	return &MoveRefusal{fmt.Sprintf(format, args...)}
}

// PlanMove checks that moving oldAbs to newAbs within the project at root
// is one FlowCabal can follow, and returns the move and the edits that
// keep the workflows of snap naming the same files (see MoveEdits). It
// changes nothing. `flowcabal mv` and the editors' move command share it,
// so they refuse the same moves with the same words: a path outside the
// project, a target that exists or whose folder does not, a folder moved
// into itself, a file that nothing names, an extension that changes, a
// reference no edit can mend.
func PlanMove(snap *cache.Snapshot, root, oldAbs, newAbs string) (PathMove, []FileEdit, error) {
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return p
	}
	for _, p := range []string{oldAbs, newAbs} {
		r, err := filepath.Rel(root, p)
		if err != nil {
			return PathMove{}, nil, refuseMove("%s is not in the project at %s", p, root)
		}
		if _, err := project.Resolve(root, filepath.ToSlash(r)); err != nil || r == "." {
			return PathMove{}, nil, refuseMove("%s is not in the project at %s", p, root)
		}
	}
	fi, err := os.Lstat(oldAbs)
	if err != nil {
		return PathMove{}, nil, fmt.Errorf("nothing to move: %w", err)
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return PathMove{}, nil, refuseMove("%s is neither a file nor a folder", rel(oldAbs))
	}
	if _, err := os.Lstat(newAbs); err == nil {
		return PathMove{}, nil, refuseMove("%s exists; a move never overwrites", rel(newAbs))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return PathMove{}, nil, fmt.Errorf("%s: %w", rel(newAbs), err)
	}
	if di, err := os.Stat(filepath.Dir(newAbs)); err != nil || !di.IsDir() {
		return PathMove{}, nil, refuseMove("the folder of %s does not exist", rel(newAbs))
	}
	if fi.IsDir() && strings.HasPrefix(newAbs, oldAbs+string(filepath.Separator)) {
		return PathMove{}, nil, refuseMove("cannot move %s into itself", rel(oldAbs))
	}
	if !fi.IsDir() {
		_, knowledge := snap.KnowledgePath(oldAbs)
		switch {
		case strings.HasSuffix(oldAbs, ".flow"):
			if !strings.HasSuffix(newAbs, ".flow") {
				return PathMove{}, nil, refuseMove("a workflow keeps its .flow extension (%s)", rel(newAbs))
			}
		case knowledge:
			if !strings.HasSuffix(newAbs, ".md") {
				return PathMove{}, nil, refuseMove("a knowledge file keeps its .md extension (%s)", rel(newAbs))
			}
		default:
			return PathMove{}, nil, refuseMove("%s is neither a workflow nor a knowledge file: nothing names it, move it with your shell", rel(oldAbs))
		}
	}
	move := PathMove{Old: oldAbs, New: newAbs}
	edits, broken := MoveEdits(snap, []PathMove{move})
	if len(broken) > 0 {
		for i, b := range broken {
			broken[i] = strings.TrimPrefix(b, root+string(filepath.Separator))
		}
		return PathMove{}, nil, refuseMove("the move would break references no rewrite can mend:\n  %s", strings.Join(broken, "\n  "))
	}
	return move, edits, nil
}
