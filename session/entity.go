package session

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// EntityAt returns the entity whose name or alias is written in text at
// byte offset off (the longest name wins), with the mention's range.
func (s *Session) EntityAt(text string, off int) (e *knowledge.Entity, start, end int) {
	_, _, kp, err := s.knowledge()
	if err != nil || kp == nil {
		return nil, 0, 0
	}
	best := 0
	for _, ent := range kp.Entities {
		for _, name := range ent.Names() {
			if utf8.RuneCountInString(name) < 2 || len(name) <= best {
				continue
			}
			lo := max(0, off-len(name))
			hi := min(len(text), off+len(name))
			if i := strings.Index(text[lo:hi], name); i >= 0 && lo+i <= off && off <= lo+i+len(name) {
				e, start, end, best = ent, lo+i, lo+i+len(name), len(name)
			}
		}
	}
	return e, start, end
}

// EntityStatus says, in Markdown, whether Role A injects entity e into
// node's context now and, if not, why: left out for the budget, `context:
// never`, not revealed before its chapter, the mention excluded, or not
// found relevant.
// text[start:end] is the mention the author points at.
func (s *Session) EntityStatus(wf *workflowlang.Result, node string, e *knowledge.Entity, text string, start, end int) string {
	mention := text[start:end]
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s) — `%s`\n\n", e.Name, e.Kind, e.Path)
	c, err := s.Context(wf, node)
	if err != nil {
		fmt.Fprintf(&b, "Role A could not assemble this node's context: %v", err)
		return b.String()
	}
	for _, src := range c.Sources {
		if src.Path == e.Path {
			fmt.Fprintf(&b, "Injected into `%s` at %s (%d tokens): %s.", node, src.Level, src.Tokens, src.Reason)
			return b.String() + facts(e, c.Chapter)
		}
	}
	for _, d := range c.Dropped {
		if d.Path == e.Path {
			fmt.Fprintf(&b, "Not injected into `%s`: %s (considered at %s, %d tokens).", node, d.Why, d.Level, d.Tokens)
			return b.String() + facts(e, c.Chapter)
		}
	}
	switch {
	case e.Context == knowledge.ContextNever:
		b.WriteString("Never injected: its file says `context: never`.")
	case e.Reveal > 0 && c.Chapter > 0 && c.Chapter < e.Reveal:
		fmt.Fprintf(&b, "Not injected: not revealed before chapter %d (this node writes chapter %d).", e.Reveal, c.Chapter)
	case excluded(e, text, start, end):
		fmt.Fprintf(&b, "Not injected: «%s» here is part of a phrase on the entity's exclusion list, so it does not count as a mention.", mention)
	default:
		fmt.Fprintf(&b, "Not injected into `%s`: Role A did not find it relevant enough for the budget (%d of %d tokens used).", node, c.Tokens, c.Budget)
	}
	return b.String() + facts(e, c.Chapter)
}

// ProseEntityStatus says what Role A knows of entity e for a chapter
// being written at chapter ch: its policy and its facts as of ch.
func (s *Session) ProseEntityStatus(e *knowledge.Entity, ch int, text string, start, end int) string {
	mention := text[start:end]
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s) — `%s`\n\n", e.Name, e.Kind, e.Path)
	switch {
	case e.Context == knowledge.ContextNever:
		b.WriteString("Role A never injects it (`context: never`).")
	case e.Context == knowledge.ContextAlways:
		b.WriteString("Role A injects it into every node (`context: always`).")
	case e.Reveal > 0 && ch > 0 && ch < e.Reveal:
		fmt.Fprintf(&b, "Role A keeps it out of chapters before %d (`reveal: %d`).", e.Reveal, e.Reveal)
	case excluded(e, text, start, end):
		fmt.Fprintf(&b, "«%s» here is part of a phrase on its exclusion list: it does not count as a mention.", mention)
	default:
		b.WriteString("Role A injects it into a node that names it, when the budget allows.")
	}
	return b.String() + facts(e, ch)
}

// excluded reports whether the mention text[start:end] lies inside an
// occurrence of one of the entity's exclusion phrases.
func excluded(e *knowledge.Entity, text string, start, end int) bool {
	for _, x := range e.Exclude {
		if x == "" {
			continue
		}
		lo := max(0, start-len(x))
		hi := min(len(text), end+len(x))
		for i := lo; i < hi; {
			j := strings.Index(text[i:hi], x)
			if j < 0 {
				break
			}
			if i+j <= start && end <= i+j+len(x) {
				return true
			}
			i += j + 1
		}
	}
	return false
}

func facts(e *knowledge.Entity, ch int) string {
	f := e.FactsAsOf(ch)
	if len(f) == 0 {
		return ""
	}
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	if ch > 0 {
		fmt.Fprintf(&b, "\n\nFacts as of chapter %d: ", ch)
	} else {
		b.WriteString("\n\nFacts: ")
	}
	for i, k := range keys {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", k, f[k])
	}
	return b.String()
}
