package workbench

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
	psession "github.com/flowcabal/flowcabal/session"
)

// cmdCompare compares an earlier output of a node ("version", else the
// one before the current) with the current one. It writes the two sides
// under .flowcabal/compare and answers their URIs for the editor's diff
// view (the clients open it), with what changed in the injected context
// and the settings between the two runs.
const cmdCompare = "flowcabal.compare"

func (w *Workbench) compare(ctx context.Context, ss *psession.Session, file, node string, args server.CommandArgs) (any, error) {
	c, err := ss.Compare(ctx, file, node, versionArg(args))
	if err != nil {
		return nil, runError(err)
	}
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(len(c.Came), "added")
	add(len(c.Went), "dropped")
	add(len(c.Relevelled), "at another level")
	add(len(c.Changed), "changed")
	summary := "the same context"
	if len(parts) > 0 {
		summary = "context: " + strings.Join(parts, ", ")
	}
	if len(c.Settings) > 0 {
		summary += "; settings: " + strings.Join(c.Settings, ", ")
	}
	return map[string]any{
		"left":    string(cache.FileURI(c.Left)),
		"right":   string(cache.FileURI(c.Right)),
		"title":   fmt.Sprintf("%s: v%d ↔ v%d", node, c.Old.Version, c.New.Version),
		"old":     c.Old.Version,
		"new":     c.New.Version,
		"summary": fmt.Sprintf("%s v%d → v%d: %s", node, c.Old.Version, c.New.Version, summary),
		"added":   c.Came, "dropped": c.Went, "relevelled": c.Relevelled, "changed": c.Changed, "settings": c.Settings,
		"tokens": map[string]any{
			"old": map[string]int{"prompt": c.Old.Usage.PromptTokens, "completion": c.Old.Usage.CompletionTokens},
			"new": map[string]int{"prompt": c.New.Usage.PromptTokens, "completion": c.New.Usage.CompletionTokens},
		},
	}, nil
}

// compareLens offers, on a node's output document, to compare its
// current output with the version before it.
func compareLens(st psession.NodeState, r protocol.Range, args func(text string) []any) []protocol.CodeLens {
	if st.Current < 2 {
		return nil
	}
	v := fmt.Sprintf("v%d", st.Current-1)
	return []protocol.CodeLens{{Range: r, Command: &protocol.Command{Title: "⇄ Compare with " + v, Command: cmdCompare, Arguments: args(v)}}}
}
