package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
)

// unimplemented lists the requests of LSP 3.17 the server does not serve.
// Each gets an explicit MethodNotFound error naming it (the server does
// not advertise them, so well-behaved clients never ask).
var unimplemented = []string{
	"textDocument/declaration",
	"textDocument/typeDefinition",
	"textDocument/implementation",
	"textDocument/signatureHelp",
	"documentLink/resolve",
	"textDocument/documentColor",
	"textDocument/colorPresentation",
	"textDocument/rangeFormatting",
	"textDocument/onTypeFormatting",
	"textDocument/linkedEditingRange",
	"textDocument/moniker",
	"textDocument/prepareTypeHierarchy",
	"typeHierarchy/supertypes",
	"typeHierarchy/subtypes",
	"textDocument/semanticTokens/full/delta",
	"textDocument/semanticTokens/range",
	"inlayHint/resolve",
	"textDocument/inlineValue",
	"textDocument/diagnostic",
	"workspace/diagnostic",
	"textDocument/willSaveWaitUntil",
	"codeLens/resolve",
	"workspaceSymbol/resolve",
	"workspace/willCreateFiles",
	"workspace/willDeleteFiles",
}

func notImplemented(method string) func(context.Context, *Server, json.RawMessage) (any, error) {
	return func(context.Context, *Server, json.RawMessage) (any, error) {
		return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "not implemented: "+method)
	}
}
