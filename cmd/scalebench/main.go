// Command scalebench measures `flowcabal serve` on a web-novel-size
// project (made by `flowcabal bench genproject`), over the server's real
// stdio transport: start -> first diagnostics of the workflow, the first
// hover on a node (and the first one whose answer holds Role A's
// "Context injected"), the warm node hover's p50, and the server's peak
// resident memory. scripts/bench-scale.sh runs it beside the CLI figures.
//
//	go run ./cmd/scalebench -bin /tmp/flowcabal -project /tmp/wn3000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
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

func main() {
	bin := flag.String("bin", "flowcabal", "the flowcabal binary")
	proj := flag.String("project", "", "the project (made by flowcabal bench genproject)")
	wf := flag.String("workflow", "workflows/next-chapter.flow", "the workflow to open, relative to the project")
	node := flag.String("node", "正文", "the node to hover")
	n := flag.Int("n", 50, "warm hover samples")
	cpuprofile := flag.String("cpuprofile", "", "have the server write a CPU profile here")
	flag.Parse()
	if *proj == "" {
		fmt.Fprintln(os.Stderr, "scalebench: -project is required")
		os.Exit(2)
	}
	if err := run(*bin, *proj, *wf, *node, *n, *cpuprofile); err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
}

type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

func run(bin, proj, wf, node string, n int, cpuprofile string) error {
	proj, _ = filepath.Abs(proj)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	args := []string{"serve", "--log-level", "warn"}
	if cpuprofile != "" {
		args = append(args, "--cpuprofile", cpuprofile)
	}
	t0 := time.Now()
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return err
	}
	c := lsptest.Connect(ctx, pipes{stdout, stdin})
	if err := c.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": cache.FileURI(proj),
		"capabilities": map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}}}}, nil); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	_ = c.Notify(ctx, "initialized", map[string]any{})
	name := filepath.Join(proj, filepath.FromSlash(wf))
	src, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	text := string(src)
	uri := cache.FileURI(name)
	_ = c.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "flow", "version": 1, "text": text}})
	if _, err := c.Diagnostics(ctx, uri, 1); err != nil {
		return err
	}
	firstDiag := time.Since(t0)

	i := strings.Index(text, "node "+node)
	if i < 0 {
		return fmt.Errorf("no node %s in %s", node, wf)
	}
	params := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Position(text, i+len("node "), false)}
	hover := func() (string, time.Duration, error) {
		t := time.Now()
		var h protocol.Hover
		if err := c.Call(ctx, "textDocument/hover", params, &h); err != nil {
			return "", 0, err
		}
		return h.Contents.Value, time.Since(t), nil
	}
	t1 := time.Now()
	first, firstTook, err := hover()
	if err != nil {
		return err
	}
	firstInjected := time.Duration(0)
	firstText := first
	for !strings.Contains(firstText, "Context injected") || strings.Contains(firstText, "still indexing") {
		if time.Since(t1) > 5*time.Minute {
			return fmt.Errorf("no Context injected after 5 minutes: %q", firstText)
		}
		time.Sleep(20 * time.Millisecond)
		if firstText, _, err = hover(); err != nil {
			return err
		}
	}
	firstInjected = time.Since(t1)
	cpuInjected := procCPU(cmd.Process.Pid)
	var warm []time.Duration
	for k := 0; k < n+n/10; k++ {
		_, d, err := hover()
		if err != nil {
			return err
		}
		if k >= n/10 {
			warm = append(warm, d)
		}
	}
	cpuWarm := procCPU(cmd.Process.Pid) - cpuInjected
	// A hover after each edit of the node's user prompt: what was kept
	// for the old words does not serve, Role A assembles again. (Every
	// edit is kept: the warm hovers above came first.)
	var edited []time.Duration
	open := strings.Index(text[i:], `user """`)
	for k := 0; open >= 0 && k < max(5, n/5); k++ {
		at := i + open + len(`user """`)
		next := text[:at] + fmt.Sprintf("\n    第%d稿。", k+1) + text[at:]
		_ = c.Notify(ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": k + 2},
			"contentChanges": []map[string]any{{"text": next}}})
		_, d, err := hover()
		if err != nil {
			return err
		}
		edited = append(edited, d)
	}
	rss := peakRSS(cmd.Process.Pid)
	_ = c.Call(ctx, "shutdown", nil, nil)
	_ = c.Notify(ctx, "exit", nil)
	_ = cmd.Wait()
	c.Close()
	out := map[string]any{
		"first_diagnostics_ms":   ms(firstDiag),
		"first_hover_ms":         ms(firstTook),
		"first_hover_indexing":   strings.Contains(first, "still indexing"),
		"first_hover_first_line": firstLine(first),
		"first_injected_ms":      ms(firstInjected),
		"warm_hover_p50_ms":      ms(pct(warm, 50)),
		"warm_hover_p99_ms":      ms(pct(warm, 99)),
		"edited_hover_p50_ms":    ms(pct(edited, 50)),
		"server_peak_rss_mb":     float64(rss) / 1024,
		// CPU time the server used (every thread, from /proc, 10 ms
		// ticks): from its start to the first hover with the context
		// injected, and per warm hover on average. On a machine shared
		// with other work these say what the wall times cannot.
		"first_injected_cpu_ms": ms(cpuInjected),
		"warm_hover_cpu_ms":     ms(cpuWarm / time.Duration(max(1, len(warm)+n/10))),
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	return nil
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "indexing") || strings.Contains(l, "Would be injected") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

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

// procCPU returns the CPU time process pid has used (user and system),
// 0 when /proc cannot say.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: the fields after it
	// start past its closing parenthesis.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	// USER_HZ is 100 on every Linux the project runs on.
	return time.Duration(utime+stime) * (time.Second / 100)
}
