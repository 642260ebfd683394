package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// negotiateEncoding picks the first position encoding the client offers
// that the server supports, UTF-16 when it offers none (LSP 3.17).
func negotiateEncoding(offered []string) (workflowlang.Encoding, string) {
	for _, e := range offered {
		switch e {
		case "utf-8":
			return workflowlang.UTF8, e
		case "utf-16":
			return workflowlang.UTF16, e
		case "utf-32":
			return workflowlang.UTF32, e
		}
	}
	return workflowlang.UTF16, "utf-16"
}

// rendersLinks reports whether a client renders Markdown links in a
// hover, from what it says it is. Neovim's floating window shows the
// Markdown source up to 0.10 (links and all); every other client known
// renders it.
func rendersLinks(ci *protocol.ClientInfo) bool {
	if ci == nil || ci.Name != "Neovim" {
		return true
	}
	var major, minor int
	if _, err := fmt.Sscanf(ci.Version, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 0 || minor >= 11
}

func (s *Server) initialize(ctx context.Context, p *initializeParams) (*initializeResult, error) {
	enc, encName := negotiateEncoding(p.Capabilities.General.PositionEncodings)
	var folders []string
	for _, f := range p.WorkspaceFolders {
		if path, ok := cache.URIPath(protocol.DocumentURI(f.URI)); ok {
			folders = append(folders, path)
		}
	}
	if len(folders) == 0 {
		if path, ok := cache.URIPath(p.RootURI); ok {
			folders = append(folders, path)
		} else if p.RootPath != "" {
			folders = append(folders, filepath.Clean(p.RootPath))
		}
	}
	var io initOptions
	if len(p.InitOptions) > 0 && string(p.InitOptions) != "null" {
		if err := json.Unmarshal(p.InitOptions, &io); err != nil {
			s.log.Warn("initializationOptions ignored", "err", err)
			io = initOptions{}
		}
	}
	compact := false
	switch io.Outline {
	case "", "full":
	case "nodes":
		compact = true
	default:
		s.log.Warn("unknown outline setting, the full outline is used", "outline", io.Outline)
	}
	links := rendersLinks(p.ClientInfo)
	switch io.Hover {
	case "":
	case "links":
		links = true
	case "compact":
		links = false
	default:
		s.log.Warn("unknown hover setting, the client's default is used", "hover", io.Hover)
	}
	ws, err := cache.NewWorkspace(folders, enc)
	if err != nil {
		// The workspace still works (defaults for what failed); say why.
		s.log.Warn("workspace loaded with problems", "err", err)
	}
	s.mu.Lock()
	s.caps = p.Capabilities
	s.compactOutline = compact
	s.hoverLinks = links
	s.inlayHints = io.InlayHints == nil || *io.InlayHints
	s.enc = enc
	s.ws = ws
	s.state = stateInitialized
	s.mu.Unlock()
	name := ""
	if p.ClientInfo != nil {
		name = p.ClientInfo.Name + " " + p.ClientInfo.Version
	}
	s.log.Info("initialized", "client", name, "folders", len(folders), "encoding", encName,
		"flows", len(ws.Snapshot().Files()), "resources", len(ws.Snapshot().Resources()))

	var rename any = true
	if p.Capabilities.TextDocument.Rename.PrepareSupport {
		rename = &protocol.RenameOptions{PrepareProvider: true}
	}
	caps := serverCapabilities{
		PositionEncoding: encName,
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: true,
			Change:    protocol.TextDocumentSyncKindIncremental,
			Save:      &protocol.SaveOptions{IncludeText: false},
		},
		CompletionProvider: &protocol.CompletionOptions{
			TriggerCharacters: []string{"{", "@", "/", "."},
			ResolveProvider:   true,
		},
		HoverProvider:              true,
		DefinitionProvider:         true,
		ReferencesProvider:         true,
		DocumentHighlightProvider:  true,
		DocumentLinkProvider:       &protocol.DocumentLinkOptions{},
		SelectionRangeProvider:     true,
		CallHierarchyProvider:      true,
		DocumentSymbolProvider:     true,
		WorkspaceSymbolProvider:    true,
		CodeActionProvider:         &codeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, source.SourceFixAll}, ResolveProvider: s.lazyCodeActions()},
		CodeLensProvider:           &protocol.CodeLensOptions{},
		DocumentFormattingProvider: true,
		RenameProvider:             rename,
		FoldingRangeProvider:       true,
		ExecuteCommandProvider:     &protocol.ExecuteCommandOptions{Commands: commandNames()},
		SemanticTokensProvider: &semanticTokensOptions{
			Legend: semanticTokensLegend{TokenTypes: source.TokenTypes, TokenModifiers: source.TokenModifiers},
			Full:   true,
		},
		InlayHintProvider: s.inlayHints,
		Workspace:         &workspaceServerCaps{},
	}
	caps.Workspace.WorkspaceFolders.Supported = true
	// Renames that can change what workflows name: knowledge files,
	// workflows, and folders of them (a chapter's folder, entities/…).
	var filters []fileOperationFilter
	for _, g := range []struct{ glob, matches string }{{"**/*.md", "file"}, {"**/*.flow", "file"}, {"**", "folder"}} {
		f := fileOperationFilter{Scheme: "file"}
		f.Pattern.Glob, f.Pattern.Matches = g.glob, g.matches
		filters = append(filters, f)
	}
	caps.Workspace.FileOperations = &fileOperationsCaps{WillRename: &fileOperationRegistration{Filters: filters}}
	return &initializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.ServerInfo{Name: "flowcabal", Version: s.opts.Version},
	}, nil
}

