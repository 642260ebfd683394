package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// layered returns a workflow of depth layers of width nodes; every node
// reads two nodes of the layer before.
func layered(depth, width int) string {
	var b strings.Builder
	for l := 0; l < depth; l++ {
		for w := 0; w < width; w++ {
			fmt.Fprintf(&b, "node n%d_%d { user \"\"\"step %d.%d", l, w, l, w)
			if l > 0 {
				fmt.Fprintf(&b, " {{n%d_%d}} {{n%d_%d}}", l-1, w, l-1, (w+1)%width)
			}
			b.WriteString("\"\"\" }\n")
		}
	}
	return b.String()
}

// BenchmarkCriticalPath runs a 100-node DAG of width 10 against a model
// that answers after 50 ms, and reports the run's time as a ratio of its
// critical path (10 × 50 ms). Target: ≤ 1.15.
//
//	go test ./runner -run '^$' -bench CriticalPath -benchtime 5x
//
// x-measured-path divides the run's time by the longest path through the
// DAG of the model calls' own durations in the same run, as the runner
// saw them (50 ms plus the HTTP round trip, the client and the server):
// what is left is the runner's scheduling and bookkeeping.
//
// The scripted server runs in the benchmark's process, sharing its CPU
// with the runner; BenchmarkCriticalPathServerApart moves it to a process
// of its own, as a real endpoint is (on the same cores here).
func BenchmarkCriticalPath(b *testing.B) {
	f := newFixture(b, layered(10, 10), llmtest.Script{Default: &llmtest.Reply{Content: "ok"}, Latency: llmtest.Duration(benchLatency)})
	criticalPath(b, f)
}

// BenchmarkCriticalPathServerApart is BenchmarkCriticalPath with the
// scripted server in a child process.
func BenchmarkCriticalPathServerApart(b *testing.B) {
	f := newFixture(b, layered(10, 10), llmtest.Script{})
	f.srv = &llmtest.Server{URL: scriptedServerApart(b, benchLatency)}
	f.run = f.newRunner(nil)
	criticalPath(b, f)
}

const benchLatency = 50 * time.Millisecond

func criticalPath(b *testing.B, f *fixture) {
	f.run.cfg.Concurrency = 10
	var mu sync.Mutex
	calls := map[string]time.Duration{}
	model := f.run.cfg.Model
	f.run.cfg.Model = ModelFunc(func(ctx context.Context, p Params, msgs []Message, onDelta func(Delta)) (Reply, error) {
		start := time.Now()
		r, err := model.Stream(ctx, p, msgs, onDelta)
		mu.Lock()
		calls[p.Node] = time.Since(start)
		mu.Unlock()
		return r, err
	})
	wf := f.checked()
	plan, err := NewPlan(wf, Target{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var total time.Duration
	var measured float64
	cpu0 := cputime.Used()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := f.run.Run(context.Background(), wf, Options{Force: true})
		if err != nil || res.Status != "done" {
			b.Fatalf("%v %v", err, res.Status)
		}
		took := time.Since(start)
		total += took
		// The longest path of call durations, in plan (topological) order.
		end := map[string]time.Duration{}
		var longest time.Duration
		for _, n := range plan.Order {
			var ready time.Duration
			for _, d := range plan.Deps[n] {
				ready = max(ready, end[d])
			}
			end[n] = ready + calls[n]
			longest = max(longest, end[n])
		}
		measured += float64(took) / float64(longest)
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(10*benchLatency), "x-critical-path")
	b.ReportMetric(measured/float64(b.N), "x-measured-path")
	reportCPU(b, cpu0, 100)
}

// reportCPU reports the process's CPU time per node since cpu0: unlike
// the wall-clock figures it hardly depends on what else the machine runs.
// It includes the scripted server when it shares the process.
func reportCPU(b *testing.B, cpu0 time.Duration, nodesPerRun int) {
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(time.Millisecond)/float64(nodesPerRun*b.N), "cpu-ms/node")
}

// scriptedServerApart starts this test binary as a scripted server that
// answers "ok" after latency (see TestMain) and returns its URL. The
// child ends when the benchmark does.
func scriptedServerApart(b *testing.B, latency time.Duration) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLOWCABAL_RUNNER_SCRIPTED_LATENCY="+latency.String())
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		in.Close() // the child serves until its stdin closes
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://") {
		b.Fatalf("the scripted server did not start: %q %v", line, err)
	}
	return strings.TrimSpace(line)
}

// serveScripted is the child side of scriptedServerApart.
func serveScripted(latency string) int {
	d, err := time.ParseDuration(latency)
	if err != nil {
		return 3
	}
	srv, err := llmtest.Start("", llmtest.Script{Default: &llmtest.Reply{Content: "ok"}, Latency: llmtest.Duration(d)})
	if err != nil {
		return 3
	}
	defer srv.Close()
	srv.KeepRequests(10)
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// BenchmarkNodeOverhead measures what the runner adds per node around an
// instant model: prompt assembly, the HTTP round trip to a local server,
// the history record and the checkpoint (each an fsync'd bbolt commit).
// Target: < 2 ms per node.
//
//	go test ./runner -run '^$' -bench NodeOverhead -benchtime 5x
func BenchmarkNodeOverhead(b *testing.B) {
	f := newFixture(b, layered(10, 10), llmtest.Script{Default: &llmtest.Reply{Content: "ok"}})
	f.run.cfg.Concurrency = 10
	wf := f.checked()
	b.ResetTimer()
	start := time.Now()
	cpu0 := cputime.Used()
	for i := 0; i < b.N; i++ {
		if _, err := f.run.Run(context.Background(), wf, Options{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(100*b.N), "ms/node")
	reportCPU(b, cpu0, 100)
}

// TestMemoryFlatOverRuns runs a one-node workflow 1,000 times and compares
// the live heap after run 100 and after run 1,000: it must not grow with
// the number of runs (the history grows on disk, not in memory).
func TestMemoryFlatOverRuns(t *testing.T) {
	f := newFixture(t, "node only { user \"\"\"go\"\"\" }\n", llmtest.Script{Default: &llmtest.Reply{Content: "ok"}})
	f.srv.KeepRequests(10) // the scripted server shares this process's heap
	wf := f.checked()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var at100 uint64
	for i := 1; i <= 1000; i++ {
		if _, err := f.run.Run(context.Background(), wf, Options{Force: true}); err != nil {
			t.Fatal(err)
		}
		if i == 100 {
			at100 = heap()
		}
	}
	at1000 := heap()
	t.Logf("live heap after 100 runs: %d KB, after 1,000: %d KB", at100/1024, at1000/1024)
	if at1000 > at100*3/2+1<<20 {
		t.Errorf("heap grew from %d KB to %d KB over 900 runs", at100/1024, at1000/1024)
	}
}
