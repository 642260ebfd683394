package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/agent/entityfacts"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/textsearch"
)

const entitiesFactsUsage = "usage: flowcabal entities facts [--project DIR] [--json] [--write] [--budget N] [NAME...]\n" +
	"   or: flowcabal entities suggest --facts [same flags] [NAME...]\n"

// noAgentModel says how to configure the model the command needs.
const noAgentModel = `no agent model is configured, so no facts can be proposed. Add one to flowcabal.toml:

    [models.agent]
    base_url = "https://api.openai.com/v1"   # any OpenAI-compatible endpoint
    model = "gpt-4o-mini"
    api_key_env = "OPENAI_API_KEY"            # the variable that holds the key (never the key itself)

`

// factsOutcome is one entity's line in --json.
type factsOutcome struct {
	*entityfacts.Result
	// Written says --write added the new proposals to the file.
	Written bool `json:"written"`
	// Error says why there are no proposals (the model failed, or the
	// manuscript never mentions the entity).
	Error string `json:"error,omitempty"`
}

// runEntitiesFacts proposes facts and progressions for the entities the
// project declares (or those named), from the chapters that mention them,
// and with --write adds the new ones to the entity files.
func runEntitiesFacts(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("entities facts", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	dir := fs.String("project", "", "the project (default: the project holding the current directory)")
	asJSON := fs.Bool("json", false, "print the proposals as a JSON array, one entry per entity")
	write := fs.Bool("write", false, "add the new proposals to the entity files' front matter (conflicts are never written)")
	budget := fs.Int("budget", entityfacts.DefaultBudget, "the most text of the manuscript shown to the model per entity, in tokens (about)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "%s\nAsks the agent model ([models.agent] in flowcabal.toml) what the chapters that mention\neach entity (every entity file but plot threads, or the NAMEs given) state about it:\nfacts, and progressions from a chapter on, each with a quotation from the chapter as\nevidence. A proposal whose quotation is not in that chapter is rejected. Answers are\ncached in the project store: asking again costs nothing. Nothing is written without\n--write, and a fact the file already gives another value is reported, never replaced.\n\n", entitiesFactsUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if *budget <= 0 {
		fs.Usage()
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "flowcabal entities facts: "+format+"\n", a...)
		return exitFailure
	}
	root, err := projectRoot(*dir)
	if err != nil {
		return fail("%v", err)
	}
	p, errs := knowledge.LoadProject(root)
	for _, e := range errs {
		fmt.Fprintf(env.stderr, "flowcabal entities facts: warning: %v\n", e)
	}
	chapters := entityfacts.ChaptersOf(p)
	book := entityfacts.NewBook(chapters)
	if len(chapters) == 0 {
		return fail("%s has no manuscript chapters (manuscript/chapter-NN/content.md)", root)
	}
	folder := textsearch.NewFolder()
	ents, err := pickEntities(p.Entities, fs.Args(), folder)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal entities facts: %v\n", err)
		return exitUsage
	}
	if len(ents) == 0 {
		return fail("%s declares no entities yet: run flowcabal entities suggest --write, then keep the drafts you want", root)
	}
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return fail("%v", err)
	}
	ac := llm.FromProject(cfg, llm.Agent)
	if err := ac.Validate(); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal entities facts: %s(%v)\n", noAgentModel, err)
		return exitFailure
	}
	st, err := store.Open(ctx, root, store.Options{Getenv: env.getenv, Command: "flowcabal entities facts", LockWait: 2 * time.Second, ReadOnlyIfLocked: true})
	if err != nil {
		return fail("%v", err)
	}
	defer st.Close()
	opts := llm.Options{Getenv: env.getenv}
	cache := &factsCache{st: st, warn: env.stderr}
	if !st.ReadOnly() {
		opts.Recorder = runner.LogRecorder{Store: st}
	}
	client, err := llm.New(ac, opts)
	if err != nil {
		return fail("the agent model: %v", err)
	}
	defer client.Close()
	prop := &entityfacts.Proposer{Model: ac.Model, Chat: client, Cache: cache, Budget: *budget, Folder: folder}

	// The questions go out a few at a time, as a run's nodes do (the
	// project's concurrency); the answers are shown and written in the
	// entities' order.
	type answer struct {
		res *entityfacts.Result
		err error
	}
	answers := make([]answer, len(ents))
	workers := cfg.Concurrency
	if workers <= 0 {
		workers = 4
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
		sem  = make(chan struct{}, workers)
	)
	for i, e := range ents {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			res, err := prop.Propose(ctx, e, book)
			answers[i] = answer{res, err}
			mu.Lock()
			done++
			if !*asJSON && len(ents) > 1 {
				fmt.Fprintf(env.stderr, "[%d/%d] %s\n", done, len(ents), e.Name)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fail("%v", err)
	}
	var out []factsOutcome
	failed, proposed, conflicts, written := 0, 0, 0, 0
	for i, e := range ents {
		res, err := answers[i].res, answers[i].err
		o := factsOutcome{Result: res}
		if res == nil {
			o.Result = &entityfacts.Result{Entity: e.Name, Path: e.Path, Model: ac.Model, Proposals: []entityfacts.Proposal{}, Rejected: []entityfacts.Rejection{}}
		}
		if err != nil {
			o.Error = err.Error()
			if !errors.Is(err, entityfacts.ErrNoMentions) {
				failed++
			}
		}
		for _, pr := range o.Proposals {
			switch pr.Status {
			case entityfacts.StatusNew:
				proposed++
			case entityfacts.StatusConflict:
				conflicts++
			}
		}
		if *write && err == nil {
			if add := entityfacts.Accepted(o.Result); !add.Empty() {
				if werr := entityfacts.WriteEntity(root, e.Path, add); werr != nil {
					o.Error = werr.Error()
					failed++
				} else {
					o.Written = true
					written++
				}
			}
		}
		out = append(out, o)
		if !*asJSON {
			printFacts(env.stdout, o)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return fail("%v", err)
		}
	} else {
		switch {
		case *write:
			fmt.Fprintf(env.stdout, "%d new proposals; %d entity files written. %d conflicts were not written: the files keep the author's values.\n", proposed, written, conflicts)
		default:
			fmt.Fprintf(env.stdout, "%d new proposals, %d conflicts with the files. Nothing was written: run with --write to add the new proposals (conflicts are never written).\n", proposed, conflicts)
		}
	}
	if failed > 0 {
		fmt.Fprintf(env.stderr, "flowcabal entities facts: %d of %d entities failed\n", failed, len(ents))
		return exitFailure
	}
	return exitOK
}

