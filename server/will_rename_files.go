package server

import (
	"context"
	"slices"
	"strings"
	"weak"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

// renameFilesParams is RenameFilesParams (go.lsp.dev/protocol's has the
// same shape; this one keeps the URIs as the server's type).
type renameFilesParams struct {
	Files []struct {
		OldURI protocol.DocumentURI `json:"oldUri"`
		NewURI protocol.DocumentURI `json:"newUri"`
	} `json:"files"`
}

// willRenameFiles answers an editor about to rename files or folders of
// the project with the edits that keep every workflow naming the same
// files: {{@…}} of moved knowledge files, and `use` paths whose either
// end moves. A reference the move breaks beyond repair is logged (the
// rename goes ahead: the editor does not ask whether it may). The answer
// is a WorkspaceEdit (or null) that respond writes into the response
// without reflection: see source.Move.AppendJSON.
//
// An answer is written straight into the response's frame: an editor
// asks once before each rename, and that ask pays for no copy of it.
// The same moves asked again of the same snapshot (a client that asks
// twice, a rename retried) get the JSON kept at the second ask, byte
// for byte, without the edits being made again (see renameAnswer).
func (s *Server) willRenameFiles(ctx context.Context, p *renameFilesParams) (any, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	var moves []source.PathMove
	for _, f := range p.Files {
		oldPath, ok1 := cache.URIPath(f.OldURI)
		newPath, ok2 := cache.URIPath(f.NewURI)
		if ok1 && ok2 && oldPath != newPath {
			moves = append(moves, source.PathMove{Old: oldPath, New: newPath})
		}
	}
	opts := s.sourceOptions()
	last := s.lastRename.Load()
	asked := last != nil && last.answers(snap, moves, opts)
	if asked && last.json != nil {
		s.warnBroken(last.broken)
		return rawJSON(last.json), nil
	}
	m, broken := source.FindMove(snap, moves)
	s.warnBroken(broken)
	a := &renameAnswer{snap: weak.Make(snap), moves: moves, opts: opts, broken: broken}
	if !asked {
		s.lastRename.Store(a)
		return workspaceEdit{m, opts}, nil
	}
	a.json = m.AppendJSON(make([]byte, 0, m.JSONSize()), opts)
	s.lastRename.Store(a)
	return rawJSON(a.json), nil
}

// warnBroken logs the references a rename breaks beyond repair.
func (s *Server) warnBroken(broken []string) {
	if len(broken) > 0 {
		s.log.Warn("the rename breaks references no edit can mend", "references", strings.Join(broken, "; "))
	}
}

// A renameAnswer is what willRenameFiles keeps of its last ask: the
// moves asked with opts of the snapshot snap and, once they have been
// asked twice, the answer's JSON. Edits depend on nothing but these
// (MoveEdits reads the snapshot alone), and every change to the
// workspace (a workflow typed, saved, created or deleted, a knowledge
// file added) makes a new snapshot: a later change never meets an old
// answer. snap is weak, so that the answer does not keep a snapshot
// the workspace has left alive; one answer is kept, 9 KB for a chapter
// 50 workflows name.
type renameAnswer struct {
	snap   weak.Pointer[cache.Snapshot]
	moves  []source.PathMove
	opts   source.Options
	json   []byte // nil until the moves are asked again
	broken []string
}

// answers reports whether a is the answer to moves asked with opts of
// snap.
func (a *renameAnswer) answers(snap *cache.Snapshot, moves []source.PathMove, opts source.Options) bool {
	return a.snap.Value() == snap && a.opts == opts && slices.Equal(a.moves, moves)
}

// workspaceEdit is a rename's edits as a result that writes its own
// JSON (source.Move.AppendJSON) into the response's frame.
type workspaceEdit struct {
	move source.Move
	opts source.Options
}

func (w workspaceEdit) AppendJSON(dst []byte) []byte { return w.move.AppendJSON(dst, w.opts) }

func (w workspaceEdit) JSONSize() int { return w.move.JSONSize() }

// MarshalJSON serves encoders other than respond's (tests, logs).
func (w workspaceEdit) MarshalJSON() ([]byte, error) { return w.AppendJSON(nil), nil }

// rawJSON is a result already written as JSON, valid and as encodeTo
// would write it: respond copies it into the frame.
type rawJSON []byte

func (r rawJSON) AppendJSON(dst []byte) []byte { return append(dst, r...) }

func (r rawJSON) JSONSize() int { return len(r) }

// MarshalJSON serves encoders other than respond's (tests, logs).
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }
