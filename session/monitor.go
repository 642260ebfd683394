package session

import (
	"context"
	"crypto/sha256"
	"sync"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/monitor"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// reportingGate is Role C's monitor as the runner's gate, keeping the
// latest reports by output text so that the editor can show the model's
// findings on the output document without asking the model again.
type reportingGate struct {
	m *monitor.Monitor

	mu      sync.Mutex
	reports map[[32]byte]*monitor.Report
	order   [][32]byte
}

// keptReports bounds the reports kept: the latest outputs are the ones
// the author looks at.
const keptReports = 64

func (g *reportingGate) Review(ctx context.Context, n *workflowlang.Node, output string, attempt int) (runner.Verdict, error) {
	d, err := g.m.Decide(ctx, n, output, attempt)
	if err != nil {
		return runner.Verdict{}, err
	}
	if d.Report != nil {
		k := sha256.Sum256([]byte(output))
		g.mu.Lock()
		if _, ok := g.reports[k]; !ok {
			g.order = append(g.order, k)
			if len(g.order) > keptReports {
				delete(g.reports, g.order[0])
				g.order = g.order[1:]
			}
		}
		g.reports[k] = d.Report
		g.mu.Unlock()
	}
	return d.Verdict, nil
}

func (g *reportingGate) report(text string) *monitor.Report {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.reports[sha256.Sum256([]byte(text))]
}

// ModelFindings returns what the agent model's angles found in text when
// it was an output the gate reviewed in this session (nil otherwise), as
// findings of the deterministic checkers' shape: located ones with their
// range, unlocated ones at offset 0 with an empty range. Findings that a
// deterministic checker alone made are left out: Check gives those.
func (s *Session) ModelFindings(text string) []factcheck.Finding {
	s.mu.Lock()
	g := s.gate
	s.mu.Unlock()
	if g == nil {
		return nil
	}
	return g.report(text).ModelFindings()
}
