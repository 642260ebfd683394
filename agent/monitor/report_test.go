package monitor

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/monitor")

// render writes a report in a stable text form for golden files.
func render(text string, rep *Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		q := f.Quote
		if f.Located {
			q = text[f.Start:f.End]
			fmt.Fprintf(&b, "%s %s [%d,%d) %q conf=%.2f sources=%s\n", f.Severity, f.Type, f.Start, f.End, q, f.Confidence, strings.Join(f.Sources, "+"))
		} else {
			fmt.Fprintf(&b, "%s %s [document] %q conf=%.2f sources=%s\n", f.Severity, f.Type, q, f.Confidence, strings.Join(f.Sources, "+"))
		}
		fmt.Fprintf(&b, "\t%s\n", f.Message)
		if f.Suggestion != "" {
			fmt.Fprintf(&b, "\tfix: %q\n", f.Suggestion)
		}
		for _, e := range f.Evidence {
			switch {
			case e.Fact != nil:
				fmt.Fprintf(&b, "\t%s: %s#%s=%q line=%d since=%d rule=%q\n", e.Source, e.Fact.Path, e.Fact.Key, e.Fact.Value, e.Fact.Line, e.Fact.Since, e.Fact.Rule)
			default:
				fmt.Fprintf(&b, "\t%s (%s [%d,%d) fix=%q cites=%q ch=%d): %s\n", e.Source, e.How, e.Start, e.End, e.Suggestion, e.Resource, e.Chapter, e.Note)
			}
		}
	}
	for _, a := range rep.Angles {
		fmt.Fprintf(&b, "angle %s: %d findings, %d unlocated, err=%q\n", a.Angle, a.Findings, a.Unlocated, a.Err)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	fmt.Fprintf(&b, "model used: %v\n", rep.ModelUsed)
	return b.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "monitor", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// TestReportGolden pins the whole English report, and checks that running
// the angles in parallel gives the same report as one after the other.
func TestReportGolden(t *testing.T) {
	var first string
	for _, conc := range []int{1, 4} {
		h := newHarness(t, scriptEN(), Options{Concurrency: conc})
		rep, err := h.mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3, Node: "draft"})
		if err != nil {
			t.Fatal(err)
		}
		got := render(outputEN, rep)
		if conc == 1 {
			first = got
			golden(t, "report-en", got)
		} else if got != first {
			t.Errorf("concurrency %d gives another report:\n%s\nthan one at a time:\n%s", conc, got, first)
		}
	}
}

// TestCancel: a check whose model never answers ends when its context
// does, with the context's error and no run left behind (TestMain checks
// for leaks).
func TestCancel(t *testing.T) {
	h := newHarness(t, &llmtest.Script{Default: &llmtest.Reply{Fault: llmtest.FaultHang, Times: -1}}, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(h.srv.Requests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	rep, err := h.mon.Check(ctx, Request{Text: outputEN, Chapter: 3})
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("Check after cancel: %v, %v", rep, err)
	}
	if q := h.m.Queue(Role); len(q) != 0 {
		t.Errorf("runs left in the queue: %v", q)
	}
}

// TestBadText: invalid UTF-8 and an empty text are checked without a
// crash, offsets staying those of the given bytes.
func TestBadText(t *testing.T) {
	h := newHarness(t, &llmtest.Script{Replies: []llmtest.Reply{
		reply("world rules", `{"findings":[{"quote":"telephoned","explanation":"no telephones","confidence":0.9}]}`),
	}}, Options{})
	bad := "Mr. Hale \xff\xfe telephoned the doctor."
	rep, err := h.mon.Check(context.Background(), Request{Text: bad, Chapter: 3})
	if err != nil {
		t.Fatal(err)
	}
	f := findingAt(rep.Findings, bad, "telephoned")
	if f == nil || bad[f.Start:f.End] != "telephoned" || f.Severity != SeverityError {
		t.Errorf("finding in invalid UTF-8: %+v", rep.Findings)
	}
	rep, err = h.mon.Check(context.Background(), Request{Text: "", Chapter: 0})
	if err != nil || len(rep.Findings) != 0 {
		t.Errorf("empty text: %+v, %v", rep, err)
	}
}
