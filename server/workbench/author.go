package workbench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/entitysuggest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/manuscript"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
)

// The author's first hour in the editor: the manuscript brought in and
// the entities it is about accepted as draft files. The editors pick the
// files and the names; the work is the CLI's (flowcabal import, flowcabal
// entities suggest), done here.

// suggestTop is how many suggestions the editors are offered, as the
// CLI's default.
const suggestTop = 40

// authorCommands are the commands served here rather than by the runner.
var authorCommands = map[string]func(w *Workbench, ctx context.Context, req server.CommandRequest) (any, error){
	server.CmdImportManuscript: (*Workbench).importManuscript,
	server.CmdSuggestEntities:  (*Workbench).suggestEntities,
	server.CmdAcceptEntities:   (*Workbench).acceptEntities,
	server.CmdAddEntity:        (*Workbench).addEntity,
	server.CmdEntityFacts:      (*Workbench).entityFacts,
	server.CmdAcceptFacts:      (*Workbench).acceptFacts,
}

// projectOf finds the project a command's "uri" names (its folder, or a
// file in it) and checks it looks like one, so that a wrong folder does
// not get chapters scattered in it.
func projectOf(uri protocol.DocumentURI) (string, error) {
	p, ok := cache.URIPath(uri)
	if !ok {
		return "", jsonrpc2.NewError(jsonrpc2.InvalidParams, "the command needs the project as a file: URI")
	}
	dir := p
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		dir = filepath.Dir(p)
	}
	root, err := project.FindRoot(dir)
	if err != nil {
		return "", jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	for _, marker := range []string{project.ConfigFile, "manuscript", "workflows"} {
		if _, err := os.Stat(filepath.Join(root, marker)); err == nil {
			return root, nil
		}
	}
	return "", jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s is not a FlowCabal project (make it one with flowcabal init)", root))
}

// ImportRow is one chapter of an import's preview.
type ImportRow struct {
	Number     int    `json:"number"`
	Kind       string `json:"kind"`
	Heading    string `json:"heading"`
	FirstWords string `json:"firstWords"`
	Chars      int    `json:"chars"`
	Path       string `json:"path"`
	Op         string `json:"op"`
}

// ImportResult is what flowcabal.importManuscript answers.
type ImportResult struct {
	DryRun    bool        `json:"dryRun"`
	Plan      string      `json:"plan"` // digest of what the import writes; the confirm passes it back
	Encodings []string    `json:"encodings"`
	Unwrapped bool        `json:"unwrapped"`
	Chapters  []ImportRow `json:"chapters"`
	Extras    int         `json:"extras"`
	Arcs      []string    `json:"arcs"`
	Summary   string      `json:"summary"`
	// Table is the preview as text, for editors that show it as is.
	Table string `json:"table"`
	// Kept are the chapters edited in the project since the last import,
	// left as they are.
	Kept    []string `json:"kept"`
	Message string   `json:"message"`
}

