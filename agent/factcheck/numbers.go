package factcheck

import (
	"strconv"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

var smallNumbers = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

var scales = map[string]int{"hundred": 100, "thousand": 1000, "million": 1000000}

// number is a number expression found in the words of a text.
type number struct {
	first, last int   // word indexes
	vals        []int // one value, or the alternatives of "four or five"
}

// numberGap reports whether the text between two words of one number may
// join them: a space or a hyphen.
func numberGap(s string) bool {
	return s == " " || s == "-" || s == "\n" || s == ","
}

// parseNumberAt parses a number starting at word i of ws (with gaps(i, j)
// the text between words), returning it and whether there is one.
func parseNumberAt(ws []word, i int, gap func(i, j int) string) (number, bool) {
	v, end, ok := parseSimpleNumber(ws, i, gap)
	if !ok {
		return number{}, false
	}
	n := number{first: i, last: end, vals: []int{v}}
	// "four or five thousand"
	if end+2 < len(ws) && strings.ToLower(ws[end+1].s) == "or" && gap(end, end+1) == " " && gap(end+1, end+2) == " " {
		if v2, end2, ok := parseSimpleNumber(ws, end+2, gap); ok {
			// A scale on the second applies to the first too.
			if v < 100 && v2 >= 1000 && v2%1000 == 0 {
				for _, s := range []int{1000000, 1000} {
					if v2%s == 0 && v2/s < 100 {
						v *= s
						break
					}
				}
			}
			n.vals = []int{v, v2}
			n.last = end2
		}
	}
	return n, true
}

func parseSimpleNumber(ws []word, i int, gap func(i, j int) string) (int, int, bool) {
	w := strings.ToLower(ws[i].s)
	if d, err := strconv.Atoi(w); err == nil && len(w) <= 9 {
		end := i
		// "10,000"
		for end+1 < len(ws) && gap(end, end+1) == "," && len(ws[end+1].s) == 3 {
			if more, err := strconv.Atoi(ws[end+1].s); err == nil {
				d = d*1000 + more
				end++
				continue
			}
			break
		}
		if end+1 < len(ws) && gap(end, end+1) == " " {
			if s, ok := scales[strings.ToLower(ws[end+1].s)]; ok {
				return d * s, end + 1, true
			}
		}
		return d, end, true
	}
	total, cur := 0, 0
	j := i
	last := -1
	seen := false
	prevKind := ""
	for ; j < len(ws); j++ {
		w := strings.ToLower(ws[j].s)
		if j > i && !numberGap(gap(j-1, j)) || (j > i && gap(j-1, j) == ",") {
			break
		}
		if v, ok := smallNumbers[w]; ok {
			if prevKind == "unit" || prevKind == "teen" || (prevKind == "tens" && v >= 10) {
				break
			}
			cur += v
			switch {
			case v < 10:
				prevKind = "unit"
			case v < 20:
				prevKind = "teen"
			default:
				prevKind = "tens"
			}
			last, seen = j, true
			continue
		}
		if s, ok := scales[w]; ok && seen {
			if s == 100 {
				cur = max(cur, 1) * 100
			} else {
				total += max(cur, 1) * s
				cur = 0
			}
			prevKind = "scale"
			last = j
			continue
		}
		if w == "a" && j == i && j+1 < len(ws) && gap(j, j+1) == " " {
			if s, ok := scales[strings.ToLower(ws[j+1].s)]; ok {
				cur = s
				if s >= 1000 {
					total, cur = s, 0
				}
				prevKind, seen, last = "scale", true, j+1
				j++
				continue
			}
			break
		}
		if w == "and" && seen && j+1 < len(ws) {
			nx := strings.ToLower(ws[j+1].s)
			v, ok := smallNumbers[nx]
			// "five-and-thirty", "five and twenty", "a hundred and ten"
			if ok && ((prevKind == "unit" && v >= 20 && v%10 == 0) || prevKind == "scale") {
				prevKind = ""
				continue
			}
			break
		}
		break
	}
	if !seen {
		return 0, 0, false
	}
	return total + cur, last, true
}

// numbersIn finds every number expression of d's words.
func (d *doc) numbersIn() []number {
	var out []number
	gap := func(i, j int) string { return d.between(i, j) }
	for i := 0; i < len(d.words); i++ {
		n, ok := parseNumberAt(d.words, i, gap)
		if !ok {
			continue
		}
		// "a" alone is not a number; parseSimpleNumber only accepts it
		// before a scale.
		out = append(out, n)
		i = n.last
	}
	return out
}

// parseValue reads a declared value: its leading number (or numbers, for
// "four or five thousand a year"), whether it is approximate ("about
// thirty"), and the words after the number, lower case.
func parseValue(v string) (vals []int, approx bool, rest []string, ok bool) {
	ws := wordsOf(v)
	if len(ws) == 0 {
		if vals, approx, ok := prose.ParseCJKAge(v); ok {
			return vals, approx, nil, true
		}
		return nil, false, nil, false
	}
	i := 0
	for i < len(ws) && approxWords[strings.ToLower(ws[i].s)] {
		approx = true
		i++
	}
	if i >= len(ws) {
		return nil, false, nil, false
	}
	gap := func(a, b int) string { return v[ws[a].end:ws[b].start] }
	n, found := parseNumberAt(ws, i, gap)
	if !found {
		if vals, approx, ok := prose.ParseCJKAge(v); ok {
			return vals, approx, nil, true
		}
		return nil, false, nil, false
	}
	for _, w := range ws[n.last+1:] {
		rest = append(rest, strings.ToLower(w.s))
	}
	return n.vals, approx, rest, true
}

var approxWords = wordSet("about", "around", "nearly", "almost", "roughly", "some", "approximately", "circa", "c")

// wordsOf splits s into words with offsets.
func wordsOf(s string) []word {
	var out []word
	start := -1
	for i, r := range s {
		if prose.IsLatinWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, word{s: s[start:i], start: start, end: i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, word{s: s[start:], start: start, end: len(s)})
	}
	return out
}
