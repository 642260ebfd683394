package server

import (
	"context"
	"errors"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The call hierarchy is the DAG read as calls: a node "calls" the nodes
// its prompts reference, in its own file and in used files.

func (s *Server) prepareCallHierarchy(ctx context.Context, p *positionParams) ([]protocol.CallHierarchyItem, error) {
	if s.isProse(p.TextDocument.URI) {
		return nil, nil
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	items, err := source.PrepareCallHierarchy(snap, f, p.Position, s.sourceOptions())
	return items, featureError(err)
}

func (s *Server) incomingCalls(ctx context.Context, p *protocol.CallHierarchyIncomingCallsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	calls, err := source.IncomingCalls(snap, p.Item, s.sourceOptions())
	return calls, itemError(err)
}

func (s *Server) outgoingCalls(ctx context.Context, p *protocol.CallHierarchyOutgoingCallsParams) ([]protocol.CallHierarchyOutgoingCall, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	calls, err := source.OutgoingCalls(snap, p.Item, s.sourceOptions())
	return calls, itemError(err)
}

// itemError makes an item the server cannot have made the client's
// mistake.
func itemError(err error) error {
	if errors.Is(err, source.ErrBadItem) {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return err
}
