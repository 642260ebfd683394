package entityfacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
	"go.yaml.in/yaml/v3"
)

// KV is one fact: a key and its value.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ChapterFacts are facts that hold from Chapter on: one progression.
type ChapterFacts struct {
	Chapter int  `json:"chapter"`
	Facts   []KV `json:"facts"`
}

// Addition is what the author accepted for one entity file.
type Addition struct {
	Facts        []KV
	Progressions []ChapterFacts
}

// Empty reports whether there is nothing to add.
func (a Addition) Empty() bool { return len(a.Facts) == 0 && len(a.Progressions) == 0 }

// Accepted collects the proposals of res that are new (not already in the
// file, not in conflict) as an Addition: the facts in order, the
// progressions grouped by chapter.
func Accepted(res *Result) Addition {
	var a Addition
	for _, p := range res.Proposals {
		if p.Status != StatusNew {
			continue
		}
		kv := KV{Key: p.Key, Value: p.Value}
		if p.Kind == KindFact {
			a.Facts = append(a.Facts, kv)
			continue
		}
		i := slices.IndexFunc(a.Progressions, func(c ChapterFacts) bool { return c.Chapter == p.Chapter })
		if i < 0 {
			a.Progressions = append(a.Progressions, ChapterFacts{Chapter: p.Chapter})
			i = len(a.Progressions) - 1
		}
		a.Progressions[i].Facts = append(a.Progressions[i].Facts, kv)
	}
	slices.SortStableFunc(a.Progressions, func(x, y ChapterFacts) int { return x.Chapter - y.Chapter })
	return a
}

// frontMatter is the YAML of a file's front matter, with where each of
// its lines is in the file.
type frontMatter struct {
	data  []byte
	end   int    // offset of the closing fence line
	eol   string // the file's line ending
	lines []int  // offset in data of each YAML line; one more: end
	keys  []*yaml.Node
	vals  []*yaml.Node
}

func parseFront(data []byte) (*frontMatter, error) {
	start := 0
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		start = 3
	}
	first, next := line(data, start)
	if string(first) != "---" {
		return nil, errors.New("the file has no front matter (a first line ---)")
	}
	f := &frontMatter{data: data, eol: "\n", end: -1}
	if bytes.HasSuffix(data[start:next], []byte("\r\n")) {
		f.eol = "\r\n"
	}
	for p := next; p < len(data); {
		l, n := line(data, p)
		if s := string(l); s == "---" || s == "..." {
			f.end = p
			break
		}
		f.lines = append(f.lines, p)
		p = n
	}
	if f.end < 0 {
		return nil, errors.New("the front matter has no closing --- line")
	}
	f.lines = append(f.lines, f.end)
	var doc yaml.Node
	if err := yaml.Unmarshal(data[next:f.end], &doc); err != nil {
		return nil, fmt.Errorf("the front matter is not valid YAML: %w", err)
	}
	if doc.Kind == 0 {
		return f, nil // empty front matter
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the front matter is not a block mapping of keys (key: value lines); add the facts by hand")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		f.keys = append(f.keys, root.Content[i])
		f.vals = append(f.vals, root.Content[i+1])
	}
	return f, nil
}

// line returns the line at p without its terminator and the offset of the
// next line.
func line(data []byte, p int) ([]byte, int) {
	i := bytes.IndexByte(data[p:], '\n')
	if i < 0 {
		return data[p:], len(data)
	}
	l := data[p : p+i]
	return bytes.TrimSuffix(l, []byte("\r")), p + i + 1
}

// lineText returns YAML line n (1-based) without its terminator.
func (f *frontMatter) lineText(n int) string {
	l, _ := line(f.data[:f.lines[n]], f.lines[n-1])
	return string(l)
}

// offset turns a node's line and column (1-based, columns in characters)
// into an offset in the file.
func (f *frontMatter) offset(ln, col int) int {
	p := f.lines[ln-1]
	for c := 1; c < col && p < len(f.data); c++ {
		_, n := utf8.DecodeRune(f.data[p:])
		p += n
	}
	return p
}

func (f *frontMatter) find(key string) int {
	for i, k := range f.keys {
		if k.Value == key {
			return i
		}
	}
	return -1
}

// regionEnd is the offset just after the last line of key i's value: the
// start of the next top-level key's line, or of the closing fence, less
// the blank and comment lines before it (they belong to what follows).
func (f *frontMatter) regionEnd(i int) int {
	next := len(f.lines) // the fence's line number, 1-based
	if i+1 < len(f.keys) {
		next = f.keys[i+1].Line
	}
	ln := next - 1
	for ln > f.keys[i].Line {
		t := strings.TrimSpace(f.lineText(ln))
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		ln--
	}
	return f.lines[ln]
}

