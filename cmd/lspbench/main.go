// Command lspbench measures the FlowCabal language server over its real
// stdio transport: it writes a workspace of 50 .flow files of 200 nodes
// each plus a manuscript of at least a million characters (from the 红楼梦
// corpus), starts `flowcabal serve`, and reports p50/p99 latencies of
// hover, completion, documentSymbol, definition, references,
// documentHighlight, documentLink, selectionRange, the call hierarchy,
// inlay hints, willRenameFiles, code actions and their resolution, and
// didChange -> publishDiagnostics, each also as a ratio to a no-op request
// on the same connection, plus start -> first diagnostics and the server's
// peak resident memory.
//
// Usage:
//
//	go run ./cmd/lspbench [-bin flowcabal] [-corpus DIR] [-n 500] [-header-hints=false]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
)

const (
	nFlows     = 50
	nNodes     = 200
	targetSize = 1_000_000 // characters of manuscript
)

func main() {
	bin := flag.String("bin", "", "the flowcabal binary (default: build ./cmd/flowcabal)")
	corpus := flag.String("corpus", "../shared/corpus/hongloumeng", "folder of chapter files 001.txt… for the manuscript (default: the shared corpus beside the repository)")
	n := flag.Int("n", 500, "samples per measurement")
	keep := flag.Bool("keep", false, "keep the generated workspace")
	memprofile := flag.String("memprofile", "", "have the server write its heap profile here when it exits")
	initOpts := flag.String("init-options", "", `initializationOptions to send, as JSON (e.g. {"outline":"compact"})`)
	headers := flag.Bool("header-hints", true, "wait for the nodes' header inlay hints before measuring (false: measure a build that has none, as a baseline)")
	echo := flag.Bool("echo-server", false, "serve the transport probe on stdin/stdout (started by lspbench itself)")
	flag.Parse()
	if *echo {
		if err := echoServer(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "lspbench -echo-server:", err)
			os.Exit(1)
		}
		return
	}
	var opts json.RawMessage
	if *initOpts != "" {
		if !json.Valid([]byte(*initOpts)) {
			fmt.Fprintln(os.Stderr, "lspbench: -init-options is not JSON")
			os.Exit(2)
		}
		opts = json.RawMessage(*initOpts)
	}
	if err := run(*bin, *corpus, *n, *keep, *memprofile, opts, *headers); err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(1)
	}
}

