package workbench

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/entitysuggest"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/textsearch"
)

// minChapterMentions is how often a name must appear in a chapter for
// the chapter to offer it as a new entity: a name seen once or twice is
// too often a passing word to bother the author with.
const minChapterMentions = 3

// folder folds traditional and simplified Chinese for the names of
// chapters. Its table is immutable and costs some 200 ms to load: loaded
// once for the process, not per code action.
var folder = textsearch.NewFolder()

// chapterNames are the names a chapter's text is about, found once per
// text.
type chapterNames struct {
	sum   [32]byte
	sugg  []entitysuggest.Suggestion
	names []chapterName // every form of a frequent name, longest first
}

type chapterName struct {
	form string
	s    int // index in sugg
}

// namesOf returns the chapter's frequent names, from the cache when the
// text is the one they were found in.
func (p *Prose) namesOf(ctx context.Context, uri protocol.DocumentURI, ch int, text string) *chapterNames {
	sum := sha256.Sum256([]byte(text))
	p.mu.Lock()
	if p.names == nil {
		p.names = map[protocol.DocumentURI]*chapterNames{}
	}
	if c := p.names[uri]; c != nil && c.sum == sum {
		p.mu.Unlock()
		return c
	}
	p.mu.Unlock()
	sugg, err := entitysuggest.Suggest(ctx, []entitysuggest.Chapter{{Number: ch, Text: text}}, entitysuggest.Options{Folder: folder})
	if err != nil {
		return nil
	}
	c := &chapterNames{sum: sum, sugg: sugg}
	for i, s := range sugg {
		if s.Mentions < minChapterMentions {
			continue
		}
		for _, n := range s.Names() {
			if utf8.RuneCountInString(n) >= 2 {
				c.names = append(c.names, chapterName{n, i})
			}
		}
	}
	slices.SortStableFunc(c.names, func(a, b chapterName) int { return len(b.form) - len(a.form) })
	p.mu.Lock()
	p.names[uri] = c
	p.mu.Unlock()
	return c
}

// newEntityActions offers, on a frequent name of a chapter under the
// range that no entity file declares, "Add <name> as a character" (or a
// location): a command whose workspace edit creates the draft entity
// file, for the editor to apply and the author to save.
func (p *Prose) newEntityActions(ctx context.Context, uri protocol.DocumentURI, path, text string, from, to int) []protocol.CodeAction {
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil
	}
	rel, _ := filepath.Rel(root, path)
	if !strings.HasPrefix(filepath.ToSlash(rel), "manuscript/") {
		return nil // node outputs are drafts: names come from chapters
	}
	c := p.namesOf(ctx, uri, chapterOf(root, path, text), text)
	if c == nil || len(c.names) == 0 {
		return nil
	}
	var hit *entitysuggest.Suggestion
	for _, n := range c.names {
		lo, hi := max(0, from-len(n.form)), min(len(text), to+len(n.form))
		for i := lo; i < hi; {
			k := strings.Index(text[i:hi], n.form)
			if k < 0 {
				break
			}
			start, end := i+k, i+k+len(n.form)
			if start <= to && from <= end {
				hit = &c.sugg[n.s]
				break
			}
			i = start + 1
		}
		if hit != nil {
			break
		}
	}
	if hit == nil {
		return nil
	}
	ss, err := p.w.session(path)
	if err != nil {
		return nil
	}
	if ex := entitysuggest.Existing([]entitysuggest.Suggestion{*hit}, ss.Entities(), folder); ex[0] != nil {
		return nil // declared: the hover explains it instead
	}
	kind := hit.Kind
	title := fmt.Sprintf("Add %s as a %s", hit.Name, kind)
	return []protocol.CodeAction{{Title: title, Kind: protocol.QuickFix,
		Command: &protocol.Command{Title: title, Command: server.CmdAddEntity,
			Arguments: []any{map[string]any{"uri": uri, "text": hit.Name, "kind": kind}}}}}
}

// AddEntityResult is what flowcabal.addEntity answers.
type AddEntityResult struct {
	Applied bool                 `json:"applied"`
	File    protocol.DocumentURI `json:"file"`
	Path    string               `json:"path"`
	Message string               `json:"message"`
}

// addEntity creates the draft entity file of a chapter's name through a
// workspace edit: a new file and its text, which the editor applies and
// the author saves (the server writes nothing itself).
func (w *Workbench) addEntity(ctx context.Context, req server.CommandRequest) (any, error) {
	path, ok := cache.URIPath(req.Args.URI)
	name := strings.TrimSpace(req.Args.Text)
	if !ok || name == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "addEntity takes {uri: the chapter, text: the name, kind?}")
	}
	root, err := project.FindRoot(filepath.Dir(path))
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	s := entitysuggest.Suggestion{Name: name, Kind: entitysuggest.KindCharacter}
	if text, ok := w.openProse(req.Args.URI); ok {
		if c := w.Prose().namesOf(ctx, req.Args.URI, chapterOf(root, path, text), text); c != nil {
			if i := slices.IndexFunc(c.sugg, func(x entitysuggest.Suggestion) bool { return x.Name == name }); i >= 0 {
				s = c.sugg[i]
			}
		}
	}
	switch req.Args.Kind {
	case "":
	case entitysuggest.KindCharacter, entitysuggest.KindLocation:
		s.Kind = req.Args.Kind
	default:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("addEntity: kind is %q or %q, not %q", entitysuggest.KindCharacter, entitysuggest.KindLocation, req.Args.Kind))
	}
	if ss, err := w.session(path); err == nil {
		if ex := entitysuggest.Existing([]entitysuggest.Suggestion{s}, ss.Entities(), folder); ex[0] != nil {
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s is already declared in %s", name, ex[0].Path))
		}
	}
	rel, err := entitysuggest.DraftPath(root, s)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	data, err := entitysuggest.DraftFile(s)
	if err != nil {
		return nil, err
	}
	file := cache.FileURI(filepath.Join(root, filepath.FromSlash(rel)))
	res, err := req.Editor.ApplyDocumentChanges(ctx, fmt.Sprintf("Add %s as a %s", s.Name, s.Kind), []server.DocumentChange{
		server.NewCreateFile(file),
		server.NewTextDocumentEdit(file, nil, []protocol.TextEdit{{NewText: string(data)}}),
	})
	if err != nil {
		return nil, err
	}
	out := &AddEntityResult{Applied: res.Applied, File: file, Path: rel}
	if !res.Applied {
		out.Message = fmt.Sprintf("the editor did not create %s: %s", rel, res.FailureReason)
		return out, nil
	}
	out.Message = fmt.Sprintf("%s drafted in %s: save it to keep it", s.Name, rel)
	if _, err := req.Editor.ShowDocument(ctx, file, true); err != nil {
		w.log.Debug("show the new entity file", "err", err)
	}
	return out, nil
}
