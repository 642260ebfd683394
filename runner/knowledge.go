package runner

import (
	"context"
	"fmt"

	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/summarize"
)

// StoreKnowledge serves {{@path:Ln}} from the project store: L2 is the
// file as it is now; L0 and L1 come from the store's derived levels, and
// while those are still being produced, from the extractive summariser
// run on the spot, so that a run never waits on the queue.
type StoreKnowledge struct {
	Store      *store.Store
	Summarizer *summarize.Summarizer // nil: pending levels are an error
}

// Level implements Knowledge.
func (k StoreKnowledge) Level(ctx context.Context, path, level string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	n := map[string]int{"L0": 0, "L1": 1, "L2": 2}
	lv, ok := n[level]
	if !ok {
		return "", fmt.Errorf("level %q: levels are L0, L1 and L2", level)
	}
	t, err := k.Store.Level(path, lv)
	if err != nil {
		return "", err
	}
	if lv == 2 || (!t.Pending && !t.Stale && t.Text != "") {
		return t.Text, nil
	}
	if k.Summarizer == nil {
		return "", fmt.Errorf("%s:%s is still being produced", path, level)
	}
	body, err := k.Store.Level(path, 2)
	if err != nil {
		return "", err
	}
	s, err := k.Summarizer.Summarize(body.Text)
	if err != nil {
		return "", fmt.Errorf("summarise %s: %w", path, err)
	}
	if lv == 0 {
		return s.L0, nil
	}
	return s.L1, nil
}