// afterColon returns, for key i written on its own line as "key: value",
// the offsets of the value text after the colon (without a comment) and
// whether that line has a comment.
func (f *frontMatter) afterColon(i int) (colon, valStart, valEnd int, comment bool, err error) {
	k := f.keys[i]
	if k.Style != 0 || k.Column != 1 {
		return 0, 0, 0, false, fmt.Errorf("the key %q is not written plainly at the start of its line; add it by hand", k.Value)
	}
	text := f.lineText(k.Line)
	if !strings.HasPrefix(text, k.Value) || !strings.HasPrefix(strings.TrimLeft(text[len(k.Value):], " \t"), ":") {
		return 0, 0, 0, false, fmt.Errorf("cannot find the colon after %q; add it by hand", k.Value)
	}
	base := f.lines[k.Line-1]
	c := strings.IndexByte(text[len(k.Value):], ':') + len(k.Value)
	rest := text[c+1:]
	body := rest
	for j := 0; j < len(rest); j++ {
		if rest[j] == '#' && (j == 0 || rest[j-1] == ' ' || rest[j-1] == '\t') {
			body, comment = rest[:j], true
			break
		}
	}
	lead := len(body) - len(strings.TrimLeft(body, " \t"))
	s := base + c + 1 + lead
	return base + c, s, s + len(strings.TrimSpace(body)), comment, nil
}

// edit replaces del bytes at at with text; edits at the same offset go in
// the order made.
type edit struct {
	at, del int
	text    string
}

// AddToFile returns data, an entity file, with the facts and progressions
// of add in its front matter, in the project's format: facts in the
// file's facts mapping (a flow mapping "{ k: v }" gets ", k: v" before
// its closing brace, a block mapping gets "k: v" lines at its
// indentation), progressions as "- { chapter: N, facts: { k: v } }"
// items after the last one. Every other byte of the file stays as it
// was: the body, comments, other keys, the line endings. It checks its
// work by reading the result back and fails, changing nothing, when the
// entity read from it is not the old one plus add.
func AddToFile(data []byte, add Addition) ([]byte, error) {
	if add.Empty() {
		return data, nil
	}
	f, err := parseFront(data)
	if err != nil {
		return nil, err
	}
	var eds []edit
	factList := func() string {
		parts := make([]string, len(add.Facts))
		for i, kv := range add.Facts {
			parts[i] = scalar(kv.Key) + ": " + scalar(kv.Value)
		}
		return strings.Join(parts, ", ")
	}
	item := func(c ChapterFacts) string {
		parts := make([]string, len(c.Facts))
		for i, kv := range c.Facts {
			parts[i] = scalar(kv.Key) + ": " + scalar(kv.Value)
		}
		return fmt.Sprintf("{ chapter: %d, facts: { %s } }", c.Chapter, strings.Join(parts, ", "))
	}
	fi := f.find("facts")
	if len(add.Facts) > 0 {
		if fi < 0 {
			eds = append(eds, edit{at: f.end, text: "facts: { " + factList() + " }" + f.eol})
		} else {
			e, err := f.addFacts(fi, add.Facts, factList())
			if err != nil {
				return nil, err
			}
			eds = append(eds, e...)
		}
	}
	if len(add.Progressions) > 0 {
		pi := f.find("progressions")
		if pi < 0 {
			var b strings.Builder
			b.WriteString("progressions:" + f.eol)
			for _, c := range add.Progressions {
				b.WriteString("  - " + item(c) + f.eol)
			}
			at := f.end
			if fi >= 0 {
				at = f.regionEnd(fi)
			}
			eds = append(eds, edit{at: at, text: b.String()})
		} else {
			items := make([]string, len(add.Progressions))
			for i, c := range add.Progressions {
				items[i] = item(c)
			}
			e, err := f.addProgressions(pi, items)
			if err != nil {
				return nil, err
			}
			eds = append(eds, e...)
		}
	}
	out := apply(data, eds)
	if err := verify(data, out, add); err != nil {
		return nil, fmt.Errorf("the edit did not read back as intended (%v); nothing was written: add the facts by hand", err)
	}
	return out, nil
}