// pickEntities returns the entities named (by name, alias, path or
// resource; traditional and simplified folded, case ignored), or every
// entity but the plot threads when none is named.
func pickEntities(all []*knowledge.Entity, names []string, folder *textsearch.Folder) ([]*knowledge.Entity, error) {
	if len(names) == 0 {
		var out []*knowledge.Entity
		for _, e := range all {
			if !e.IsThread() {
				out = append(out, e)
			}
		}
		return out, nil
	}
	fold := func(s string) string { return strings.Join(strings.Fields(folder.Fold(s)), " ") }
	var out []*knowledge.Entity
	var missing []string
	for _, n := range names {
		want := fold(n)
		i := slices.IndexFunc(all, func(e *knowledge.Entity) bool {
			if e.Path == n || e.Resource == n {
				return true
			}
			return slices.ContainsFunc(e.Names(), func(x string) bool { return fold(x) == want })
		})
		if i < 0 {
			missing = append(missing, n)
			continue
		}
		if !slices.Contains(out, all[i]) {
			out = append(out, all[i])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no entity file declares %s (write one, or run flowcabal entities suggest --write)", strings.Join(missing, ", "))
	}
	return out, nil
}

// factsCache is the store's answer cache. When another process holds the
// store (it is then read from a copy), answers are read but not kept, and
// that is said once.
type factsCache struct {
	st   *store.Store
	warn io.Writer
	once sync.Once
}

func (c *factsCache) CachedAnswer(ctx context.Context, key string) (json.RawMessage, bool, error) {
	return c.st.CachedAnswer(ctx, key)
}

func (c *factsCache) PutCachedAnswer(ctx context.Context, key string, answer json.RawMessage) error {
	if c.st.ReadOnly() {
		c.once.Do(func() {
			fmt.Fprintln(c.warn, "flowcabal entities facts: warning: another process holds the project store; the answers are not cached this time")
		})
		return nil
	}
	return c.st.PutCachedAnswer(ctx, key, answer)
}

// printFacts prints one entity's proposals for review.
func printFacts(w io.Writer, o factsOutcome) {
	how := "asked " + o.Model
	if o.Cached {
		how = "cached answer of " + o.Model
	}
	fmt.Fprintf(w, "%s  %s\n", o.Entity, o.Path)
	if o.Error != "" && o.Passages == 0 {
		fmt.Fprintf(w, "  (%s)\n\n", o.Error)
		return
	}
	fmt.Fprintf(w, "  %d passages shown, of the %d chapters that mention it (%d mentions); %s\n", o.Passages, o.Chapters, o.Mentions, how)
	if o.Error != "" {
		fmt.Fprintf(w, "  error: %s\n\n", o.Error)
		return
	}
	for _, p := range o.Proposals {
		what := "fact " + p.Key + ": " + p.Value
		if p.Kind == entityfacts.KindProgression {
			what = fmt.Sprintf("from chapter %d, %s: %s", p.Chapter, p.Key, p.Value)
		}
		status := p.Status
		if p.Status == entityfacts.StatusConflict {
			what += "   (the file says: " + p.Existing + ")"
			if strings.HasPrefix(p.Existing, "proposed above: ") {
				what = strings.Replace(what, "the file says: proposed above", "proposed above", 1)
			}
		}
		fmt.Fprintf(w, "  %-9s %s\n            chapter %d, line %d: “%s”\n", status, what, p.Chapter, p.Line, clip(oneLine(p.Quote), 160))
	}
	for _, r := range o.Rejected {
		fmt.Fprintf(w, "  rejected  %s %s: %s — %s: “%s”\n", r.Kind, r.Key, r.Value, r.Reason, clip(oneLine(r.Quote), 120))
	}
	if o.Written {
		fmt.Fprintf(w, "  wrote the new proposals into %s\n", o.Path)
	}
	if len(o.Proposals) == 0 && len(o.Rejected) == 0 {
		fmt.Fprintln(w, "  nothing proposed")
	}
	fmt.Fprintln(w)
}
