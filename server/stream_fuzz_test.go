package server

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"
)

// rwBuffer reads from a fixed input and discards writes.
type rwBuffer struct {
	r *bytes.Reader
}

func (b rwBuffer) Read(p []byte) (int, error)  { return b.r.Read(p) }
func (b rwBuffer) Write(p []byte) (int, error) { return len(p), nil }
func (b rwBuffer) Close() error                { return nil }

// FuzzStream feeds arbitrary bytes to the framing layer: it must neither
// panic nor loop, and it must end at the end of the input.
func FuzzStream(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 44\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}"))
	f.Add([]byte("Content-Length: -1\r\n\r\nContent-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("garbage\nContent-Length: 3\r\n\r\n[1]"))
	f.Add([]byte("Content-Length: 10\r\n\r\n{\"id\":\"é"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := newStream(rwBuffer{bytes.NewReader(data)}, slog.New(slog.DiscardHandler))
		defer st.Close()
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatalf("more messages than input bytes: the reader loops")
			}
			if _, _, err := st.Read(context.Background()); err != nil {
				if err != io.EOF && err != io.ErrUnexpectedEOF {
					t.Fatalf("read error other than the end of input: %v", err)
				}
				return
			}
		}
	})
}
