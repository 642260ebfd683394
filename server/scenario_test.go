package server

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

var update = flag.Bool("update", false, "rewrite the golden files of the scenario tests")

// TestScenarios runs every testdata/lsp/scenarios/*.txt: an archive of
// workspace files ("-- path --" sections) and a script ("-- @script --"),
// one request per line, whose rendered answers are compared with the
// .golden file next to it. Adding a case is adding a file; run with
// -update to write its golden output, then read it.
//
// Script lines (PATTERN is a quoted string holding one '|', the cursor):
//
//	open FILE                  diagnostics FILE
//	hover FILE PATTERN         definition FILE PATTERN
//	references FILE PATTERN    complete FILE PATTERN
//	prepare FILE PATTERN       rename FILE PATTERN NEWNAME
//	actions FILE PATTERN       apply FILE PATTERN TITLE
//	symbols FILE               wsymbol QUERY
//	format FILE                folding FILE
//	tokens FILE                lens FILE
//	highlight FILE PATTERN     links FILE
//	selection FILE PATTERN...  calls FILE PATTERN (prepare, incoming, outgoing)
//	wrename OLD NEW            (workspace/willRenameFiles: a file or folder)
//	hints FILE                 (textDocument/inlayHint over the whole file)
//	init PAYLOAD (first line only; default vscode-1.100.json)
func TestScenarios(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "lsp", "scenarios", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txt")
		t.Run(name, func(t *testing.T) { runScenario(t, p) })
	}
}

func parseArchive(t *testing.T, data string) (files map[string]string, script []string) {
	files = map[string]string{}
	var cur string
	var b strings.Builder
	flush := func() {
		if cur != "" {
			files[cur] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") {
			flush()
			cur = strings.TrimSuffix(strings.TrimPrefix(trimmed, "-- "), " --")
			continue
		}
		if cur != "" {
			b.WriteString(line)
		}
	}
	flush()
	for _, l := range strings.Split(files["@script"], "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			script = append(script, l)
		}
	}
	delete(files, "@script")
	return files, script
}

// fields splits a script line on spaces, keeping Go-quoted strings whole.
func fields(t *testing.T, line string) []string {
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '"' {
			q, err := strconv.QuotedPrefix(line)
			if err != nil {
				t.Fatalf("bad quoted string in %q: %v", line, err)
			}
			s, _ := strconv.Unquote(q)
			out = append(out, s)
			line = line[len(q):]
			continue
		}
		i := strings.IndexByte(line, ' ')
		if i < 0 {
			i = len(line)
		}
		out = append(out, line[:i])
		line = line[i:]
	}
	return out
}

