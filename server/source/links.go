package source

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// levelNames say what each level of a resource is, for tooltips.
var levelNames = map[string]string{"L0": "one line", "L1": "overview", "L2": "full text"}

// DocumentLinks returns a link for every {{@path}} of f (in prompts, `use`
// arguments and input defaults) to the resource's file, and for the path
// of every `use` to the workflow it names. A path that names nothing is
// not a link: its diagnostic says what is wrong, and a link would open an
// empty file.
//
// The links are made once per snapshot: they are asked for again as the
// author scrolls and switches tabs, and only an edit changes them.
func DocumentLinks(snap *cache.Snapshot, f *cache.File, o Options) []protocol.DocumentLink {
	key := "links\x00" + string(f.Key) + "\x00" + strconv.Itoa(int(o.Encoding))
	return snap.Memo(key, func() any { return documentLinks(snap, f, o) }).([]protocol.DocumentLink)
}

func documentLinks(snap *cache.Snapshot, f *cache.File, o Options) []protocol.DocumentLink {
	pf := snap.Parse(f)
	out := []protocol.DocumentLink{}
	for _, u := range pf.Uses {
		uf, ok := usedFile(snap, pf, u)
		if !ok {
			continue
		}
		tip := fmt.Sprintf("%s, used as %s: %d nodes", containerName(uf), u.Alias.Name, len(snap.Summary(uf).Nodes))
		out = append(out, protocol.DocumentLink{Range: Range(pf, unquoted(pf.Src, u.Path.Span), o.Encoding), Target: uf.URI, Tooltip: tip})
	}
	for _, r := range refsOf(f, pf) {
		if r.Ref.Kind != workflowlang.RefKnowledge {
			continue
		}
		res, ok := snap.Resource(r.Ref.Path)
		if !ok {
			continue
		}
		out = append(out, protocol.DocumentLink{Range: Range(pf, r.Ref.Inner, o.Encoding), Target: cache.FileURI(res.File),
			Tooltip: knowledgeTooltip(snap, res, r.Ref.Level)})
	}
	return out
}

// knowledgeTooltip names the level a reference injects and what it costs
// there; when the snapshot cannot count that level, what the full text
// costs, labelled as such, so that no figure is passed off as another's.
// It is built by concatenation: a workflow has a link per reference, and
// the answer is asked for as the author scrolls.
func knowledgeTooltip(snap *cache.Snapshot, res *cache.Resource, level string) string {
	if level == "" {
		level = "L2"
	}
	name := filepath.Base(res.File)
	if root := snap.Root; root != "" && strings.HasPrefix(res.File, root) && len(res.File) > len(root) && os.IsPathSeparator(res.File[len(root)]) {
		name = filepath.ToSlash(res.File[len(root)+1:])
	}
	tip := name + " at " + level + " (" + levelNames[level] + ")"
	if n, ok := snap.Tokens(res.Path, level); ok {
		return tip + ": ~" + strconv.Itoa(n) + " tokens"
	}
	if n, ok := snap.Tokens(res.Path, "L2"); ok {
		return tip + "; its full text (L2) is ~" + strconv.Itoa(n) + " tokens"
	}
	return tip
}

// unquoted is sp without the quotes around it, when it has them.
func unquoted(src []byte, sp workflowlang.Span) workflowlang.Span {
	if sp.Len() >= 2 && sp.End <= len(src) && src[sp.Start] == '"' && src[sp.End-1] == '"' {
		return workflowlang.Span{Start: sp.Start + 1, End: sp.End - 1}
	}
	return sp
}
