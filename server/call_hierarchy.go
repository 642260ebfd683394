package server

import (
	"context"
	"errors"

	"github.com/flowcabal/flowcabal/server/cache"
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

// callsParams is CallHierarchyIncomingCallsParams (and Outgoing) as far
// as the server reads them: the item's name and data, not its ranges.
type callsParams struct {
	Item struct {
		Name string               `json:"name"`
		URI  protocol.DocumentURI `json:"uri"`
		// An item's data is the server's own (source.CallData); other
		// data is not an item of this server and fails to decode.
		Data *source.CallData `json:"data,omitempty"`
	} `json:"item"`
}

func (s *Server) incomingCalls(ctx context.Context, p *callsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	snap, d, err := s.callItem(p)
	if err != nil {
		return nil, err
	}
	return source.IncomingCalls(snap, d, s.sourceOptions()), nil
}

func (s *Server) outgoingCalls(ctx context.Context, p *callsParams) ([]protocol.CallHierarchyOutgoingCall, error) {
	snap, d, err := s.callItem(p)
	if err != nil {
		return nil, err
	}
	return source.OutgoingCalls(snap, d, s.sourceOptions()), nil
}

// callItem reads what an item names; an item the server cannot have made
// is the client's mistake.
func (s *Server) callItem(p *callsParams) (*cache.Snapshot, source.CallData, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, source.CallData{}, err
	}
	d, err := source.ItemData(p.Item.URI, p.Item.Name, p.Item.Data)
	if errors.Is(err, source.ErrBadItem) {
		return nil, d, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return snap, d, err
}