func run(bin, corpus string, n int, keep bool, memprofile string, initOpts json.RawMessage, headers bool) error {
	dir, err := os.MkdirTemp("", "lspbench-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	if bin == "" {
		bin = filepath.Join(dir, "flowcabal")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/flowcabal").CombinedOutput(); err != nil {
			return fmt.Errorf("build: %v\n%s", err, out)
		}
	}
	ws := filepath.Join(dir, "ws")
	chars, err := writeWorkspace(ws, corpus)
	if err != nil {
		return err
	}
	fmt.Printf("workspace: %d flows x %d nodes, manuscript %d characters\n", nFlows, nNodes, chars)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	t0 := time.Now()
	args := []string{"serve", "--log-level", "warn"}
	if memprofile != "" {
		args = append(args, "--memprofile", memprofile)
	}
	if p := os.Getenv("LSPBENCH_CPUPROFILE"); p != "" {
		args = append(args, "--cpuprofile", p)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stderr = os.Stderr
	if g := os.Getenv("LSPBENCH_SERVER_GODEBUG"); g != "" {
		cmd.Env = append(os.Environ(), "GODEBUG="+g) // e.g. gctrace=1, for the server alone
	}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return err
	}
	c := newClient(stdout, stdin)
	if err := c.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": cache.FileURI(ws), "initializationOptions": initOpts,
		"capabilities": map[string]any{"textDocument": map[string]any{
			"hover":          map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
			"codeAction":     map[string]any{"dataSupport": true, "resolveSupport": map[string]any{"properties": []string{"edit"}}},
			"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
			"completion": map[string]any{"completionList": map[string]any{"itemDefaults": []string{"editRange", "data"}}, "completionItem": map[string]any{"snippetSupport": true,
				"documentationFormat": []string{"markdown"}, "resolveSupport": map[string]any{"properties": []string{"documentation"}}}}}}}, nil); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	initDone := time.Since(t0)
	_ = c.Notify(ctx, "initialized", map[string]any{})
	name := filepath.Join(ws, "workflows", "flow-25.flow")
	src, _ := os.ReadFile(name)
	text := string(src)
	uri := cache.FileURI(name)
	_ = c.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "flow", "version": 1, "text": text}})
	if _, err := c.Diagnostics(ctx, uri, 1); err != nil {
		return err
	}
	first := time.Since(t0)
	if os.Getenv("LSPBENCH_RSS") != "" {
		fmt.Printf("after first diagnostics: peak %d kB\n", peakRSS(cmd.Process.Pid))
	}

	pos := func(marker string, delta int) protocol.Position {
		i := strings.Index(text, marker)
		if i < 0 {
			panic("marker " + marker)
		}
		return lsptest.Position(text, i+delta, false)
	}
	doc := map[string]any{"uri": uri}
	at := func(p protocol.Position) map[string]any { return map[string]any{"textDocument": doc, "position": p} }
	refPos := pos("{{n150}}", 3)
	declPos := pos("node n100 ", 6)
	complPos := pos("{{n180}}", 2)

	type op struct {
		name   string
		method string
		params any
		target float64 // p50 ratio to the floor, or 0
	}
	ops := []op{
		{"hover", "textDocument/hover", at(refPos), 1.5},
		{"hover on a node name (+ Role A)", "textDocument/hover", at(pos("node n150 ", 6)), 0},
		{"definition", "textDocument/definition", at(refPos), 1.5},
		{"documentSymbol", "textDocument/documentSymbol", map[string]any{"textDocument": doc}, 1.5},
		{"completion", "textDocument/completion", at(complPos), 0},
		{"references", "textDocument/references", map[string]any{"textDocument": doc, "position": declPos, "context": map[string]any{"includeDeclaration": true}}, 0},
		{"documentHighlight", "textDocument/documentHighlight", at(refPos), 1.5},
		{"documentLink", "textDocument/documentLink", map[string]any{"textDocument": doc}, 1.5},
		{"selectionRange", "textDocument/selectionRange", map[string]any{"textDocument": doc, "positions": []protocol.Position{refPos}}, 1.5},
		{"prepareCallHierarchy", "textDocument/prepareCallHierarchy", at(refPos), 1.5},
	}
	// Inlay hints as an editor asks for them: the 100 lines on screen,
	// around n100 (ten nodes, each with its header hint, and one
	// {{@chapter:L1}}). The header hints are Role A's counts, made in the
	// background once its view of the project is built: waited for, so
	// that what is measured is the answer with them.
	top := pos("node n100 ", 0).Line
	visible := map[string]any{"textDocument": doc, "range": protocol.Range{Start: protocol.Position{Line: top}, End: protocol.Position{Line: top + 100}}}
	if headers {
		if err := waitHeaderHints(ctx, c, visible); err != nil {
			return err
		}
	}
	ops = append(ops,
		op{"inlayHint (100 visible lines)", "textDocument/inlayHint", visible, 3},
		op{"inlayHint (whole file)", "textDocument/inlayHint", map[string]any{"textDocument": doc, "range": protocol.Range{End: lsptest.Position(text, len(text), false)}}, 0})
	// Renames the editor announces: a chapter no workflow names, and one
	// every workflow names (49 of them closed, parsed for the edit).
	for _, r := range []struct{ name, chapter string }{{"a chapter nothing names", "chapter-050"}, {"a chapter all 50 workflows name", "chapter-001"}} {
		old := filepath.Join(ws, "manuscript", r.chapter)
		ops = append(ops, op{"willRenameFiles (" + r.name + ")", "workspace/willRenameFiles",
			map[string]any{"files": []map[string]any{{"oldUri": cache.FileURI(old), "newUri": cache.FileURI(old + "-renamed")}}}, 0})
	}
	// The same rename to a new name at every ask, as an editor sends one
	// rename once: the server's kept answer (a repeated ask of one
	// snapshot) never serves it, so the row times the whole work.
	renamed := filepath.Join(ws, "manuscript", "chapter-001")
	ops = append(ops, op{"willRenameFiles (all 50, a new name each ask)", "workspace/willRenameFiles",
		func(i int) any {
			return map[string]any{"files": []map[string]any{{"oldUri": cache.FileURI(renamed), "newUri": cache.FileURI(fmt.Sprintf("%s-renamed-%d", renamed, i))}}}
		}, 0})
	// The call hierarchy's items come from the server: n150 (callers and
	// callees in its file) and n199, which the next file reads through
	// its `use`.
	for _, n := range []struct {
		name, marker string
		delta        int
	}{{"n150", "{{n150}}", 3}, {"n199 (read across a use)", "node n199 ", 6}} {
		var raw json.RawMessage
		var items []map[string]any
		if err := c.Call(ctx, "textDocument/prepareCallHierarchy", at(pos(n.marker, n.delta)), &raw); err != nil || json.Unmarshal(raw, &items) != nil || len(items) != 1 {
			return fmt.Errorf("prepareCallHierarchy on %s: %s %v", n.marker, raw, err)
		}
		item := map[string]any{"item": items[0]}
		ops = append(ops, op{"incomingCalls " + n.name, "callHierarchy/incomingCalls", item, 1.5},
			op{"outgoingCalls " + n.name, "callHierarchy/outgoingCalls", item, 1.5})
	}
	// Role B's actions on a node, listed without their edits (this client
	// resolves them), and one edit resolved: the costly part.
	actPos := pos("node n120 ", 6)
	actParams := map[string]any{"textDocument": doc, "range": protocol.Range{Start: actPos, End: actPos}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}
	var raw json.RawMessage
	var acts []map[string]any
	if err := c.Call(ctx, "textDocument/codeAction", actParams, &raw); err != nil || json.Unmarshal(raw, &acts) != nil {
		return fmt.Errorf("codeAction: %s %v", raw, err)
	}
	ops = append(ops, op{"codeAction on a node (edits lazy)", "textDocument/codeAction", actParams, 0})
	for _, a := range acts {
		if a["data"] != nil {
			ops = append(ops, op{"codeAction/resolve (a Role B patch)", "codeAction/resolve", a, 0})
			break
		}
	}
	// Each request is timed twice: to the last byte of its answer (the
	// server and the transport), and to the answer decoded by this
	// client's encoding/json, which reads large results at a fraction of
	// an editor's native JSON speed.
	measure := func(method string, params any) (wire, decoded []time.Duration, err error) {
		for i := 0; i < n+n/10; i++ {
			t := time.Now()
			var res json.RawMessage
			w, err := c.Timed(ctx, method, paramsAt(params, i), &res)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", method, err)
			}
			if i >= n/10 { // the first tenth warms up
				wire = append(wire, w)
				decoded = append(decoded, time.Since(t))
			}
		}
		return wire, decoded, nil
	}
	floor, floorDecoded, err := measure("flowcabal/ping", nil)
	if err != nil {
		return err
	}
	fp50 := pct(floor, 50)
	fmt.Printf("\n%-40s %10s %10s %10s %10s %12s %10s %10s\n", "measure (to the answer's last byte)", "p50", "p99", "p50/floor", "p99/floor", "p50 decoded", "p50/adj.", "paired")
	// adj is the p50 of no-op requests measured just before a row: the
	// first floor is taken before Role A's snapshot is loaded (by the
	// node hover), and every request after it shares the bigger heap's
	// garbage collection, a no-op included. paired is the request's p50
	// over a no-op's, the two sent turn about in one loop: on cores other
	// work shares, both see the same load (a floor taken a minute earlier
	// may not).
	row := func(name string, d, dec []time.Duration, adj time.Duration, paired float64) {
		p50, p99 := pct(d, 50), pct(d, 99)
		decoded := ""
		if dec != nil {
			decoded = ms(pct(dec, 50))
		}
		adjRatio := ""
		if adj > 0 {
			adjRatio = fmt.Sprintf("%9.2fx", float64(p50)/float64(adj))
		}
		pairedRatio := ""
		if paired > 0 {
			pairedRatio = fmt.Sprintf("%9.2fx", paired)
		}
		fmt.Printf("%-40s %10s %10s %9.2fx %9.2fx %12s %10s %10s\n", name, ms(p50), ms(p99), float64(p50)/float64(fp50), float64(p99)/float64(pct(floor, 99)), decoded, adjRatio, pairedRatio)
	}
	pair := func(method string, params any) (float64, error) {
		var noop, req []time.Duration
		for i := 0; i < n+n/10; i++ {
			a, err := c.Timed(ctx, "flowcabal/ping", nil, nil)
			if err != nil {
				return 0, err
			}
			var res json.RawMessage
			b, err := c.Timed(ctx, method, paramsAt(params, n+n/10+i), &res)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", method, err)
			}
			if i >= n/10 {
				noop, req = append(noop, a), append(req, b)
			}
		}
		return float64(pct(req, 50)) / float64(pct(noop, 50)), nil
	}
	row("no-op round trip (floor)", floor, floorDecoded, 0, 0)
	type sized struct {
		name  string
		bytes int
	}
	var answers []sized
	var lastAdj time.Duration
	for _, o := range ops {
		adj, _, err := measure("flowcabal/ping", nil)
		if err != nil {
			return err
		}
		d, dec, err := measure(o.method, o.params)
		if err != nil {
			return err
		}
		paired, err := pair(o.method, o.params)
		if err != nil {
			return err
		}
		var raw json.RawMessage
		_ = c.Call(ctx, o.method, paramsAt(o.params, 0), &raw)
		lastAdj = pct(adj, 50)
		row(fmt.Sprintf("%s (%d B)", o.name, len(raw)), d, dec, lastAdj, paired)
		// The probe times answers of the sizes of the rows with a target,
		// and of the renames and the action list, whose answers are the
		// largest of the rest.
		if o.target > 0 || o.method == "workspace/willRenameFiles" || o.method == "textDocument/codeAction" {
			answers = append(answers, sized{o.name, len(raw)})
		}
		if os.Getenv("LSPBENCH_RSS") != "" {
			fmt.Printf("  peak so far %d kB\n", peakRSS(cmd.Process.Pid))
		}
	}

	// didChange -> publishDiagnostics: alternate a broken and a fixed
	// reference in the 200-node file, waiting for each version.
	var changes []time.Duration
	broken := strings.Replace(text, "{{n150}}", "{{n15O}}", 1)
	for v := int32(2); v < int32(2+n+n/10); v++ {
		next := text
		if v%2 == 0 {
			next = broken
		}
		t := time.Now()
		_ = c.Notify(ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v},
			"contentChanges": []map[string]any{{"text": next}}})
		p, err := c.Diagnostics(ctx, uri, v)
		if err != nil {
			return err
		}
		if (v%2 == 0) != hasUnknown(p) {
			return fmt.Errorf("version %d: wrong diagnostics %v", v, p.Diagnostics)
		}
		if v >= int32(2+n/10) {
			changes = append(changes, time.Since(t))
		}
	}
	row("didChange -> publishDiagnostics", changes, nil, lastAdj, 0)
	// An incremental one-character edit, what typing sends.
	var typing []time.Duration
	edit := lsptest.Position(text, strings.Index(text, "Write part")+5, false)
	for v := int32(10_000); v < int32(10_000+n+n/10); v++ {
		t := time.Now()
		_ = c.Notify(ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v},
			"contentChanges": []map[string]any{{"range": protocol.Range{Start: edit, End: edit}, "text": "x"}}})
		if _, err := c.Diagnostics(ctx, uri, v); err != nil {
			return err
		}
		if v >= int32(10_000+n/10) {
			typing = append(typing, time.Since(t))
		}
	}
	row("typing (1 char) -> publishDiagnostics", typing, nil, lastAdj, 0)

	rss := peakRSS(cmd.Process.Pid)
	_ = c.Call(ctx, "shutdown", nil, nil)
	_ = c.Notify(ctx, "exit", nil)
	_ = cmd.Wait()
	c.Close()
	fmt.Printf("\nstart -> first diagnostics: %s (target < 170 ms; initialize answered at %s)\n", ms(first), ms(initDone))
	fmt.Printf("peak resident memory: %.1f MB (target < 100 MB)\n", float64(rss)/1024)
	fmt.Printf("targets: hover, definition, documentSymbol, documentHighlight, documentLink, selectionRange, the call hierarchy p50 <= 1.5x floor; inlayHint of 100 visible lines p50 <= 3x floor; completion p99 < 5 ms; didChange -> publishDiagnostics p99 < 5 ms\n")

	// The same sizes through the same kind of pipes, from a process that
	// does nothing but write answers built in advance.
	sizes := []int{0}
	for _, a := range answers {
		sizes = append(sizes, a.bytes)
	}
	p50s, err := probeTransport(ctx, n, sizes)
	if err != nil {
		return fmt.Errorf("transport probe: %w", err)
	}
	fmt.Printf("\ntransport alone (an echo process answering with prepared bytes, no work):\n")
	fmt.Printf("%-40s %10s %14s %24s\n", "answer", "p50", "added by size", "as a ratio to our floor")
	fmt.Printf("%-40s %10s\n", "tiny", ms(p50s[0]))
	for i, a := range answers {
		added := p50s[i+1] - p50s[0]
		fmt.Printf("%-40s %10s %14s %23.2fx\n", fmt.Sprintf("%d B, the size of %s", a.bytes, a.name), ms(p50s[i+1]), ms(added),
			float64(fp50+added)/float64(fp50))
	}
	fmt.Printf("(the last column is the least p50/floor any server with this connection's floor could reach for that answer)\n")
	return nil
}