// initialized registers for file watching and publishes the workspace's
// diagnostics. It runs whatever its params: go.lsp.dev/protocol drops an
// `initialized` sent with null params (pitfall 5).
func (s *Server) initialized(ctx context.Context, _ *struct{}) error {
	if s.clientCaps().Workspace.DidChangeWatchedFiles.DynamicRegistration {
		// A call to the client waits for its answer, which this goroutine
		// (the connection's reader) would have to read: do it aside.
		s.goBackground(func(ctx context.Context) {
			if err := s.registerWatchers(ctx); err != nil {
				s.log.Warn("could not register file watchers", "err", err)
			}
		})
	}
	snap, err := s.snapshot()
	if err != nil {
		return err
	}
	s.diag.schedule(snap, keysOf(snap.Files()))
	return nil
}

func (s *Server) registerWatchers(ctx context.Context) error {
	globs := []string{"**/*.flow", "**/*.md", "**/" + "flowcabal.toml"}
	var watchers []protocol.FileSystemWatcher
	for _, g := range globs {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: g,
			Kind: protocol.WatchKindCreate + protocol.WatchKindChange + protocol.WatchKindDelete})
	}
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              "flowcabal-watch",
		Method:          protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}
	return protocol.Call(ctx, s.conn, protocol.MethodClientRegisterCapability, params, nil)
}

func (s *Server) shutdown(ctx context.Context, _ *struct{}) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	return nil, nil
}

// exit ends the session. Serve reports whether shutdown came first.
func (s *Server) exit(ctx context.Context, _ *struct{}) error {
	s.mu.Lock()
	s.exited = true
	s.mu.Unlock()
	return s.conn.Close()
}

// setTrace is accepted (VS Code sends it); the server's tracing is its log.
func (s *Server) setTrace(ctx context.Context, p *protocol.SetTraceParams) error {
	s.log.Debug("trace level set", "value", p.Value)
	return nil
}

func keysOf(files []*cache.File) []cache.Key {
	out := make([]cache.Key, len(files))
	for i, f := range files {
		out[i] = f.Key
	}
	return out
}

// errNotOpen answers a request about a document the server does not know.
func errNotOpen(uri protocol.DocumentURI) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, "unknown document: "+string(uri))
}
