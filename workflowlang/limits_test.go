package workflowlang

import (
	"runtime"
	"strings"
	"testing"
)

// TestFiftyMegabyteFile parses and checks a 50 MB workflow (one node with
// a huge prompt full of references): it must work, report no syntax
// error, and keep the AST within 10x the file's size.
func TestFiftyMegabyteFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("node big {\n  persist = \"manuscript/chapter-1\"\n  user \"\"\"\n")
	const line = "    Elizabeth walked to Netherfield through the wet fields, {{premise}} and back.\n"
	for b.Len() < 50<<20 {
		b.WriteString(line)
	}
	b.WriteString("  \"\"\"\n}\nnode premise { user \"x\" }\n")
	src := []byte(b.String())

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	f := Parse("big.flow", src)
	res := Check(f, Env{})
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(res)

	for _, d := range res.Diagnostics {
		if d.Severity == SeverityError {
			t.Fatalf("a 50 MB file got an error: %s [%s]", d.Message, d.Code)
		}
	}
	if len(res.Order) != 2 || len(f.Node("big").Refs()) < 600_000 {
		t.Fatalf("order %v, %d refs", res.Order, len(f.Node("big").Refs()))
	}
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if ratio := float64(live) / float64(len(src)); ratio > 10 {
		t.Errorf("the AST of a %d-byte file holds %d bytes: %.1fx the file", len(src), live, ratio)
	}
}