// waitHeaderHints waits until the inlay hints of params hold a node's
// header hint with Role A's count ("≈ 1,234 tok · 5% of 24k").
func waitHeaderHints(ctx context.Context, c *client, params any) error {
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var raw json.RawMessage
		if err := c.Call(ctx, "textDocument/inlayHint", params, &raw); err != nil {
			return err
		}
		var hs []struct{ Label string }
		if err := json.Unmarshal(raw, &hs); err != nil {
			return fmt.Errorf("inlayHint: %w", err)
		}
		headers := 0
		for _, h := range hs {
			if strings.HasPrefix(h.Label, "≈ ") && strings.Contains(h.Label, "% of ") {
				headers++
			}
		}
		if headers >= 10 {
			fmt.Printf("inlay hints of the visible range: %d, %d of them header hints (e.g. %q)\n", len(hs), headers, hs[0].Label)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no header inlay hints after 3 minutes: %s", raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func hasUnknown(p lsptest.Published) bool {
	for _, d := range p.Diagnostics {
		if d.Code == "unknown-ref" {
			return true
		}
	}
	return false
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3fms", float64(d.Microseconds())/1000) }

// peakRSS reads the process's peak resident set (VmHWM) in kB.
func peakRSS(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			var kb int
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")), "%d", &kb)
			return kb
		}
	}
	return 0
}

