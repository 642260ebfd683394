package server

import (
	"encoding/json"

	"go.lsp.dev/protocol"
)

// The initialize exchange is decoded and encoded with the server's own
// types: go.lsp.dev/protocol v0.12.0 drops general.positionEncodings
// (pitfall 12), cannot decode `semanticTokens.requests.range: {}` (pitfall
// 14), and has no field for a semantic-tokens legend (pitfall 13). Only
// what the server reads is declared; everything else is ignored, and
// fields whose spec type is a union are kept raw.

// initializeParams is the part of InitializeParams the server uses.
type initializeParams struct {
	ProcessID        *int32                     `json:"processId"`
	ClientInfo       *protocol.ClientInfo       `json:"clientInfo,omitempty"`
	RootPath         string                     `json:"rootPath,omitempty"`
	RootURI          protocol.DocumentURI       `json:"rootUri,omitempty"`
	WorkspaceFolders []protocol.WorkspaceFolder `json:"workspaceFolders,omitempty"`
	Capabilities     clientCapabilities         `json:"capabilities"`
	Trace            string                     `json:"trace,omitempty"`
	InitOptions      json.RawMessage            `json:"initializationOptions,omitempty"`
}

// initOptions are the server's own settings, sent by the editor as
// initializationOptions.
type initOptions struct {
	// Outline is "full" (the default: nodes, prompts, text blocks and
	// references) or "nodes" (the nodes alone, a table of contents), for
	// authors whose workflows are long enough that the full outline is a
	// burden: a 200-node file's full outline is 256 KB, its nodes 40 KB.
	Outline string `json:"outline,omitempty"`
	// Hover is "links" (sources in hovers are Markdown links to their
	// files) or "compact" (project paths alone). By default a client that
	// shows hover Markdown as text (Neovim up to 0.10) gets "compact":
	// there every link prints its whole file:// URI and wraps its row.
	Hover string `json:"hover,omitempty"`
	// InlayHints, when false, turns off the token counts shown after
	// each {{@path}} (and the capability that offers them).
	InlayHints *bool `json:"inlayHints,omitempty"`
}

