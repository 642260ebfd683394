package source

import (
	"bytes"
	"sort"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// The semantic token legend. Unresolved references are `variable` tokens
// with the `unresolved` modifier, so that themes (and the editor clients'
// scope maps) can show them apart from resolved ones.
var (
	TokenTypes     = []string{"keyword", "function", "variable", "namespace", "property", "string", "number", "comment", "macro"}
	TokenModifiers = []string{"declaration", "unresolved"}
)

const (
	tokKeyword = iota
	tokFunction
	tokVariable
	tokNamespace
	tokProperty
	tokString
	tokNumber
	tokComment
	tokMacro
)

const (
	modDeclaration = 1 << iota
	modUnresolved
)

type token struct {
	sp        workflowlang.Span
	typ, mods uint32
}

// SemanticTokens returns the tokens of f in the relative encoding of LSP.
func SemanticTokens(snap *cache.Snapshot, f *cache.File, o Options) []uint32 {
	pf := snap.Parse(f)
	var toks []token
	add := func(sp workflowlang.Span, typ, mods uint32) {
		if sp.Len() > 0 {
			toks = append(toks, token{sp, typ, mods})
		}
	}
	kw := func(start int, word string) {
		if start+len(word) <= len(pf.Src) && string(pf.Src[start:start+len(word)]) == word {
			add(workflowlang.Span{Start: start, End: start + len(word)}, tokKeyword, 0)
		}
	}
	attrs := func(as []*workflowlang.Attr) {
		for _, a := range as {
			add(a.Key.Span, tokProperty, 0)
			valueTokens(a.Value, add)
		}
	}
	for _, it := range pf.Items {
		switch it := it.(type) {
		case *workflowlang.Workflow:
			kw(it.Span.Start, "workflow")
			if it.Title != nil {
				add(it.Title.Span, tokString, 0)
			}
			attrs(it.Attrs)
		case *workflowlang.Use:
			kw(it.Span.Start, "use")
			add(it.Path.Span, tokString, 0)
			if i := bytes.Index(pf.Src[it.Path.Span.End:max(it.Path.Span.End, it.Alias.Span.Start)], []byte("as")); i >= 0 {
				kw(it.Path.Span.End+i, "as")
			}
			add(it.Alias.Span, tokNamespace, modDeclaration)
			attrs(it.Args)
		case *workflowlang.Input:
			kw(it.Span.Start, "input")
			add(it.Name.Span, tokVariable, modDeclaration)
			if it.Title != nil {
				add(it.Title.Span, tokString, 0)
			}
			attrs(it.Attrs)
		case *workflowlang.Node:
			kw(it.Span.Start, "node")
			add(it.Name.Span, tokFunction, modDeclaration)
			if it.Title != nil {
				add(it.Title.Span, tokString, 0)
			}
			attrs(it.Attrs)
			for _, p := range it.Prompts {
				add(p.RoleSpan, tokKeyword, 0)
			}
		}
	}
	for _, r := range allRefs(pf) {
		ref := r.Ref
		switch ref.Kind {
		case workflowlang.RefNode:
			var mods uint32
			if !declared(pf, ref.Name) {
				mods = modUnresolved
			}
			add(ref.NameSpan, tokVariable, mods)
		case workflowlang.RefUse:
			// The alias is unresolved when no loadable `use` declares it;
			// the node when the used file lacks it.
			var aliasMods, nameMods uint32 = modUnresolved, modUnresolved
			if uf, ok := usedFile(snap, pf, useByAlias(pf, ref.Alias)); ok {
				aliasMods = 0
				if declared(snap.Parse(uf), ref.Name) {
					nameMods = 0
				}
			}
			add(ref.AliasSpan, tokNamespace, aliasMods)
			add(ref.NameSpan, tokVariable, nameMods)
		case workflowlang.RefKnowledge:
			var mods uint32
			if _, ok := snap.Resource(ref.Path); !ok {
				mods = modUnresolved
			}
			add(ref.PathSpan, tokMacro, mods)
		}
	}
	for _, c := range pf.Comments {
		add(c.Span, tokComment, 0)
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i].sp.Start < toks[j].sp.Start })
	m := pf.Mapper()
	data := make([]uint32, 0, 5*len(toks))
	prevLine, prevCol, lastEnd := 0, 0, -1
	for _, t := range toks {
		if t.sp.Start < lastEnd {
			continue // overlapping tokens are not allowed
		}
		s := m.Position(t.sp.Start, o.Encoding)
		e := m.Position(t.sp.End, o.Encoding)
		if s.Line != e.Line {
			continue // tokens may not span lines
		}
		dl, dc := s.Line-prevLine, s.Col
		if dl == 0 {
			dc = s.Col - prevCol
		}
		data = append(data, uint32(dl), uint32(dc), uint32(e.Col-s.Col), t.typ, t.mods)
		prevLine, prevCol, lastEnd = s.Line, s.Col, t.sp.End
	}
	return data
}

func valueTokens(v workflowlang.Value, add func(workflowlang.Span, uint32, uint32)) {
	switch v := v.(type) {
	case *workflowlang.StringValue:
		add(v.Span, tokString, 0)
	case *workflowlang.NumberValue:
		add(v.Span, tokNumber, 0)
	case *workflowlang.BoolValue:
		add(v.Span, tokKeyword, 0)
	case *workflowlang.WordValue:
		add(v.Span, tokKeyword, 0)
	case *workflowlang.ListValue:
		for _, e := range v.Elems {
			valueTokens(e, add)
		}
	}
}
