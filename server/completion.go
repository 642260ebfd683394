package server

import (
	"context"
	"encoding/json"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

// completionList is CompletionList with LSP 3.17's item defaults, which
// go.lsp.dev/protocol lacks: a range shared by every item is sent once.
type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	ItemDefaults *itemDefaults    `json:"itemDefaults,omitempty"`
	Items        []completionItem `json:"items"`
}

type itemDefaults struct {
	EditRange *protocol.Range `json:"editRange,omitempty"`
}

type completionItem struct {
	protocol.CompletionItem
	// TextEditText is the text that replaces the default edit range.
	TextEditText string `json:"textEditText,omitempty"`
}

func (s *Server) completion(ctx context.Context, p *positionParams) (*completionList, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	o := s.sourceOptions()
	l, err := source.Completion(snap, f, p.Position, o)
	if err != nil {
		return nil, featureError(err)
	}
	if s.opts.Completions != nil {
		// Extra items (whole-node snippets) come without a text edit so
		// that the shared edit range below is not disturbed.
		l.Items = append(l.Items, s.opts.Completions(snap, f, p.Position, o.Encoding, o.Snippets)...)
	}
	out := &completionList{IsIncomplete: l.IsIncomplete, Items: make([]completionItem, len(l.Items))}
	var shared *protocol.Range
	if hasString(s.clientCaps().TextDocument.Completion.CompletionList.ItemDefaults, "editRange") {
		for i, it := range l.Items {
			if it.TextEdit == nil || (i > 0 && (shared == nil || *shared != it.TextEdit.Range)) {
				shared = nil
				break
			}
			shared = &it.TextEdit.Range
		}
	}
	for i, it := range l.Items {
		out.Items[i].CompletionItem = it
		if shared != nil {
			out.Items[i].TextEditText = it.TextEdit.NewText
			out.Items[i].TextEdit = nil
		}
	}
	if shared != nil {
		out.ItemDefaults = &itemDefaults{EditRange: shared}
	}
	return out, nil
}

func (s *Server) resolveCompletion(ctx context.Context, item *protocol.CompletionItem) (*protocol.CompletionItem, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(item.Data)
	var d source.ResolveData
	if err := json.Unmarshal(raw, &d); err == nil {
		source.ResolveCompletion(snap, item, d, s.sourceOptions())
	}
	return item, nil
}
