package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
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
