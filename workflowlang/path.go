package workflowlang

import "sort"

// PathAt returns the syntax elements enclosing byte offset off, from the
// outermost to the innermost: the item (*Node, *Workflow, *Use, *Input),
// then what inside it holds off — an *Ident (name, alias, attribute key),
// a *StringLit (title, use path), an *Attr, a *Prompt — and innermost a
// Value, a list element, a *TextBlock or a *Ref. A *Comment is returned
// alone. The result is empty when off touches nothing. Spans count their
// end as inside, so a cursor just after a word still finds it.
func PathAt(f *File, off int) []any {
	cs := f.Comments
	if j := sort.Search(len(cs), func(j int) bool { return cs[j].Span.Start > off }) - 1; j >= 0 && off < cs[j].Span.End {
		return []any{cs[j]}
	}
	items := f.Items
	i := sort.Search(len(items), func(i int) bool { return items[i].ItemSpan().Start > off }) - 1
	if i < 0 || !items[i].ItemSpan().Contains(off) {
		return nil
	}
	path := []any{items[i]}
	ident := func(id *Ident) bool {
		if id.Span.Len() > 0 && id.Span.Contains(off) {
			path = append(path, id)
			return true
		}
		return false
	}
	title := func(s *StringLit) bool {
		if s != nil && s.Span.Contains(off) {
			path = append(path, s)
			return true
		}
		return false
	}
	attrs := func(as []*Attr) bool {
		for _, a := range as {
			if !a.Span.Contains(off) {
				continue
			}
			path = append(path, a)
			if ident(&a.Key) {
				return true
			}
			if a.Value != nil {
				path = valuePath(path, a.Value, off)
			}
			return true
		}
		return false
	}
	switch it := items[i].(type) {
	case *Node:
		if ident(&it.Name) || title(it.Title) || attrs(it.Attrs) {
			return path
		}
		for _, p := range it.Prompts {
			if !p.Span.Contains(off) {
				continue
			}
			path = append(path, p)
			if b := blockAt(p.Blocks, off); b != nil {
				path = append(path, b)
			}
			return path
		}
	case *Workflow:
		if !title(it.Title) {
			attrs(it.Attrs)
		}
	case *Use:
		if !title(&it.Path) && !ident(&it.Alias) {
			attrs(it.Args)
		}
	case *Input:
		if !ident(&it.Name) && !title(it.Title) {
			attrs(it.Attrs)
		}
	}
	return path
}

func valuePath(path []any, v Value, off int) []any {
	if !v.ValueSpan().Contains(off) {
		return path
	}
	path = append(path, v)
	switch v := v.(type) {
	case *ListValue:
		for _, e := range v.Elems {
			if e.ValueSpan().Contains(off) {
				return valuePath(path, e, off)
			}
		}
	case *TextValue:
		if b := blockAt(v.Blocks, off); b != nil {
			path = append(path, b)
		}
	}
	return path
}

// blockAt returns the block holding off, preferring a reference when the
// offset touches both a reference and the text next to it.
func blockAt(blocks []Block, off int) Block {
	i := sort.Search(len(blocks), func(i int) bool { return blocks[i].BlockSpan().End >= off })
	var found Block
	for ; i < len(blocks) && blocks[i].BlockSpan().Start <= off; i++ {
		b := blocks[i]
		if !b.BlockSpan().Contains(off) {
			continue
		}
		if _, ok := b.(*Ref); ok {
			return b
		}
		if found == nil {
			found = b
		}
	}
	return found
}
