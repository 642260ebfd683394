package entitysuggest

import (
	"context"

	"github.com/flowcabal/flowcabal/textsearch"
)

func extractCJK(ctx context.Context, chapters []Chapter, f *textsearch.Folder) (*extraction, error) {
	return &extraction{window: 300, fuller: func(a, b *form) bool { return a.spec > b.spec }}, nil
}