func (f *frontMatter) addFacts(i int, kvs []KV, list string) ([]edit, error) {
	v := f.vals[i]
	switch {
	case isNullNode(v):
		colon, s, e, _, err := f.afterColon(i)
		if err != nil {
			return nil, err
		}
		if s == e {
			return []edit{{at: colon + 1, text: " { " + list + " }"}}, nil
		}
		return []edit{{at: s, del: e - s, text: "{ " + list + " }"}}, nil
	case v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle != 0:
		return f.addFlow(v, '{', list)
	case v.Kind == yaml.MappingNode:
		indent := strings.Repeat(" ", v.Content[0].Column-1)
		var b strings.Builder
		for _, kv := range kvs {
			b.WriteString(indent + scalar(kv.Key) + ": " + scalar(kv.Value) + f.eol)
		}
		return []edit{{at: f.regionEnd(i), text: b.String()}}, nil
	}
	return nil, errors.New("facts is not a mapping of keys to values")
}

func (f *frontMatter) addProgressions(i int, items []string) ([]edit, error) {
	v := f.vals[i]
	var lines strings.Builder
	for _, it := range items {
		lines.WriteString("  - " + it + f.eol)
	}
	switch {
	case isNullNode(v), v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle != 0 && len(v.Content) == 0:
		colon, s, e, comment, err := f.afterColon(i)
		if err != nil {
			return nil, err
		}
		if v.Kind == yaml.SequenceNode && f.offset(v.Line, v.Column) != s {
			return f.addFlow(v, '[', strings.Join(items, ", "))
		}
		ins := edit{at: f.lines[f.keys[i].Line], text: lines.String()}
		switch {
		case s == e:
			return []edit{ins}, nil
		case comment:
			return []edit{{at: s, del: e - s}, ins}, nil
		default:
			// "progressions: []" becomes "progressions:", not
			// "progressions: " with a trailing space.
			return []edit{{at: colon + 1, del: e - colon - 1}, ins}, nil
		}
	case v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle != 0:
		return f.addFlow(v, '[', strings.Join(items, ", "))
	case v.Kind == yaml.SequenceNode:
		t := f.lineText(v.Content[0].Line)
		indent := len(t) - len(strings.TrimLeft(t, " "))
		if indent >= len(t) || t[indent] != '-' {
			return nil, errors.New("cannot find the first progression's dash; add the progressions by hand")
		}
		var b strings.Builder
		for _, it := range items {
			b.WriteString(strings.Repeat(" ", indent) + "- " + it + f.eol)
		}
		return []edit{{at: f.regionEnd(i), text: b.String()}}, nil
	}
	return nil, errors.New("progressions is not a list")
}

// addFlow adds list to the flow collection v (opened by open): before its
// closing bracket, after a comma when it has entries.
func (f *frontMatter) addFlow(v *yaml.Node, open byte, list string) ([]edit, error) {
	at := f.offset(v.Line, v.Column)
	if at >= len(f.data) || f.data[at] != open {
		return nil, fmt.Errorf("cannot find the %q that opens %s; add it by hand", open, v.Tag)
	}
	end, last, items, err := scanFlow(f.data, at, f.end)
	if err != nil {
		return nil, err
	}
	closer := string(f.data[end-1])
	if !items {
		return []edit{{at: at, del: end - at, text: string(open) + " " + list + " " + closer}}, nil
	}
	if f.data[last-1] == ',' {
		return []edit{{at: last, text: " " + list}}, nil
	}
	return []edit{{at: last, text: ", " + list}}, nil
}