// writeWorkspace writes the project and returns the manuscript's size in
// characters.
func writeWorkspace(ws, corpus string) (int, error) {
	write := func(rel, content string) error {
		p := filepath.Join(ws, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(content), 0o644)
	}
	if err := write("flowcabal.toml", "budget = 24000\n"); err != nil {
		return 0, err
	}
	for _, m := range []string{"outline", "style-guide", "world-rules"} {
		if err := write("meta/"+m+".md", "# "+m+"\n\n大观园中，诸芳齐聚。\n"); err != nil {
			return 0, err
		}
	}
	files, err := filepath.Glob(filepath.Join(corpus, "*.txt"))
	if err != nil || len(files) == 0 {
		return 0, fmt.Errorf("no chapters in %s", corpus)
	}
	sort.Strings(files)
	total, ch := 0, 0
	for total < targetSize {
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return 0, err
			}
			ch++
			if err := write(fmt.Sprintf("manuscript/chapter-%03d/content.md", ch), string(b)); err != nil {
				return 0, err
			}
			total += len([]rune(string(b)))
			if total >= targetSize {
				break
			}
		}
	}
	for f := 0; f < nFlows; f++ {
		var b strings.Builder
		if f > 0 {
			fmt.Fprintf(&b, "use \"flow-%02d.flow\" as prev\n\n", f-1)
		}
		fmt.Fprintf(&b, "workflow \"第%d卷 · 红楼\" {\n  budget = 24000\n}\n\n", f)
		for i := 0; i < nNodes; i++ {
			fmt.Fprintf(&b, "node n%d \"第%d节 宝玉与黛玉\" {\n  temperature = 0.7\n", i, i)
			b.WriteString("  user \"\"\"\n    Write part " + fmt.Sprint(i) + " of the chapter. 黛玉葬花，宝玉听曲。\n")
			if i > 0 {
				fmt.Fprintf(&b, "    From {{n%d}}", i-1)
				if i > 10 {
					fmt.Fprintf(&b, " and {{n%d}}", i-10)
				}
				b.WriteString("\n")
			} else if f > 0 {
				b.WriteString("    After {{prev.n199}}\n")
			}
			if i%20 == 0 {
				fmt.Fprintf(&b, "    Previous chapter: {{@manuscript/chapter-%03d:L1}}\n", i/20+1)
			}
			b.WriteString("  \"\"\"\n}\n\n")
		}
		if err := write(fmt.Sprintf("workflows/flow-%02d.flow", f), b.String()); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// paramsAt is the params of a request's i-th ask: params itself, or what
// a func(int) any gives for i (a request that must differ at each ask).
func paramsAt(params any, i int) any {
	if f, ok := params.(func(int) any); ok {
		return f(i)
	}
	return params
}
