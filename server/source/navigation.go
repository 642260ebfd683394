package source

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"unicode"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// A target is what a reference or a declaration denotes: a node (or
// input) of some file, or a knowledge resource.
type target struct {
	File      *cache.File
	PF        *workflowlang.File
	Name      string
	Knowledge *cache.Resource
	KnowPath  string // the path written, even when no resource exists
}

// usedFile returns the file a `use` of pf names, if the snapshot has it.
func usedFile(snap *cache.Snapshot, pf *workflowlang.File, u *workflowlang.Use) (*cache.File, bool) {
	if u == nil || pf.Path == "" || !filepath.IsAbs(pf.Path) {
		return nil, false
	}
	return snap.FileByPath(filepath.Join(filepath.Dir(pf.Path), filepath.FromSlash(u.Path.Value)))
}

func useByAlias(pf *workflowlang.File, alias string) *workflowlang.Use {
	for _, u := range pf.Uses {
		if u.Alias.Name == alias {
			return u
		}
	}
	return nil
}

// resolve finds the target under c. ok is false when there is none.
func resolve(snap *cache.Snapshot, f *cache.File, pf *workflowlang.File, c cursor) (target, bool) {
	if r := c.Ref; r != nil {
		switch r.Kind {
		case workflowlang.RefNode:
			if declared(pf, r.Name) {
				return target{File: f, PF: pf, Name: r.Name}, true
			}
		case workflowlang.RefUse:
			if uf, ok := usedFile(snap, pf, useByAlias(pf, r.Alias)); ok {
				upf := snap.Parse(uf)
				if declared(upf, r.Name) {
					return target{File: uf, PF: upf, Name: r.Name}, true
				}
			}
		case workflowlang.RefKnowledge:
			res, _ := snap.Resource(r.Path)
			return target{Knowledge: res, KnowPath: r.Path}, true
		}
		return target{}, false
	}
	if u, a := c.Use, c.Attr; u != nil && a != nil && a.Key.Span.Contains(c.Off) {
		if uf, ok := usedFile(snap, pf, u); ok {
			upf := snap.Parse(uf)
			if isInput(upf, a.Key.Name) {
				return target{File: uf, PF: upf, Name: a.Key.Name}, true
			}
		}
		return target{}, false
	}
	if c.OnName && c.Input != nil {
		return target{File: f, PF: pf, Name: c.Input.Name.Name}, true
	}
	if c.OnName && c.Node != nil {
		return target{File: f, PF: pf, Name: c.Node.Name.Name}, true
	}
	return target{}, false
}

// cursorAt parses f and finds what is at p. ok is false for a line past
// the end of the document.
func cursorAt(snap *cache.Snapshot, f *cache.File, p protocol.Position, enc workflowlang.Encoding) (*workflowlang.File, cursor, bool) {
	pf := snap.Parse(f)
	off, ok := Offset(pf, p, enc)
	if !ok {
		return pf, cursor{}, false
	}
	return pf, at(pf, off), true
}

// ErrOutOfRange is returned for a position past the end of a document.
var ErrOutOfRange = fmt.Errorf("position is past the end of the document")

// Definition returns where the element at p is declared.
func Definition(snap *cache.Snapshot, f *cache.File, p protocol.Position, o Options) ([]protocol.Location, error) {
	pf, c, ok := cursorAt(snap, f, p, o.Encoding)
	if !ok {
		return nil, ErrOutOfRange
	}
	if u := c.Use; u != nil && u.Path.Span.Contains(c.Off) {
		// On a `use` path: the used file.
		if uf, ok := usedFile(snap, pf, u); ok {
			return []protocol.Location{{URI: uf.URI}}, nil
		}
		return nil, nil
	}
	t, ok := resolve(snap, f, pf, c)
	if !ok {
		return nil, nil
	}
	if t.KnowPath != "" {
		if t.Knowledge == nil {
			return nil, nil
		}
		return []protocol.Location{{URI: cache.FileURI(t.Knowledge.File)}}, nil
	}
	sp := declSpan(t.PF, t.Name)
	return []protocol.Location{{URI: t.File.URI, Range: Range(t.PF, *sp, o.Encoding)}}, nil
}

// A use site is a reference to a target, with the file holding it.
type useSite struct {
	File *cache.File
	PF   *workflowlang.File
	Ref  *workflowlang.Ref
	Key  *workflowlang.Ident // set instead of Ref: a `use` argument filling an input
	Node *workflowlang.Node  // the node whose prompt holds Ref; nil elsewhere
}

// span is what a rename replaces and references show.
func (u useSite) span() (name, whole workflowlang.Span) {
	if u.Key != nil {
		return u.Key.Span, u.Key.Span
	}
	return u.Ref.NameSpan, u.Ref.Span
}

// isInput reports whether name is an input (not a node) of f.
func isInput(f *workflowlang.File, name string) bool {
	if f.Node(name) != nil {
		return false
	}
	for _, in := range f.Inputs {
		if in.Name.Name == name {
			return true
		}
	}
	return false
}

// uses lists the references to a node or input target in every file of
// the snapshot: {{name}} in its own file, {{alias.name}} in files that
// `use` it.
func uses(snap *cache.Snapshot, t target) []useSite {
	var out []useSite
	for _, r := range refIndex(t.File, t.PF)["n:"+t.Name] {
		out = append(out, useSite{t.File, t.PF, r.Ref, nil, r.Node})
	}
	if t.File.Path == "" {
		return out
	}
	input := nodeOf(t.File, t.PF, t.Name) == nil && isInput(t.PF, t.Name)
	for _, of := range snap.Files() {
		if !mayUse(snap, of, t, input) {
			continue // not worth parsing: no {{alias.name}} of a use of t's file
		}
		opf := snap.Parse(of)
		for _, u := range opf.Uses {
			uf, ok := usedFile(snap, opf, u)
			if !ok || uf.Path != t.File.Path {
				continue
			}
			eachRef(opf, func(r refSite) {
				if r.Ref.Kind == workflowlang.RefUse && r.Ref.Alias == u.Alias.Name && r.Ref.Name == t.Name {
					out = append(out, useSite{of, opf, r.Ref, nil, r.Node})
				}
			})
			if input {
				for _, a := range u.Args {
					if a.Key.Name == t.Name {
						out = append(out, useSite{of, opf, nil, &a.Key, nil})
					}
				}
			}
		}
	}
	return out
}

