package source

import (
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// Options are the client's abilities that shape what the features return.
type Options struct {
	Encoding           workflowlang.Encoding
	RelatedInformation bool // diagnostics may carry relatedInformation
	Tags               bool // diagnostics may carry tags (unnecessary)
	Markdown           bool // hovers may be Markdown
	HoverLinks         bool // the client renders Markdown links in hovers
	MarkdownDocs       bool // completion documentation may be Markdown
	ResolveDocs        bool // completion documentation may wait for completionItem/resolve
	Snippets           bool // completion items may be snippets
	Hierarchical       bool // documentSymbol may be hierarchical
	CompactOutline     bool // documentSymbol lists the nodes alone
}

// DiagnosticData travels in a diagnostic's data field, so that code
// actions can offer fixes without re-deriving them.
type DiagnosticData struct {
	Suggestions []string `json:"suggestions,omitempty"`
}

// Diagnostics returns the static diagnostics of f in LSP form. Problems
// that Check attributes to another file are left to that file.
func Diagnostics(snap *cache.Snapshot, f *cache.File, o Options) []protocol.Diagnostic {
	res := snap.Check(f)
	pf := res.File
	out := make([]protocol.Diagnostic, 0, len(res.Diagnostics))
	for _, d := range res.Diagnostics {
		if d.Path != "" && d.Path != pf.Path {
			continue
		}
		out = append(out, toProtocol(snap, pf, d, o))
	}
	return out
}

func toProtocol(snap *cache.Snapshot, pf *workflowlang.File, d workflowlang.Diagnostic, o Options) protocol.Diagnostic {
	pd := protocol.Diagnostic{
		Range:    Range(pf, d.Span, o.Encoding),
		Severity: protocol.DiagnosticSeverity(d.Severity),
		Code:     string(d.Code),
		Source:   "flowcabal",
		Message:  d.Message,
	}
	if len(d.Suggestions) > 0 {
		pd.Data = DiagnosticData{Suggestions: d.Suggestions}
	}
	if o.Tags && d.Code == workflowlang.CodeUnusedNode {
		pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	if o.RelatedInformation {
		for _, r := range d.Related {
			loc, ok := location(snap, pf, r.Path, r.Span, o.Encoding)
			if !ok {
				continue
			}
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: r.Message})
		}
	}
	return pd
}

// location turns a span of the file at path (empty: pf itself) into an
// LSP location.
func location(snap *cache.Snapshot, pf *workflowlang.File, path string, sp workflowlang.Span, enc workflowlang.Encoding) (protocol.Location, bool) {
	if path == "" || path == pf.Path {
		return protocol.Location{URI: uriOf(snap, pf), Range: Range(pf, sp, enc)}, true
	}
	other, ok := snap.FileByPath(path)
	if !ok {
		return protocol.Location{}, false
	}
	of := snap.Parse(other)
	return protocol.Location{URI: other.URI, Range: Range(of, sp, enc)}, true
}

// uriOf returns the URI under which the client knows the parsed file pf.
func uriOf(snap *cache.Snapshot, pf *workflowlang.File) protocol.DocumentURI {
	if f, ok := snap.FileByPath(pf.Path); ok {
		return f.URI
	}
	if pf.Path != "" && pf.Path[0] == '/' {
		return cache.FileURI(pf.Path)
	}
	return protocol.DocumentURI(pf.Path) // a document that is not a file: named by its URI
}