func (w *Workbench) importManuscript(ctx context.Context, req server.CommandRequest) (any, error) {
	root, err := projectOf(req.Args.URI)
	if err != nil {
		return nil, err
	}
	if len(req.Args.Files) == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "importManuscript needs \"files\": the manuscript file, or its folder of chapter files")
	}
	var files []string
	for _, f := range req.Args.Files {
		if strings.HasPrefix(f, "file:") {
			p, ok := cache.URIPath(protocol.DocumentURI(f))
			if !ok {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "not a file URI: "+f)
			}
			f = p
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(root, f)
		}
		files = append(files, f)
	}
	if req.Args.Encoding != "" && !slices.Contains(manuscript.Encodings, req.Args.Encoding) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown encoding %q (one of %s)", req.Args.Encoding, strings.Join(manuscript.Encodings, ", ")))
	}
	srcs, encs, err := manuscript.ReadSources(files, req.Args.Encoding)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, "import: "+err.Error())
	}
	book, err := manuscript.Split(srcs...)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, "import: "+err.Error())
	}
	plan, err := manuscript.PlanImport(root, book, req.Args.Force)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, "import: "+err.Error())
	}
	res := &ImportResult{DryRun: req.Args.DryRun, Plan: planDigest(plan), Encodings: encs, Unwrapped: book.Unwrapped,
		Chapters: []ImportRow{}, Extras: len(book.Extras), Arcs: []string{}, Kept: []string{}, Summary: importSummary(plan)}
	for _, a := range plan.Actions {
		switch {
		case a.Chapter != nil:
			c := a.Chapter
			res.Chapters = append(res.Chapters, ImportRow{Number: c.Number, Kind: c.Kind.String(), Heading: c.Heading,
				FirstWords: clipRunes(firstWords(c.Text, c.Heading), 24), Chars: utf8.RuneCountInString(c.Text), Path: a.Path, Op: string(a.Op)})
		case a.Arc != nil:
			res.Arcs = append(res.Arcs, fmt.Sprintf("%s: chapters %d–%d → %s (%s)", strings.ReplaceAll(a.Arc.Heading, "\n", " / "), a.Arc.First, a.Arc.Last, a.Path, a.Op))
		}
		if a.Op == manuscript.OpKept {
			res.Kept = append(res.Kept, a.Path)
		}
	}
	res.Table = importTable(res)
	if req.Args.DryRun {
		res.Message = fmt.Sprintf("%d chapters found; nothing written yet (%s)", len(res.Chapters), res.Summary)
		return res, nil
	}
	if req.Args.Plan != "" && req.Args.Plan != res.Plan {
		return nil, jsonrpc2.NewError(codeRequestFailed, "import: the manuscript or the project changed since the preview; nothing was written: preview it again")
	}
	if err := plan.Apply(); err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, "import: "+err.Error())
	}
	var written []string
	for _, a := range plan.Actions {
		if a.Op == manuscript.OpCreate || a.Op == manuscript.OpUpdate || a.Op == manuscript.OpForce {
			written = append(written, filepath.Join(root, filepath.FromSlash(a.Path)))
		}
	}
	// Role A and Role C see the chapters at once; the store indexes them
	// (the author asked for the import: opening the store is theirs).
	if ss, err := w.session(filepath.Join(root, project.ConfigFile)); err == nil && len(written) > 0 {
		if _, err := ss.Store(ctx); err != nil {
			w.log.Warn("import: the chapters are written; the store could not be opened to index them", "err", err)
		}
		ss.KnowledgeChanged(ctx, written...)
	}
	res.Message = fmt.Sprintf("imported %d chapters into %s: %s", len(res.Chapters), root, res.Summary)
	if n := len(res.Kept); n > 0 {
		res.Message += fmt.Sprintf("; %d chapter(s) you edited since the last import kept as they are (import with force to overwrite)", n)
	}
	return res, nil
}

// planDigest identifies what an import would write, so that the import
// the author confirms is the one they saw.
func planDigest(p *manuscript.Plan) string {
	h := sha256.New()
	for _, a := range p.Actions {
		c := sha256.Sum256([]byte(a.Content))
		fmt.Fprintf(h, "%s\x00%s\x00%x\n", a.Path, a.Op, c[:8])
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

func importSummary(p *manuscript.Plan) string {
	return fmt.Sprintf("%d new, %d updated, %d unchanged, %d kept, %d overwritten",
		p.Count(manuscript.OpCreate), p.Count(manuscript.OpUpdate), p.Count(manuscript.OpSame), p.Count(manuscript.OpKept), p.Count(manuscript.OpForce))
}

// importTable is the preview as the CLI's --dry-run prints it, roughly.
func importTable(r *ImportResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "read as %s", strings.Join(r.Encodings, ", "))
	if r.Unwrapped {
		b.WriteString("; hard-wrapped paragraphs joined")
	}
	fmt.Fprintf(&b, "\n%d chapters, %d extras, %d arcs — %s\n\n", len(r.Chapters), r.Extras, len(r.Arcs), r.Summary)
	fmt.Fprintf(&b, "%6s  %-9s  %s  |  %s  |  %s  |  %s\n", "number", "kind", "heading", "first words", "chars", "file")
	for _, c := range r.Chapters {
		num := fmt.Sprint(c.Number)
		if c.Kind == manuscript.KindExtra.String() {
			num = "+" + num
		}
		fmt.Fprintf(&b, "%6s  %-9s  %s  |  %s  |  %d  |  %s (%s)\n", num, c.Kind, c.Heading, c.FirstWords, c.Chars, c.Path, c.Op)
	}
	for _, a := range r.Arcs {
		fmt.Fprintf(&b, "arc %s\n", a)
	}
	return b.String()
}

// firstWords is the start of a chapter's text after its heading.
func firstWords(text, heading string) string {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), heading))
	return strings.Join(strings.Fields(t), " ")
}

func clipRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}

// SuggestedEntity is one suggestion as the editors get it: the CLI's
// --json fields, and the entity file that already declares it.
type SuggestedEntity struct {
	entitysuggest.Suggestion
	File string `json:"file,omitempty"`
}

// suggestions reads the project from disk (drafts written a moment ago
// included) and suggests its entities, with the file declaring each.
func suggestions(ctx context.Context, root string) ([]entitysuggest.Suggestion, []*knowledge.Entity, error) {
	p, _ := knowledge.LoadProject(root)
	if p == nil || len(p.Chapters) == 0 {
		return nil, nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s has no manuscript chapters (manuscript/chapter-NN/content.md): import the manuscript first", root))
	}
	sugg, err := entitysuggest.FromProject(ctx, p, entitysuggest.Options{Top: suggestTop, Folder: folder})
	if err != nil {
		return nil, nil, err
	}
	return sugg, entitysuggest.Existing(sugg, p.Entities, folder), nil
}

func (w *Workbench) suggestEntities(ctx context.Context, req server.CommandRequest) (any, error) {
	root, err := projectOf(req.Args.URI)
	if err != nil {
		return nil, err
	}
	sugg, existing, err := suggestions(ctx, root)
	if err != nil {
		return nil, err
	}
	out := make([]SuggestedEntity, len(sugg))
	for i, s := range sugg {
		out[i] = SuggestedEntity{Suggestion: s}
		out[i].Aliases, out[i].Related = nonNil(s.Aliases), nonNil(s.Related)
		if existing[i] != nil {
			out[i].File = existing[i].Path
		}
	}
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// AcceptResult is what flowcabal.acceptEntities answers.
type AcceptResult struct {
	// Written are the draft files written, relative to the project.
	Written []string `json:"written"`
	// Declared are the chosen names an entity file already declares
	// (nothing is written for them).
	Declared []string `json:"declared"`
	Message  string   `json:"message"`
}

func (w *Workbench) acceptEntities(ctx context.Context, req server.CommandRequest) (any, error) {
	root, err := projectOf(req.Args.URI)
	if err != nil {
		return nil, err
	}
	if len(req.Args.Names) == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "acceptEntities needs \"names\": the suggestions to accept")
	}
	sugg, existing, err := suggestions(ctx, root)
	if err != nil {
		return nil, err
	}
	var chosen []entitysuggest.Suggestion
	var chosenExisting []*knowledge.Entity
	res := &AcceptResult{Written: []string{}, Declared: []string{}}
	for _, name := range req.Args.Names {
		i := slices.IndexFunc(sugg, func(s entitysuggest.Suggestion) bool { return s.Name == name })
		if i < 0 {
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%q is not among the suggestions (the manuscript changed?); nothing was written", name))
		}
		if existing[i] != nil {
			res.Declared = append(res.Declared, name)
		}
		chosen = append(chosen, sugg[i])
		chosenExisting = append(chosenExisting, existing[i])
	}
	written, err := entitysuggest.WriteDrafts(root, chosen, chosenExisting)
	res.Written = append(res.Written, written...)
	if len(written) > 0 {
		abs := make([]string, len(written))
		for i, p := range written {
			abs[i] = filepath.Join(root, filepath.FromSlash(p))
		}
		if ss, serr := w.session(abs[0]); serr == nil {
			ss.KnowledgeChanged(ctx, abs...)
		}
	}
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("wrote %d draft(s) (%s), then: %v", len(written), strings.Join(written, ", "), err))
	}
	res.Message = fmt.Sprintf("wrote %d draft entity file(s): %s", len(written), strings.Join(written, ", "))
	if len(res.Declared) > 0 {
		res.Message += fmt.Sprintf("; already declared: %s", strings.Join(res.Declared, ", "))
	}
	return res, nil
}