// mayUse reports whether of, judged by its summary, may reference the
// node or input t through a `use`: one of its uses names t's file and it
// writes {{alias.name}} with that use's alias (or, for an input, fills it
// in the use's arguments).
func mayUse(snap *cache.Snapshot, of *cache.File, t target, input bool) bool {
	if of.Path == "" || !filepath.IsAbs(of.Path) {
		return false // usedFile resolves uses of files only
	}
	sum := snap.Summary(of)
	for _, u := range sum.Uses {
		if u.Target != t.File.Path {
			continue
		}
		if sum.References(u.Alias, t.Name) || input && slices.Contains(u.Args, t.Name) {
			return true
		}
	}
	return false
}

// References returns the references to the element at p, and its
// declaration when asked.
func References(snap *cache.Snapshot, f *cache.File, p protocol.Position, includeDecl bool, o Options) ([]protocol.Location, error) {
	pf, c, ok := cursorAt(snap, f, p, o.Encoding)
	if !ok {
		return nil, ErrOutOfRange
	}
	t, ok := resolve(snap, f, pf, c)
	if !ok {
		return nil, nil
	}
	var out []protocol.Location
	if t.KnowPath != "" {
		// References to a knowledge resource, across every flow.
		for _, of := range snap.Files() {
			if !snap.Summary(of).ReferencesKnowledge(t.KnowPath) {
				continue
			}
			opf := snap.Parse(of)
			eachRef(opf, func(r refSite) {
				if r.Ref.Kind == workflowlang.RefKnowledge && r.Ref.Path == t.KnowPath {
					out = append(out, protocol.Location{URI: of.URI, Range: Range(opf, r.Ref.Span, o.Encoding)})
				}
			})
		}
		return out, nil
	}
	if includeDecl {
		out = append(out, protocol.Location{URI: t.File.URI, Range: Range(t.PF, *declSpan(t.PF, t.Name), o.Encoding)})
	}
	for _, u := range uses(snap, t) {
		_, whole := u.span()
		out = append(out, protocol.Location{URI: u.File.URI, Range: Range(u.PF, whole, o.Encoding)})
	}
	return out, nil
}

// PrepareRename returns the range of the name at p, or an error saying why
// nothing there can be renamed.
func PrepareRename(snap *cache.Snapshot, f *cache.File, p protocol.Position, o Options) (*protocol.Range, string, error) {
	pf, c, ok := cursorAt(snap, f, p, o.Encoding)
	if !ok {
		return nil, "", ErrOutOfRange
	}
	t, ok := resolve(snap, f, pf, c)
	if !ok || t.KnowPath != "" {
		return nil, "", fmt.Errorf("only node and input names can be renamed")
	}
	var sp workflowlang.Span
	switch {
	case c.Ref != nil:
		sp = c.Ref.NameSpan
	case c.Use != nil && c.Attr != nil && c.Attr.Key.Span.Contains(c.Off):
		sp = c.Attr.Key.Span
	default:
		sp = *declSpan(pf, t.Name)
	}
	r := Range(pf, sp, o.Encoding)
	return &r, t.Name, nil
}

// ValidName reports whether s is a node name: a letter or '_' followed by
// letters, digits, '_' or '-'.
func ValidName(s string) bool {
	for i, r := range s {
		if r == '_' || unicode.IsLetter(r) {
			continue
		}
		if i > 0 && (unicode.IsDigit(r) || r == '-' || unicode.IsMark(r)) {
			continue
		}
		return false
	}
	return s != ""
}

// Rename renames the node or input at p, with every reference to it in
// every file. It refuses names that are not identifiers or that another
// node or input of the declaring file already has.
func Rename(snap *cache.Snapshot, f *cache.File, p protocol.Position, newName string, o Options) (*protocol.WorkspaceEdit, error) {
	pf, c, ok := cursorAt(snap, f, p, o.Encoding)
	if !ok {
		return nil, ErrOutOfRange
	}
	t, ok := resolve(snap, f, pf, c)
	if !ok || t.KnowPath != "" {
		return nil, fmt.Errorf("only node and input names can be renamed")
	}
	if !ValidName(newName) {
		return nil, fmt.Errorf("%q is not a valid node name (a letter or '_', then letters, digits, '_' or '-')", newName)
	}
	if newName == t.Name {
		return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{}}, nil
	}
	if declared(t.PF, newName) {
		return nil, fmt.Errorf("cannot rename %q to %q: %s already declares %q", t.Name, newName, containerName(t.File), newName)
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{}
	add := func(uf *cache.File, upf *workflowlang.File, sp workflowlang.Span) {
		changes[uf.URI] = append(changes[uf.URI], protocol.TextEdit{Range: Range(upf, sp, o.Encoding), NewText: newName})
	}
	add(t.File, t.PF, *declSpan(t.PF, t.Name))
	for _, u := range uses(snap, t) {
		name, _ := u.span()
		add(u.File, u.PF, name)
	}
	for _, edits := range changes {
		sort.Slice(edits, func(i, j int) bool { return less(edits[i].Range.Start, edits[j].Range.Start) })
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

func less(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}