// clientCapabilities is the part of ClientCapabilities the server honours.
type clientCapabilities struct {
	General struct {
		PositionEncodings []string `json:"positionEncodings,omitempty"`
	} `json:"general"`
	Workspace struct {
		ApplyEdit     bool `json:"applyEdit"`
		WorkspaceEdit struct {
			DocumentChanges    bool     `json:"documentChanges"`
			ResourceOperations []string `json:"resourceOperations"`
		} `json:"workspaceEdit"`
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
		CodeLens struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"codeLens"`
		SemanticTokens struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"semanticTokens"`
		InlayHint struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"inlayHint"`
		WorkspaceFolders bool `json:"workspaceFolders"`
	} `json:"workspace"`
	TextDocument struct {
		Completion struct {
			CompletionList struct {
				ItemDefaults []string `json:"itemDefaults"`
			} `json:"completionList"`
			CompletionItem struct {
				SnippetSupport      bool     `json:"snippetSupport"`
				DocumentationFormat []string `json:"documentationFormat"`
				ResolveSupport      struct {
					Properties []string `json:"properties"`
				} `json:"resolveSupport"`
			} `json:"completionItem"`
		} `json:"completion"`
		Hover struct {
			ContentFormat []string `json:"contentFormat"`
		} `json:"hover"`
		DocumentSymbol struct {
			HierarchicalDocumentSymbolSupport bool `json:"hierarchicalDocumentSymbolSupport"`
		} `json:"documentSymbol"`
		PublishDiagnostics struct {
			RelatedInformation bool            `json:"relatedInformation"`
			VersionSupport     bool            `json:"versionSupport"`
			TagSupport         json.RawMessage `json:"tagSupport,omitempty"`
		} `json:"publishDiagnostics"`
		Rename struct {
			PrepareSupport bool `json:"prepareSupport"`
		} `json:"rename"`
		CodeAction struct {
			CodeActionLiteralSupport json.RawMessage `json:"codeActionLiteralSupport,omitempty"`
			DataSupport              bool            `json:"dataSupport"`
			ResolveSupport           struct {
				Properties []string `json:"properties"`
			} `json:"resolveSupport"`
		} `json:"codeAction"`
		SemanticTokens json.RawMessage `json:"semanticTokens,omitempty"`
	} `json:"textDocument"`
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
		ShowDocument     struct {
			Support bool `json:"support"`
		} `json:"showDocument"`
	} `json:"window"`
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// markdownHover reports whether hovers may be Markdown.
func (c clientCapabilities) markdownHover() bool {
	return hasString(c.TextDocument.Hover.ContentFormat, string(protocol.Markdown))
}

// markdownCompletionDocs reports whether completion documentation may be Markdown.
func (c clientCapabilities) markdownCompletionDocs() bool {
	return hasString(c.TextDocument.Completion.CompletionItem.DocumentationFormat, string(protocol.Markdown))
}

// initializeResult is InitializeResult with 3.17 fields.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// serverCapabilities advertises exactly what the server implements.
type serverCapabilities struct {
	PositionEncoding           string                            `json:"positionEncoding,omitempty"`
	TextDocumentSync           *protocol.TextDocumentSyncOptions `json:"textDocumentSync"`
	CompletionProvider         *protocol.CompletionOptions       `json:"completionProvider,omitempty"`
	HoverProvider              bool                              `json:"hoverProvider"`
	DefinitionProvider         bool                              `json:"definitionProvider"`
	ReferencesProvider         bool                              `json:"referencesProvider"`
	DocumentHighlightProvider  bool                              `json:"documentHighlightProvider"`
	DocumentLinkProvider       *protocol.DocumentLinkOptions     `json:"documentLinkProvider,omitempty"`
	SelectionRangeProvider     bool                              `json:"selectionRangeProvider"`
	CallHierarchyProvider      bool                              `json:"callHierarchyProvider"`
	DocumentSymbolProvider     bool                              `json:"documentSymbolProvider"`
	WorkspaceSymbolProvider    bool                              `json:"workspaceSymbolProvider"`
	CodeActionProvider         *codeActionOptions                `json:"codeActionProvider,omitempty"`
	CodeLensProvider           *protocol.CodeLensOptions         `json:"codeLensProvider,omitempty"`
	DocumentFormattingProvider bool                              `json:"documentFormattingProvider"`
	RenameProvider             any                               `json:"renameProvider,omitempty"`
	FoldingRangeProvider       bool                              `json:"foldingRangeProvider"`
	ExecuteCommandProvider     *protocol.ExecuteCommandOptions   `json:"executeCommandProvider,omitempty"`
	SemanticTokensProvider     *semanticTokensOptions            `json:"semanticTokensProvider,omitempty"`
	InlayHintProvider          bool                              `json:"inlayHintProvider,omitempty"`
	Workspace                  *workspaceServerCaps              `json:"workspace,omitempty"`
}

type codeActionOptions struct {
	CodeActionKinds []protocol.CodeActionKind `json:"codeActionKinds,omitempty"`
	ResolveProvider bool                      `json:"resolveProvider,omitempty"`
}

type semanticTokensOptions struct {
	Legend semanticTokensLegend `json:"legend"`
	Full   bool                 `json:"full"`
	Range  bool                 `json:"range"`
}

type semanticTokensLegend struct {
	TokenTypes     []string `json:"tokenTypes"`
	TokenModifiers []string `json:"tokenModifiers"`
}

type workspaceServerCaps struct {
	WorkspaceFolders struct {
		Supported           bool `json:"supported"`
		ChangeNotifications bool `json:"changeNotifications"`
	} `json:"workspaceFolders"`
	FileOperations *fileOperationsCaps `json:"fileOperations,omitempty"`
}

// fileOperationsCaps is the 3.16 workspace.fileOperations capability,
// which go.lsp.dev/protocol v0.12.0 lacks.
type fileOperationsCaps struct {
	WillRename *fileOperationRegistration `json:"willRename,omitempty"`
}

type fileOperationRegistration struct {
	Filters []fileOperationFilter `json:"filters"`
}

type fileOperationFilter struct {
	Scheme  string `json:"scheme,omitempty"`
	Pattern struct {
		Glob    string `json:"glob"`
		Matches string `json:"matches,omitempty"` // "file" or "folder"
	} `json:"pattern"`
}

// semanticTokens is the result of textDocument/semanticTokens/full.
type semanticTokens struct {
	Data []uint32 `json:"data"`
}

// positionParams is TextDocumentPositionParams.
type positionParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Position     protocol.Position               `json:"position"`
}

// didChangeParams is DidChangeTextDocumentParams with ranges that can be
// told apart from whole-document changes (pitfall 7).
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}
