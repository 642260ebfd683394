package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"testing"
	"time"
)

// FuzzSession sends fuzzed JSON-RPC messages to a whole server over a
// real pipe, after a valid initialize: whatever arrives, the server
// answers or ignores it, never panics, and still answers a ping after it.
func FuzzSession(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.flow"},"position":{"line":0,"character":0}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/a.flow","languageId":"flow","version":1,"text":"node a { user \"{{b}}\" }"}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/a.flow","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":99},"end":{"line":0,"character":0}},"text":"😀"}]}}`,
		`{"jsonrpc":"2.0","id":"x","method":"workspace/executeCommand","params":{"command":"flowcabal.runNode","arguments":[{"uri":"untitled:1"}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"$/cancelRequest","params":{"id":3}}`,
		`{"jsonrpc":"2.0","id":4,"method":"textDocument/completion","params":null}`,
		`{"jsonrpc":"2.0","id":5,"method":"textDocument/selectionRange","params":{"textDocument":{"uri":"file:///w/a.flow"},"positions":[{"line":0,"character":0},{"line":99,"character":1}]}}`,
		`{"jsonrpc":"2.0","id":6,"method":"callHierarchy/incomingCalls","params":{"item":{"name":"a","uri":"file:///w/a.flow","data":{"uri":3}}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"callHierarchy/outgoingCalls","params":{"item":{"name":"a","uri":"file:///w/a.flow","data":"x"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"textDocument/documentLink","params":{"textDocument":{"uri":"untitled:1"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"workspace/willRenameFiles","params":{"files":[{"oldUri":"file:///","newUri":"file:///w/../.."},{"oldUri":1}]}}`,
		`{"jsonrpc":"2.0","id":10,"method":"textDocument/inlayHint","params":{"textDocument":{"uri":"file:///w/a.flow"},"range":{"start":{"line":5,"character":3},"end":{"line":0,"character":0}}}}`,
		`[1,2,3]`, `{"id":{}}`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		a, b := net.Pipe()
		srv := newServer(Options{})
		done := make(chan error, 1)
		go func() { done <- srv.serve(context.Background(), a) }()
		defer func() {
			b.Close()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the server did not end after its client left")
			}
		}()
		// Drain whatever the server writes so it never blocks on the pipe.
		in := &frameReader{r: b}
		replies := make(chan map[string]any, 64)
		go func() {
			for {
				body, err := in.read()
				if err != nil {
					close(replies)
					return
				}
				var m map[string]any
				if json.Unmarshal(body, &m) == nil {
					select {
					case replies <- m:
					default:
					}
				}
			}
		}()
		send := func(body []byte) {
			_ = b.SetWriteDeadline(time.Now().Add(5 * time.Second))
			_, _ = fmt.Fprintf(b, "Content-Length: %d\r\n\r\n", len(body))
			_, _ = b.Write(body)
		}
		send([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`))
		for m := range replies {
			if m["id"] == float64(1) {
				break
			}
		}
		send([]byte(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
		send(msg)
		send([]byte(`{"jsonrpc":"2.0","id":"ping-after","method":"flowcabal/ping"}`))
		deadline := time.After(10 * time.Second)
		for {
			select {
			case m, ok := <-replies:
				if !ok {
					return // the fuzzed message ended the session (exit): fine
				}
				if m["id"] == "ping-after" {
					// Answered: "pong", or an error when the fuzzed
					// message was a shutdown.
					if m["result"] != "pong" && m["error"] == nil {
						t.Fatalf("ping after the fuzzed message: %v", m)
					}
					return
				}
			case <-deadline:
				t.Fatal("no answer to a ping after the fuzzed message: the session hangs")
			}
		}
	})
}
