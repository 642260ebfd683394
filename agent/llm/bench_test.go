//go:build unix

package llm_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// The client's cost per call against the loopback stand-in (no latency):
// an upper bound on what the client adds to a node's run.
func benchClient(b *testing.B) *llm.Client {
	srv := llmtest.New(b, llmtest.Script{Default: &llmtest.Reply{Content: strings.Repeat("word ", 200)}})
	c, err := llm.New(llm.Config{Name: "writer", BaseURL: srv.URL, Model: "m"}, llm.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func BenchmarkChat(b *testing.B) {
	c := benchClient(b)
	req := llm.Request{Messages: []llm.Message{llm.User("go")}}
	for b.Loop() {
		if _, err := c.Chat(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStream(b *testing.B) {
	c := benchClient(b)
	req := llm.Request{Messages: []llm.Message{llm.User("go")}}
	for b.Loop() {
		if _, err := c.Stream(context.Background(), req, func(llm.Delta) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWidth10Latency50ms: 100 streamed calls, 10 at a time, against
// a stand-in answering after 50 ms. The ideal is 10 waves of 50 ms; the
// reported ratio is the client's and server's share of issue 5's 1.15×
// budget.
func BenchmarkWidth10Latency50ms(b *testing.B) {
	srv := llmtest.New(b, llmtest.Script{Latency: llmtest.Duration(50 * time.Millisecond),
		Default: &llmtest.Reply{Content: strings.Repeat("word ", 100)}})
	c, err := llm.New(llm.Config{Name: "writer", BaseURL: srv.URL, Model: "m"}, llm.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	req := llm.Request{Messages: []llm.Message{llm.User("go")}}
	var total time.Duration
	cpu0 := cputime.Used()
	for b.Loop() {
		start := time.Now()
		for range 10 {
			var wg sync.WaitGroup
			for range 10 {
				wg.Go(func() {
					if _, err := c.Stream(context.Background(), req, func(llm.Delta) error { return nil }); err != nil {
						b.Error(err)
					}
				})
			}
			wg.Wait()
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(500*time.Millisecond), "x-ideal")
	// CPU (client and server together) per call: unlike the wall-clock
	// ratio it does not depend on what else the machine is running.
	b.ReportMetric(float64(cputime.Used()-cpu0)/float64(time.Millisecond)/float64(100*b.N), "cpu-ms/call")
}
