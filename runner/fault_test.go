package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

// TestFaultInjection runs 200 nodes against a server that fails 30% of
// requests (429, 500, cut streams, malformed JSON, truncated streams):
// every node ends done or with a clear error naming the endpoint, every
// output the runner reported is in the history, and retries are bounded.
func TestFaultInjection(t *testing.T) {
	src := `
node n1 { user """one""" }
node n2 { user """two""" }
node n3 { user """three""" }
node n4 { user """four""" }
node n5 { user """five""" }
node n6 { user """six""" }
node n7 { user """seven""" }
node n8 { user """eight""" }
node n9 { user """nine""" }
node n10 { user """ten""" }
`
	f := newFixture(t, src, llmtest.Script{
		Default:    &llmtest.Reply{Echo: true},
		FaultRate:  0.3,
		Seed:       11,
		Faults:     []llmtest.Fault{llmtest.Fault429, llmtest.Fault500, llmtest.FaultCut, llmtest.FaultBadJSON, llmtest.FaultTrunc},
		RetryAfter: "0",
	})
	wf := f.checked()
	ctx := context.Background()
	done, failed := 0, 0
	kinds := map[string]int{}
	for run := 0; run < 20; run++ {
		res, err := f.run.Run(ctx, wf, Options{Force: true})
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		for name, nr := range res.Nodes {
			switch nr.Status {
			case "done":
				done++
				o, err := f.store.OutputVersion("workflows/w.flow", name, nr.Version)
				if err != nil || o.Text != nr.Output {
					t.Errorf("run %d: %s v%d reported but not in the history: %v", run, name, nr.Version, err)
				}
			case "failed":
				failed++
				var le *llm.Error
				if !errors.As(nr.Err, &le) || !strings.Contains(nr.Err.Error(), f.srv.URL) {
					t.Errorf("run %d: %s failed without a clear error: %v", run, name, nr.Err)
				} else {
					kinds[le.Kind.String()]++
				}
			default:
				t.Errorf("run %d: %s ended %s", run, name, nr.Status)
			}
		}
	}
	if done+failed != 200 {
		t.Fatalf("%d nodes ended, want 200", done+failed)
	}
	reqs := len(f.requests())
	// One attempt plus at most one retry per node (the fixture's policy).
	if reqs > 2*200 {
		t.Errorf("%d requests for 200 nodes: retries are not bounded", reqs)
	}
	if done < 150 {
		t.Errorf("only %d of 200 nodes completed at a 30%% fault rate with a retry", done)
	}
	t.Logf("200 node runs: %d done, %d failed with a clear error %v, %d requests", done, failed, kinds, reqs)
	runs, _ := f.store.Runs("workflows/w.flow", true)
	if len(runs) != 0 {
		t.Errorf("%d runs left unfinished", len(runs))
	}
}
