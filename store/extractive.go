package store

import (
	"context"
	"fmt"

	"github.com/flowcabal/flowcabal/summarize"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Extractive summarises without a model, with the text's own sentences
// (package summarize). Its levels are marked Extractive.
type Extractive struct {
	s *summarize.Summarizer
}

// NewExtractive returns the extractive Summarizer that finds terms with
// an and counts tokens with tc.
func NewExtractive(an *textsearch.Analyzer, tc *textsearch.Counter) *Extractive {
	return &Extractive{s: summarize.New(an, tc)}
}

// Summarize implements Summarizer.
func (e *Extractive) Summarize(ctx context.Context, req SummaryRequest) (Summary, error) {
	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}
	sum, err := e.s.Summarize(req.Text)
	if err != nil {
		return Summary{}, fmt.Errorf("extractive summary of %s: %w", req.Path, err)
	}
	return Summary{L0: sum.L0, L1: sum.L1, Extractive: true, Model: sum.Method}, nil
}

// extractive returns the store's extractive summariser, made on first use.
func (s *Store) extractive() *Extractive {
	s.extractOnce.Do(func() {
		s.extract = NewExtractive(s.search.analyzer(), textsearch.NewCounter(""))
	})
	return s.extract
}
