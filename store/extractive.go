package store

import (
	"context"
	"strings"
	"unicode/utf8"
)

// Extractive summarises without a model, from the text's own sentences.
// Its levels are marked Extractive.
type Extractive struct{}

// Summarize implements Summarizer.
func (Extractive) Summarize(ctx context.Context, req SummaryRequest) (Summary, error) {
	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}
	l0, l1 := leadSentences(req.Text, 60), leadSentences(req.Text, 600)
	return Summary{L0: l0, L1: l1, Extractive: true}, nil
}

// leadSentences returns the first sentences of text up to about limit
// runes (at least one sentence, cut at limit).
func leadSentences(text string, limit int) string {
	var b strings.Builder
	n := 0
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		for _, sent := range splitSentences(t) {
			c := utf8.RuneCountInString(sent)
			if n > 0 && n+c > limit {
				return b.String()
			}
			if n == 0 && c > limit {
				r := []rune(sent)
				return string(r[:limit]) + "…"
			}
			if n > 0 && !endsCJK(b.String()) {
				b.WriteByte(' ')
			}
			b.WriteString(sent)
			n += c
		}
	}
	return b.String()
}

func splitSentences(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		switch r {
		case '。', '！', '？', '.', '!', '?':
			end := i + utf8.RuneLen(r)
			if seg := strings.TrimSpace(s[start:end]); seg != "" {
				out = append(out, seg)
			}
			start = end
		}
	}
	if seg := strings.TrimSpace(s[start:]); seg != "" {
		out = append(out, seg)
	}
	return out
}

func endsCJK(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r > 0x2E80
}
