package flowgraph

import (
	"fmt"
	"html"
	"strings"
	"unicode"
)

// Box geometry, in SVG user units (px at 100%).
const (
	boxW     = 200
	boxH     = 66
	colGap   = 70
	rowGap   = 22
	margin   = 24
	titleH   = 34
	fontSize = 13
	maxEm    = 14.5 // text width available in a box, in ems
	barH     = 6
)

// category colours for the budget bar, in a fixed order so that the same
// category always has the same colour.
var categoryColors = map[string]string{
	"meta":       "#7e57c2",
	"entities":   "#ef6c00",
	"profiles":   "#f9a825",
	"manuscript": "#1e88e5",
	"summaries":  "#43a047",
	"explicit":   "#6d4c41",
}

func categoryColor(c string) string {
	if col, ok := categoryColors[c]; ok {
		return col
	}
	return "#90a4ae"
}

// SVG renders the graph as a standalone SVG document: columns left to right
// in dependency order, one rounded box per node coloured by state, curved
// edges (dashed for sub-workflow nodes), and under each box Role A's budget
// split as a stacked bar with a legend at the bottom.
func (g *Graph) SVG() string {
	lay := g.layout()
	rows := 0
	for _, c := range lay.cols {
		rows = max(rows, len(c))
	}
	width := 2*margin + max(1, len(lay.cols))*boxW + max(0, len(lay.cols)-1)*colGap
	height := titleH + 2*margin + max(1, rows)*boxH + max(0, rows-1)*rowGap + 28
	x := func(i int) int { return margin + lay.col[i]*(boxW+colGap) }
	y := func(i int) int { return titleH + margin + lay.row[i]*(boxH+rowGap) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="'Noto Sans CJK SC','Noto Sans',sans-serif" font-size="%d">`+"\n", width, height, width, height, fontSize)
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", esc(orDefault(g.Title, "workflow")))
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#78909c"/></marker></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fafafa"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="16" font-weight="bold" fill="#263238">%s</text>`+"\n", margin, margin+6, esc(fit(orDefault(g.Title, "workflow"), float64(width-2*margin)/16)))

	idx := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		idx[n.Name] = i
	}
	b.WriteString(`<g class="edges" fill="none" stroke="#78909c" stroke-width="1.5">` + "\n")
	for _, e := range g.Edges {
		a, ok1 := idx[e.From]
		c, ok2 := idx[e.To]
		if !ok1 || !ok2 || a == c {
			continue
		}
		x1, y1 := x(a)+boxW, y(a)+boxH/2
		x2, y2 := x(c), y(c)+boxH/2
		if lay.col[c] <= lay.col[a] { // a back edge of a cycle: loop around below
			x1, x2 = x(a)+boxW/2, x(c)+boxW/2
			y1, y2 = y(a)+boxH, y(c)+boxH
			fmt.Fprintf(&b, `<path d="M%d,%d C%d,%d %d,%d %d,%d" stroke="#c62828" marker-end="url(#arrow)"><title>%s → %s (cycle)</title></path>`+"\n", x1, y1, x1, y1+40, x2, y2+40, x2, y2, esc(e.From), esc(e.To))
			continue
		}
		dash := ""
		if e.External {
			dash = ` stroke-dasharray="5,4"`
		}
		mid := (x1 + x2) / 2
		fmt.Fprintf(&b, `<path d="M%d,%d C%d,%d %d,%d %d,%d"%s marker-end="url(#arrow)"><title>%s → %s</title></path>`+"\n", x1, y1, mid, y1, mid, y2, x2-2, y2, dash, esc(e.From), esc(e.To))
	}
	b.WriteString("</g>\n")

	cats := []string{}
	seenCat := map[string]bool{}
	for i, n := range g.Nodes {
		c := stateColor(n.State)
		bx, by := x(i), y(i)
		stale, staleAttr := "", ""
		if n.Stale != "" {
			// A stale output keeps its state's fill; the orange dashed
			// border and the line under the name say it needs a re-run.
			c.stroke, c.text = staleStroke, c.text+" · ⚠ stale"
			stale = ` stroke-dasharray="6,3"`
			staleAttr = ` data-stale="` + esc(n.Stale) + `"`
		}
		fmt.Fprintf(&b, `<g class="node" data-node="%s" data-state="%s"%s>`, esc(n.Name), esc(string(n.State)), staleAttr)
		fmt.Fprintf(&b, `<title>%s</title>`, esc(tooltip(n)))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="%s" stroke="%s" stroke-width="%s"%s/>`, bx, by, boxW, boxH, c.fill, c.stroke, strokeWidth(n.State), stale)
		line1, line2 := n.Name, n.Detail
		if n.Title != "" {
			line1, line2 = n.Title, n.Name
			if n.Detail != "" {
				line2 = n.Name + " · " + n.Detail
			}
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold" fill="#212121">%s</text>`, bx+10, by+20, esc(fit(line1, maxEm)))
		if line2 != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#546e7a" font-size="11">%s</text>`, bx+10, by+37, esc(fit(line2, maxEm*1.15)))
		}
		if c.text != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s" font-size="11">%s</text>`, bx+10, by+53, c.stroke, esc(c.text))
		}
		if n.Budget > 0 && len(n.Shares) > 0 {
			bar := float64(boxW - 20)
			off := float64(bx + 10)
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#e0e0e0"/>`, bx+10, by+boxH-barH-3, boxW-20, barH)
			for _, s := range n.Shares {
				if s.Tokens <= 0 {
					continue
				}
				w := bar * float64(s.Tokens) / float64(n.Budget)
				w = min(w, float64(bx+10)+bar-off)
				fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %d of %d tokens</title></rect>`, off, by+boxH-barH-3, w, barH, categoryColor(s.Category), esc(s.Category), s.Tokens, n.Budget)
				off += w
				if !seenCat[s.Category] {
					seenCat[s.Category] = true
					cats = append(cats, s.Category)
				}
			}
		}
		b.WriteString("</g>\n")
	}
	if len(cats) > 0 {
		lx := margin
		ly := height - 14
		for _, c := range cats {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" font-size="11" fill="#455a64">%s</text>`, lx, ly-9, categoryColor(c), lx+14, ly, esc(c))
			lx += 24 + int(textEm(c)*11)
		}
		b.WriteString("\n")
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// staleStroke outlines a node whose output is stale.
const staleStroke = "#e65100"

