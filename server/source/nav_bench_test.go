package source

import (
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
)

// The navigation features on lspbench's workspace (flow-25 open, its
// neighbours closed).

func BenchmarkDocumentHighlightChain(b *testing.B) {
	snap, f, text := chainSetup(b)
	p := lsptest.Position(text, strings.Index(text, "{{n150}}")+3, false)
	for b.Loop() {
		if hs, err := DocumentHighlights(snap, f, p, Options{}); err != nil || len(hs) != 2 {
			b.Fatalf("%d highlights, %v", len(hs), err)
		}
	}
}

func BenchmarkDocumentLinksChain(b *testing.B) {
	snap, f, _ := chainSetup(b)
	for b.Loop() {
		if ls := documentLinks(snap, f, Options{}); len(ls) != 1 {
			b.Fatalf("%d links", len(ls))
		}
	}
}

func BenchmarkSelectionRangeChain(b *testing.B) {
	snap, f, text := chainSetup(b)
	p := lsptest.Position(text, strings.Index(text, "{{n150}}")+3, false)
	for b.Loop() {
		if _, err := SelectionRanges(snap, f, []protocol.Position{p}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCallHierarchyChain(b *testing.B) {
	snap, f, text := chainSetup(b)
	for _, tc := range []struct {
		name, marker string
		delta        int
	}{{"n150", "{{n150}}", 3}, {"n199", "node n199 ", 6}} {
		p := lsptest.Position(text, strings.Index(text, tc.marker)+tc.delta, false)
		items, err := PrepareCallHierarchy(snap, f, p, Options{})
		if err != nil || len(items) != 1 {
			b.Fatalf("prepare: %v %v", items, err)
		}
		b.Run("prepare "+tc.name, func(b *testing.B) {
			for b.Loop() {
				PrepareCallHierarchy(snap, f, p, Options{})
			}
		})
		d := items[0].Data.(CallData)
		b.Run("incoming "+tc.name, func(b *testing.B) {
			for b.Loop() {
				if in := IncomingCalls(snap, d, Options{}); len(in) != 1 {
					b.Fatalf("%d incoming", len(in))
				}
			}
		})
		b.Run("outgoing "+tc.name, func(b *testing.B) {
			for b.Loop() {
				if out := OutgoingCalls(snap, d, Options{}); len(out) == 0 {
					b.Fatal("no outgoing calls")
				}
			}
		})
	}
}
