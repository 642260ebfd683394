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
// without reflection: see source.AppendWorkspaceEdit.
//
// The answer's JSON is kept for the snapshot it was made from (see
// renameAnswer): asked again before anything changes, the same moves get
// the same bytes without the edits being made again.
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
	a := s.lastRename.Load()
	if a == nil || !a.answers(snap, moves, opts) {
		edits, broken := source.MoveEdits(snap, moves)
		a = &renameAnswer{snap: weak.Make(snap), moves: moves, opts: opts, broken: broken}
		a.json = source.AppendWorkspaceEdit(make([]byte, 0, workspaceEditSize(edits)), edits, opts)
		s.lastRename.Store(a)
	}
	if len(a.broken) > 0 {
		s.log.Warn("the rename breaks references no edit can mend", "references", strings.Join(a.broken, "; "))
	}
	return rawJSON(a.json), nil
}

// A renameAnswer is the last answer willRenameFiles made: its JSON, for
// moves asked with opts of the snapshot snap. Edits depend on nothing
// but these (MoveEdits reads the snapshot alone), and every change to
// the workspace (a workflow typed, saved, created or deleted, a knowledge
// file added) makes a new snapshot: a later change never meets an old
// answer. snap is weak, so that the answer does not keep a snapshot
// the workspace has left alive; one answer is kept, 9 KB for a chapter
// 50 workflows name.
type renameAnswer struct {
	snap   weak.Pointer[cache.Snapshot]
	moves  []source.PathMove
	opts   source.Options
	json   []byte
	broken []string
}

// answers reports whether a is the answer to moves asked with opts of
// snap.
func (a *renameAnswer) answers(snap *cache.Snapshot, moves []source.PathMove, opts source.Options) bool {
	return a.snap.Value() == snap && a.opts == opts && slices.Equal(a.moves, moves)
}

// rawJSON is a result already written as JSON, valid and as encodeTo
// would write it: respond copies it into the frame.
type rawJSON []byte

func (r rawJSON) AppendJSON(dst []byte) []byte { return append(dst, r...) }

func (r rawJSON) JSONSize() int { return len(r) }

// MarshalJSON serves encoders other than respond's (tests, logs).
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// workspaceEditSize is about what AppendWorkspaceEdit writes for edits:
// 200 bytes or so an edit and its workflow's URI.
func workspaceEditSize(edits []source.FileEdit) int {
	n := 32
	for _, fe := range edits {
		n += len(fe.File.URI) + 150*len(fe.Edits)
	}
	return n
}
