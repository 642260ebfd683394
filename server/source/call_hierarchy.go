package source

import (
	"fmt"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// CallData is what a call-hierarchy item carries between requests: the
// node it stands for, named rather than placed, so that an item stays
// good across edits that move the node.
type CallData struct {
	URI  protocol.DocumentURI `json:"uri"`
	Node string               `json:"node"`
}

// PrepareCallHierarchy returns the node named or referenced at p as a
// call-hierarchy item, or nothing when p is on no node (an input, a
// resource or an unresolved reference are not nodes).
func PrepareCallHierarchy(snap *cache.Snapshot, f *cache.File, p protocol.Position, o Options) ([]protocol.CallHierarchyItem, error) {
	pf, c, ok := cursorAt(snap, f, p, o.Encoding)
	if !ok {
		return nil, ErrOutOfRange
	}
	t, ok := resolve(snap, f, pf, c)
	if !ok || t.KnowPath != "" {
		return nil, nil
	}
	n := t.PF.Node(t.Name)
	if n == nil {
		return nil, nil
	}
	return []protocol.CallHierarchyItem{callItem(t.File, t.PF, n, o)}, nil
}

func callItem(f *cache.File, pf *workflowlang.File, n *workflowlang.Node, o Options) protocol.CallHierarchyItem {
	return protocol.CallHierarchyItem{
		Name:           n.Name.Name,
		Kind:           protocol.SymbolKindFunction,
		Detail:         containerName(f),
		URI:            f.URI,
		Range:          Range(pf, n.Span, o.Encoding),
		SelectionRange: Range(pf, n.Name.Span, o.Encoding),
		Data:           CallData{URI: f.URI, Node: n.Name.Name},
	}
}

// ErrBadItem is returned for a call-hierarchy item this server did not
// make.
var ErrBadItem = fmt.Errorf("not a call-hierarchy item of this server")

// ItemData returns what an item names: its data when it has some, else
// its URI and name. Clients send items back whole; only this is read of
// them.
func ItemData(uri protocol.DocumentURI, name string, data *CallData) (CallData, error) {
	if data == nil {
		return CallData{URI: uri, Node: name}, nil
	}
	if data.URI == "" || data.Node == "" {
		return *data, fmt.Errorf("%w: data without a document and a node", ErrBadItem)
	}
	return *data, nil
}

// itemNode finds the node d names. n is nil when the node is gone (the
// file was edited or closed since): the item has no calls any more.
func itemNode(snap *cache.Snapshot, d CallData) (t target, n *workflowlang.Node) {
	f, ok := snap.File(d.URI)
	if !ok {
		return target{}, nil
	}
	pf := snap.Parse(f)
	return target{File: f, PF: pf, Name: d.Node}, nodeOf(f, pf, d.Node)
}

// IncomingCalls returns the nodes that read the item's node, with the
// {{references}} through which they do: in its own file and in every
// workflow of the snapshot that `use`s that file. References in `use`
// arguments and input defaults belong to no node and are left out.
func IncomingCalls(snap *cache.Snapshot, d CallData, o Options) []protocol.CallHierarchyIncomingCall {
	t, n := itemNode(snap, d)
	if n == nil {
		return nil
	}
	out := []protocol.CallHierarchyIncomingCall{}
	index := map[string]int{} // caller's URI and name -> its place in out
	for _, u := range uses(snap, t) {
		if u.Node == nil || u.Ref == nil {
			continue
		}
		key := string(u.File.URI) + "\x00" + u.Node.Name.Name
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, protocol.CallHierarchyIncomingCall{From: callItem(u.File, u.PF, u.Node, o)})
		}
		out[i].FromRanges = append(out[i].FromRanges, Range(u.PF, u.Ref.Span, o.Encoding))
	}
	return out
}

// OutgoingCalls returns the nodes the item's node reads, in its file and
// in used files, with the {{references}} that read them. Inputs and
// resources are not nodes and are left out, and so are references that
// resolve to nothing.
func OutgoingCalls(snap *cache.Snapshot, d CallData, o Options) []protocol.CallHierarchyOutgoingCall {
	t, n := itemNode(snap, d)
	if n == nil {
		return nil
	}
	out := []protocol.CallHierarchyOutgoingCall{}
	index := map[string]int{}
	type used struct {
		f  *cache.File
		pf *workflowlang.File
	}
	aliases := map[string]used{} // each used file parsed once
	for _, r := range n.Refs() {
		cf, cpf := t.File, t.PF
		switch r.Kind {
		case workflowlang.RefNode:
		case workflowlang.RefUse:
			u, ok := aliases[r.Alias]
			if !ok {
				if uf, found := usedFile(snap, t.PF, useByAlias(t.PF, r.Alias)); found {
					u = used{uf, snap.Parse(uf)}
				}
				aliases[r.Alias] = u
			}
			if u.f == nil {
				continue
			}
			cf, cpf = u.f, u.pf
		default:
			continue
		}
		callee := nodeOf(cf, cpf, r.Name)
		if callee == nil {
			continue
		}
		key := string(cf.URI) + "\x00" + r.Name
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, protocol.CallHierarchyOutgoingCall{To: callItem(cf, cpf, callee, o)})
		}
		out[i].FromRanges = append(out[i].FromRanges, Range(t.PF, r.Span, o.Encoding))
	}
	return out
}
