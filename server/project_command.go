package server

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// The commands about the project rather than one workflow: their "uri"
// names the project (its folder, or any file in it). The editors' import
// and entity pickers call them, so that the work is done once, here, and
// the editors only choose files and names.
const (
	// CmdImportManuscript splits the author's manuscript ({files,
	// encoding?}) into the project's chapters, as `flowcabal import` does:
	// with dryRun it answers the table of what it found and changes
	// nothing; without, it writes (refusing when "plan", the digest a dry
	// run answered, no longer matches: the manuscript or the project
	// changed since the author saw the preview).
	CmdImportManuscript = "flowcabal.importManuscript"
	// CmdSuggestEntities answers the characters and places the manuscript
	// is about, as `flowcabal entities suggest --json` prints them, with
	// the entity file that already declares each.
	CmdSuggestEntities = "flowcabal.suggestEntities"
	// CmdAcceptEntities writes draft entity files for the suggestions the
	// author chose ({names}), as `entities suggest --write` does for all.
	CmdAcceptEntities = "flowcabal.acceptEntities"
	// CmdAddEntity adds a name of a chapter ({uri: the chapter, text: the
	// name, kind?}) as a draft entity file, through a workspace edit the
	// editor applies (the chapter's code action).
	CmdAddEntity = "flowcabal.addEntity"
	// CmdEntityFacts asks the agent model what the manuscript states
	// about the entity of "uri" (its file; "text", when given, is the
	// editor's buffer of it), as `flowcabal entities facts --json` prints
	// it: proposals with their quotations and an "id" each.
	CmdEntityFacts = "flowcabal.entityFacts"
	// CmdAcceptFacts adds the proposals the author chose ({uri, names:
	// their ids, text?, version?}) to the entity file through a
	// workspace edit, as `entities facts --write` does for all new ones.
	CmdAcceptFacts = "flowcabal.acceptFacts"
)

func projectCommand(name string) bool {
	switch name {
	case cmdMove, CmdImportManuscript, CmdSuggestEntities, CmdAcceptEntities, CmdEntityFacts, CmdAcceptFacts:
		return true
	}
	return false
}

func (s *Server) executeProjectCommand(ctx context.Context, name string, args CommandArgs) (any, error) {
	if name == cmdMove {
		return s.move(ctx, args)
	}
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	if s.opts.Commands != nil {
		res, err := s.opts.Commands.Execute(ctx, CommandRequest{Command: name, Args: args, Snapshot: snap, Editor: editor{s}})
		if !errors.Is(err, ErrNotAvailable) {
			return res, err
		}
	}
	return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: not available in this server", name))
}