func strokeWidth(s State) string {
	if s == StateRunning || s == StateNeedsYou {
		return "2.5"
	}
	return "1.2"
}

func tooltip(n Node) string {
	parts := []string{n.Name}
	if n.Title != "" {
		parts = append(parts, n.Title)
	}
	if n.State != StateIdle {
		parts = append(parts, string(n.State))
	}
	if n.Detail != "" {
		parts = append(parts, n.Detail)
	}
	if n.Stale != "" {
		parts = append(parts, "stale: "+n.Stale)
	}
	for _, s := range n.Shares {
		parts = append(parts, fmt.Sprintf("%s %d tok", s.Category, s.Tokens))
	}
	return strings.Join(parts, " · ")
}

func esc(s string) string { return html.EscapeString(s) }

// textEm estimates the width of s in ems: wide (CJK, fullwidth, emoji)
// characters take one em, others a little over half.
func textEm(s string) float64 {
	w := 0.0
	for _, r := range s {
		w += runeEm(r)
	}
	return w
}

func runeEm(r rune) float64 {
	switch {
	case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r),
		unicode.Is(unicode.Hangul, r), r >= 0xFF00 && r <= 0xFFEF, r >= 0x3000 && r <= 0x303F, r >= 0x1F300:
		return 1
	case unicode.IsUpper(r):
		return 0.68
	default:
		return 0.56
	}
}

// fit shortens s with an ellipsis so that it takes at most em ems.
func fit(s string, em float64) string {
	if textEm(s) <= em {
		return s
	}
	w := 0.0
	for i, r := range s {
		w += runeEm(r)
		if w > em-1 {
			return s[:i] + "…"
		}
	}
	return s
}
