package server

import (
	"context"
	"strings"

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
	edits, broken := source.MoveEdits(snap, moves)
	if len(broken) > 0 {
		s.log.Warn("the rename breaks references no edit can mend", "references", strings.Join(broken, "; "))
	}
	return workspaceEditJSON{edits, s.sourceOptions()}, nil
}

// workspaceEditJSON is the workspace edit of edits as JSON, written into
// the response's frame where it is built (a rename that 50 workflows name
// answers with 9 KB).
type workspaceEditJSON struct {
	edits []source.FileEdit
	opts  source.Options
}

func (w workspaceEditJSON) AppendJSON(dst []byte) []byte {
	return source.AppendWorkspaceEdit(dst, w.edits, w.opts)
}

// JSONSize is about what AppendJSON writes: 200 bytes or so an edit and
// its workflow's URI.
func (w workspaceEditJSON) JSONSize() int {
	n := 32
	for _, fe := range w.edits {
		n += len(fe.File.URI) + 150*len(fe.Edits)
	}
	return n
}

// MarshalJSON serves encoders other than respond's (tests, logs).
func (w workspaceEditJSON) MarshalJSON() ([]byte, error) {
	return w.AppendJSON(make([]byte, 0, w.JSONSize())), nil
}