func runScenario(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files, script := parseArchive(t, string(data))
	payload := "vscode-1.100.json"
	if len(script) > 0 && strings.HasPrefix(script[0], "init ") {
		payload = strings.TrimSpace(strings.TrimPrefix(script[0], "init "))
		script = script[1:]
	}
	s := newSession(t, payload, files)
	texts := map[string]string{} // open documents
	versions := map[string]int32{}
	var out strings.Builder
	rel := func(u protocol.DocumentURI) string {
		p, ok := cache.URIPath(u)
		if !ok {
			return string(u)
		}
		r, err := filepath.Rel(s.dir, p)
		if err != nil {
			return string(u)
		}
		return filepath.ToSlash(r)
	}
	text := func(file string) string {
		if tx, ok := texts[file]; ok {
			return tx
		}
		return files[file]
	}
	rng := func(file string, r protocol.Range) string {
		sl, err := lsptest.Slice(text(file), r, s.utf8)
		if err != nil {
			return fmt.Sprintf("%d:%d-%d:%d !%v", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, err)
		}
		return fmt.Sprintf("%d:%d-%d:%d %q", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, sl)
	}
	apply := func(changes map[protocol.DocumentURI][]protocol.TextEdit) {
		var keys []string
		for u := range changes {
			keys = append(keys, string(u))
		}
		sort.Strings(keys)
		for _, u := range keys {
			f := rel(protocol.DocumentURI(u))
			res, err := lsptest.Apply(text(f), changes[protocol.DocumentURI(u)], s.utf8)
			if err != nil {
				fmt.Fprintf(&out, "  %s: cannot apply: %v\n", f, err)
				continue
			}
			fmt.Fprintf(&out, "  == %s ==\n%s", f, indent(res))
		}
	}
	for _, line := range script {
		fmt.Fprintf(&out, "> %s\n", line)
		args := fields(t, line)
		file := ""
		var uri protocol.DocumentURI
		var pos protocol.Position
		if len(args) > 1 {
			file = args[1]
			uri = s.uri(file)
		}
		if len(args) > 2 && strings.Contains(args[2], "|") {
			off, err := markerOffset(text(file), args[2])
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			pos = lsptest.Position(text(file), off, s.utf8)
		}
		tdoc := map[string]any{"uri": uri}
		errOut := func(err error) bool {
			if err == nil {
				return false
			}
			code := codeOf(err)
			// Paths of the temporary workspace would make the output vary.
			fmt.Fprintf(&out, "  error %d: %s\n", code, strings.ReplaceAll(err.Error(), s.dir, "$WORK"))
			return true
		}
		switch args[0] {
		case "open":
			texts[file] = files[file]
			versions[file] = 1
			p := s.openText(uri, files[file], 1)
			renderDiags(&out, p, file, rng)
		case "diagnostics":
			p, err := s.client.Diagnostics(s.ctx, uri, versions[file])
			if !errOut(err) {
				renderDiags(&out, p, file, rng)
			}
		case "hover":
			var h *protocol.Hover
			if errOut(s.client.Call(s.ctx, "textDocument/hover", docPos(uri, pos), &h)) {
				continue
			}
			if h == nil {
				out.WriteString("  (none)\n")
				continue
			}
			fmt.Fprintf(&out, "  range %s\n%s", rng(file, *h.Range), indent(h.Contents.Value+"\n"))
		case "definition", "references":
			var locs []protocol.Location
			params := docPos(uri, pos)
			params["context"] = map[string]any{"includeDeclaration": true}
			if errOut(s.client.Call(s.ctx, "textDocument/"+args[0], params, &locs)) {
				continue
			}
			for _, l := range locs {
				f := rel(l.URI)
				if _, ok := files[f]; ok {
					fmt.Fprintf(&out, "  %s %s\n", f, rng(f, l.Range))
				} else {
					fmt.Fprintf(&out, "  %s\n", f)
				}
			}
		case "complete":
			var list completionList
			if errOut(s.client.Call(s.ctx, "textDocument/completion", docPos(uri, pos), &list)) {
				continue
			}
			for _, li := range list.Items {
				it := li.CompletionItem
				if it.TextEdit == nil && list.ItemDefaults != nil && list.ItemDefaults.EditRange != nil {
					// What a 3.17 client does with the default range.
					it.TextEdit = &protocol.TextEdit{Range: *list.ItemDefaults.EditRange, NewText: li.TextEditText}
				}
				if it.Documentation == nil && it.Data != nil {
					// What an editor does when it shows an item.
					var res protocol.CompletionItem
					if errOut(s.client.Call(s.ctx, "completionItem/resolve", it, &res)) {
						continue
					}
					it.Documentation = res.Documentation
				}
				ins := it.InsertText
				if it.TextEdit != nil {
					ins = it.TextEdit.NewText + " @" + rng(file, it.TextEdit.Range)
				}
				fmt.Fprintf(&out, "  %s [%s] %q -> %s\n", it.Label, it.Detail, docString(it.Documentation), ins)
			}
		case "prepare":
			var res *prepareRenameResult
			if errOut(s.client.Call(s.ctx, "textDocument/prepareRename", docPos(uri, pos), &res)) {
				continue
			}
			fmt.Fprintf(&out, "  %s placeholder %q\n", rng(file, res.Range), res.Placeholder)
		case "rename":
			var e protocol.WorkspaceEdit
			params := docPos(uri, pos)
			params["newName"] = args[3]
			if errOut(s.client.Call(s.ctx, "textDocument/rename", params, &e)) {
				continue
			}
			apply(e.Changes)
		case "actions", "apply":
			var acts []protocol.CodeAction
			params := map[string]any{"textDocument": tdoc, "range": protocol.Range{Start: pos, End: pos}, "context": map[string]any{"diagnostics": []any{}}}
			if errOut(s.client.Call(s.ctx, "textDocument/codeAction", params, &acts)) {
				continue
			}
			for _, a := range acts {
				if args[0] == "actions" {
					fmt.Fprintf(&out, "  [%s] %s\n", a.Kind, a.Title)
				} else if a.Title == args[3] {
					apply(a.Edit.Changes)
				}
			}
		case "symbols":
			var syms []protocol.DocumentSymbol
			if errOut(s.client.Call(s.ctx, "textDocument/documentSymbol", map[string]any{"textDocument": tdoc}, &syms)) {
				continue
			}
			renderSymbols(&out, syms, "  ", file, rng)
		case "wsymbol":
			var syms []protocol.SymbolInformation
			if errOut(s.client.Call(s.ctx, "workspace/symbol", map[string]any{"query": file}, &syms)) {
				continue
			}
			for _, sy := range syms {
				fmt.Fprintf(&out, "  %s (%s) %s\n", sy.Name, sy.ContainerName, rel(sy.Location.URI))
			}
		case "format":
			var edits []protocol.TextEdit
			if errOut(s.client.Call(s.ctx, "textDocument/formatting", map[string]any{"textDocument": tdoc, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)) {
				continue
			}
			apply(map[protocol.DocumentURI][]protocol.TextEdit{uri: edits})
		case "folding":
			var fr []protocol.FoldingRange
			if errOut(s.client.Call(s.ctx, "textDocument/foldingRange", map[string]any{"textDocument": tdoc}, &fr)) {
				continue
			}
			lines := strings.Split(text(file), "\n")
			for _, r := range fr {
				fmt.Fprintf(&out, "  %d-%d %q\n", r.StartLine, r.EndLine, strings.TrimSpace(lines[r.StartLine]))
			}
		case "tokens":
			var toks semanticTokens
			if errOut(s.client.Call(s.ctx, "textDocument/semanticTokens/full", map[string]any{"textDocument": tdoc}, &toks)) {
				continue
			}
			out.WriteString(indent(strings.TrimPrefix(decodeTokens(t, text(file), toks.Data, s.init.Capabilities.SemanticTokensProvider.Legend, s.utf8), "\n")))
		case "lens":
			var lenses []protocol.CodeLens
			if errOut(s.client.Call(s.ctx, "textDocument/codeLens", map[string]any{"textDocument": tdoc}, &lenses)) {
				continue
			}
			for _, l := range lenses {
				a, _ := json.Marshal(l.Command.Arguments)
				fmt.Fprintf(&out, "  line %d: %s %s %s\n", l.Range.Start.Line, l.Command.Title, l.Command.Command, strings.ReplaceAll(string(a), string(s.uri(""))+"/", ""))
			}
		case "highlight":
			var hs []protocol.DocumentHighlight
			if errOut(s.client.Call(s.ctx, "textDocument/documentHighlight", docPos(uri, pos), &hs)) {
				continue
			}
			if len(hs) == 0 {
				out.WriteString("  (none)\n")
			}
			for _, h := range hs {
				fmt.Fprintf(&out, "  %v %s\n", h.Kind, rng(file, h.Range))
			}
		case "links":
			var links []protocol.DocumentLink
			if errOut(s.client.Call(s.ctx, "textDocument/documentLink", map[string]any{"textDocument": tdoc}, &links)) {
				continue
			}
			for _, l := range links {
				fmt.Fprintf(&out, "  %s -> %s\n    %s\n", rng(file, l.Range), rel(l.Target), l.Tooltip)
			}
		case "selection":
			var ps []protocol.Position
			for _, m := range args[2:] {
				off, err := markerOffset(text(file), m)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				ps = append(ps, lsptest.Position(text(file), off, s.utf8))
			}
			var srs []protocol.SelectionRange
			if errOut(s.client.Call(s.ctx, "textDocument/selectionRange", map[string]any{"textDocument": tdoc, "positions": ps}, &srs)) {
				continue
			}
			for i, sr := range srs {
				fmt.Fprintf(&out, "  at %q\n", args[2+i])
				for r := &sr; r != nil; r = r.Parent {
					fmt.Fprintf(&out, "    %s\n", shorten(rng(file, r.Range)))
				}
			}
		case "calls":
			var items []protocol.CallHierarchyItem
			if errOut(s.client.Call(s.ctx, "textDocument/prepareCallHierarchy", docPos(uri, pos), &items)) {
				continue
			}
			if len(items) == 0 {
				out.WriteString("  (none)\n")
			}
			item := func(it protocol.CallHierarchyItem) string {
				f := rel(it.URI)
				return fmt.Sprintf("%s (%s, kind %v) %s sel %s", it.Name, it.Detail, it.Kind, f, rng(f, it.SelectionRange))
			}
			for _, it := range items {
				fmt.Fprintf(&out, "  item %s\n", item(it))
				var in []protocol.CallHierarchyIncomingCall
				if errOut(s.client.Call(s.ctx, "callHierarchy/incomingCalls", map[string]any{"item": it}, &in)) {
					continue
				}
				for _, c := range in {
					fmt.Fprintf(&out, "    <- %s\n", item(c.From))
					for _, r := range c.FromRanges {
						fmt.Fprintf(&out, "         from %s\n", rng(rel(c.From.URI), r))
					}
				}
				var outc []protocol.CallHierarchyOutgoingCall
				if errOut(s.client.Call(s.ctx, "callHierarchy/outgoingCalls", map[string]any{"item": it}, &outc)) {
					continue
				}
				for _, c := range outc {
					fmt.Fprintf(&out, "    -> %s\n", item(c.To))
					for _, r := range c.FromRanges { // in the item's file
						fmt.Fprintf(&out, "         from %s\n", rng(rel(it.URI), r))
					}
				}
			}
		case "hints":
			var hs []source.InlayHint
			whole := protocol.Range{End: lsptest.Position(text(file), len(text(file)), s.utf8)}
			if errOut(s.client.Call(s.ctx, "textDocument/inlayHint", map[string]any{"textDocument": tdoc, "range": whole}, &hs)) {
				continue
			}
			for _, h := range hs {
				fmt.Fprintf(&out, "  after %s: %q (%s)\n", rng(file, protocol.Range{Start: protocol.Position{Line: h.Position.Line}, End: h.Position}), h.Label, h.Tooltip)
			}
		case "wrename":
			var e *protocol.WorkspaceEdit
			params := map[string]any{"files": []map[string]any{{"oldUri": s.uri(args[1]), "newUri": s.uri(args[2])}}}
			if errOut(s.client.Call(s.ctx, "workspace/willRenameFiles", params, &e)) {
				continue
			}
			if e == nil {
				out.WriteString("  (no edit)\n")
				continue
			}
			apply(e.Changes)
		default:
			t.Fatalf("unknown script command %q", args[0])
		}
	}
	golden := strings.TrimSuffix(path, ".txt") + ".golden"
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != out.String() {
		t.Errorf("output differs from %s (run with -update after checking):\n%s", golden, lineDiff(string(want), out.String()))
	}
}

// shorten keeps a rendered range on one line of a golden file: the text
// of a node or a whole file is cut in the middle.
func shorten(r string) string {
	r = strings.ReplaceAll(r, `\n`, "⏎")
	if rs := []rune(r); len(rs) > 90 {
		return string(rs[:60]) + "…" + string(rs[len(rs)-25:])
	}
	return r
}

func renderDiags(out *strings.Builder, p lsptest.Published, file string, rng func(string, protocol.Range) string) {
	if len(p.Diagnostics) == 0 {
		out.WriteString("  (no diagnostics)\n")
	}
	for _, d := range p.Diagnostics {
		fmt.Fprintf(out, "  %s %v %v: %s\n", rng(file, d.Range), d.Severity, d.Code, d.Message)
	}
}

func renderSymbols(out *strings.Builder, syms []protocol.DocumentSymbol, pre, file string, rng func(string, protocol.Range) string) {
	for _, s := range syms {
		fmt.Fprintf(out, "%s%s (%s, kind %v) sel %s\n", pre, s.Name, s.Detail, s.Kind, rng(file, s.SelectionRange))
		renderSymbols(out, s.Children, pre+"  ", file, rng)
	}
}

func docString(d any) string {
	switch d := d.(type) {
	case string:
		return d
	case map[string]any:
		v, _ := d["value"].(string)
		return v
	}
	return ""
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// lineDiff shows the first differing lines.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, a, b)
		}
	}
	return ""
}

var _ = jsonrpc2.InvalidParams
