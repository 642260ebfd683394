package builder

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/workflowlang"
)

const (
	previewContext = 2
	// maxDiffCells bounds the line-diff table of one region; larger
	// regions are shown as all removed, then all added.
	maxDiffCells = 4 << 20
)

// preview renders edits of src as a unified diff. The edits give the
// regions that changed (nearby ones merged); inside a region the lines are
// diffed, so a re-rendered node shows only the lines that differ.
func preview(path string, src []byte, edits []workflowlang.TextEdit) string {
	if len(edits) == 0 {
		return ""
	}
	lines := splitLines(src)
	starts := make([]int, len(lines)+1)
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	lineOf := func(off int) int {
		return sort.Search(len(lines), func(i int) bool { return starts[i+1] > off })
	}
	type region struct {
		a, b  int // old lines [a, b)
		edits []workflowlang.TextEdit
	}
	sorted := append([]workflowlang.TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Span.Start < sorted[j].Span.Start })
	var regions []region
	for _, e := range sorted {
		a := lineOf(e.Span.Start)
		b := a + 1
		switch {
		case e.Span.Start == e.Span.End && (a == len(lines) || e.Span.Start == starts[a]):
			b = a // an insertion at a line start
		case e.Span.End > e.Span.Start:
			l := lineOf(e.Span.End)
			if l < len(lines) && e.Span.End == starts[l] {
				b = l
			} else {
				b = l + 1
			}
		}
		b = min(b, len(lines))
		if n := len(regions); n > 0 && a <= regions[n-1].b+2*previewContext {
			regions[n-1].b = max(regions[n-1].b, b)
			regions[n-1].edits = append(regions[n-1].edits, e)
			continue
		}
		regions = append(regions, region{a: a, b: b, edits: []workflowlang.TextEdit{e}})
	}

	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s (suggested)\n", path, path)
	shift := 0
	for _, r := range regions {
		base := starts[r.a]
		old := src[base:starts[r.b]]
		local := make([]workflowlang.TextEdit, len(r.edits))
		for i, e := range r.edits {
			local[i] = workflowlang.TextEdit{Span: workflowlang.Span{Start: e.Span.Start - base, End: e.Span.End - base}, NewText: e.NewText}
		}
		oldLines := lines[r.a:r.b]
		newLines := splitLines(workflowlang.ApplyEdits(old, local))
		ops := diffLines(oldLines, newLines)
		if len(ops) == 0 {
			continue
		}
		before := lines[max(r.a-previewContext, 0):r.a]
		after := lines[r.b:min(r.b+previewContext, len(lines))]
		oldN, newN := len(before)+len(after), len(before)+len(after)
		for _, op := range ops {
			if op.kind != '+' {
				oldN++
			}
			if op.kind != '-' {
				newN++
			}
		}
		first := r.a - len(before)
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", first+1, oldN, first+1+shift, newN)
		for _, l := range before {
			writeLine(&out, ' ', l)
		}
		for _, op := range ops {
			writeLine(&out, op.kind, op.line)
		}
		for _, l := range after {
			writeLine(&out, ' ', l)
		}
		shift += newN - oldN
	}
	return out.String()
}

type diffOp struct {
	kind byte // ' ', '-' or '+'
	line string
}

// diffLines is a longest-common-subsequence line diff. It returns nil when
// the two sides are equal.
func diffLines(a, b []string) []diffOp {
	if slicesEqual(a, b) {
		return nil
	}
	if len(a)*len(b) > maxDiffCells {
		var ops []diffOp
		for _, l := range a {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	return ops
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func writeLine(b *strings.Builder, kind byte, line string) {
	b.WriteByte(kind)
	b.WriteString(strings.TrimSuffix(line, "\n"))
	b.WriteByte('\n')
}

// splitLines splits after each '\n', keeping it.
func splitLines(src []byte) []string {
	var out []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			out = append(out, string(src))
			break
		}
		out = append(out, string(src[:i+1]))
		src = src[i+1:]
	}
	return out
}