// scanFlow reads the flow collection at b[off] (a '{' or '[') and returns
// the offset after its closing bracket, the offset after its last token
// (a scalar, a comma or a nested collection; not a comment), and whether
// it holds anything.
func scanFlow(b []byte, off, limit int) (end, last int, items bool, err error) {
	depth := 0
	last = off + 1
	start := true // the next character may open a quoted scalar
	for i := off; i < limit; {
		c := b[i]
		switch {
		case c == '{' || c == '[':
			if depth > 0 {
				items = true
			}
			depth++
			i++
			last, start = i, true
		case c == '}' || c == ']':
			depth--
			i++
			if depth == 0 {
				return i, last, items, nil
			}
			last, start = i, false
		case c == ',':
			i++
			last, start = i, true
		case c == ':' && (i+1 >= limit || strings.IndexByte(" \t\r\n,]}", b[i+1]) >= 0):
			i++
			last, start = i, true
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#' && (b[i-1] == ' ' || b[i-1] == '\t' || b[i-1] == '\n'):
			for i < limit && b[i] != '\n' {
				i++
			}
		case (c == '"' || c == '\'') && start:
			j := i + 1
			for ; j < limit; j++ {
				if c == '"' && b[j] == '\\' {
					j++
					continue
				}
				if b[j] == c {
					if c == '\'' && j+1 < limit && b[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= limit {
				return 0, 0, false, errors.New("an unterminated quoted value in the front matter")
			}
			i = j + 1
			last, start, items = i, false, true
		default:
			i++
			last, start, items = i, false, true
		}
	}
	return 0, 0, false, errors.New("an unterminated flow collection in the front matter")
}

func apply(data []byte, eds []edit) []byte {
	idx := make([]int, len(eds))
	for i := range idx {
		idx[i] = i
	}
	// From the end backwards, so that offsets stay true; at one offset
	// the later edit first, so that the earlier ends up before it.
	sort.SliceStable(idx, func(a, b int) bool {
		if eds[idx[a]].at != eds[idx[b]].at {
			return eds[idx[a]].at > eds[idx[b]].at
		}
		return idx[a] > idx[b]
	})
	out := slices.Clone(data)
	for _, i := range idx {
		e := eds[i]
		out = slices.Concat(out[:e.at], []byte(e.text), out[e.at+e.del:])
	}
	return out
}

func isNullNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || (n.Value == "" && n.Style == 0))
}

// scalar writes s for a flow mapping: plain when YAML reads it back as
// the same text, else double-quoted.
func scalar(s string) string {
	if plainSafe(s) {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSpace(b.String())
}

func plainSafe(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s, ",[]{}#\"'`") || strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:!&*|>%@") {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '\ufeff' || r == '\u2028' || r == '\u2029' {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n":
		return false
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("{k: "+s+"}"), &n); err != nil || len(n.Content) != 1 || len(n.Content[0].Content) != 2 {
		return false
	}
	v := n.Content[0].Content[1]
	return v.Kind == yaml.ScalarNode && v.Style == 0 && v.Value == s
}

// verify reads old and new as entity files and checks that new declares
// exactly old plus add and has old's body.
func verify(old, new []byte, add Addition) error {
	od, err := knowledge.ParseDocument("entity.md", old)
	if err != nil {
		return fmt.Errorf("the file as it was: %w", err)
	}
	oe, err := knowledge.EntityFromDocument(od)
	if err != nil {
		return fmt.Errorf("the file as it was: %w", err)
	}
	nd, err := knowledge.ParseDocument("entity.md", new)
	if err != nil {
		return err
	}
	ne, err := knowledge.EntityFromDocument(nd)
	if err != nil {
		return err
	}
	if !bytes.Equal(old[od.BodyOffset:], new[nd.BodyOffset:]) {
		return errors.New("the body changed")
	}
	if ne.Name != oe.Name || !slices.Equal(ne.Aliases, oe.Aliases) || ne.Kind != oe.Kind || !slices.Equal(ne.Relations, oe.Relations) ||
		ne.Context != oe.Context || !slices.Equal(ne.Exclude, oe.Exclude) || ne.Reveal != oe.Reveal ||
		ne.Opened != oe.Opened || ne.Due != oe.Due || ne.Resolved != oe.Resolved || !maps.Equal(ne.FactReveals, oe.FactReveals) {
		return errors.New("another key changed")
	}
	want := maps.Clone(oe.Facts)
	for _, kv := range add.Facts {
		if _, ok := want[kv.Key]; ok {
			return fmt.Errorf("the fact %q is declared already", kv.Key)
		}
		want[kv.Key] = kv.Value
	}
	if !maps.Equal(ne.Facts, want) {
		return fmt.Errorf("the facts read back as %v, not %v", ne.Facts, want)
	}
	type prog struct {
		ch    int
		facts map[string]string
	}
	var wantP []prog
	for _, p := range oe.Progressions {
		wantP = append(wantP, prog{p.Chapter, p.Facts})
	}
	for _, c := range add.Progressions {
		m := map[string]string{}
		for _, kv := range c.Facts {
			m[kv.Key] = kv.Value
		}
		wantP = append(wantP, prog{c.Chapter, m})
	}
	slices.SortStableFunc(wantP, func(a, b prog) int { return a.ch - b.ch })
	if len(ne.Progressions) != len(wantP) {
		return fmt.Errorf("%d progressions read back, not %d", len(ne.Progressions), len(wantP))
	}
	for i, p := range ne.Progressions {
		if p.Chapter != wantP[i].ch || !maps.Equal(p.Facts, wantP[i].facts) {
			return fmt.Errorf("progression %d reads back as chapter %d %v", i+1, p.Chapter, p.Facts)
		}
	}
	return nil
}
