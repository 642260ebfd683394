package workbench

import (
	"go.lsp.dev/protocol"

	psession "github.com/flowcabal/flowcabal/session"
)

// staleLenses follows a node's state lens when the files its output was
// built from changed since: one click re-runs it (the cache will not
// serve the old output). A frozen output says so in its state lens and
// is offered no re-run: the author froze it to keep it.
func staleLenses(st psession.NodeState, r protocol.Range, args []any) []protocol.CodeLens {
	if len(st.Stale) == 0 || st.Status != "approved" {
		return nil
	}
	return []protocol.CodeLens{{Range: r, Command: &protocol.Command{Title: "↻ Re-run (sources changed)", Command: cmdRunNode, Arguments: args}}}
}
