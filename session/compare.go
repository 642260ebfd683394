package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
)

// Comparison is two outputs of one node side by side, with what changed
// in what the model was shown between the two runs.
type Comparison struct {
	Node     string
	Old, New store.Output
	// Came and Went are the sources injected for New and not Old, and for
	// Old and not New ("path (L1)", a passage with its part).
	Came, Went []string
	// Relevelled are the sources injected for both at another level
	// ("entities/characters/x.md L0 → L2").
	Relevelled []string
	// Changed are the files both were built from whose content differs.
	Changed []string
	// Settings lists the model settings that differ ("temperature 0.7 →
	// 0.9").
	Settings []string
	// Left and Right are the documents written for the editor's diff
	// view: Old's and New's text under a header of what each was made
	// with.
	Left, Right string
}

// Compare compares version older of a node's outputs with its current
// one (older 0: the version before the current) and writes the two
// documents of the comparison under .flowcabal/compare.
func (s *Session) Compare(ctx context.Context, file, node string, older int) (*Comparison, error) {
	st, err := s.Store(ctx)
	if err != nil {
		return nil, err
	}
	wid := s.WorkflowID(file)
	cur, ok, err := st.CurrentOutput(wid, node)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s has no output yet: run it first", node)
	}
	if older == 0 {
		older = cur.Version - 1
	}
	if older < 1 {
		return nil, fmt.Errorf("%s has one output (v%d): there is no other version to compare it with", node, cur.Version)
	}
	if older == cur.Version {
		return nil, fmt.Errorf("v%d is %s's current output: compare it with another version", older, node)
	}
	old, err := st.OutputVersion(wid, node, older)
	if err != nil {
		return nil, err
	}
	c := CompareOutputs(old, cur)
	dir := filepath.Join(s.root, project.DataDir, "compare", filepath.FromSlash(strings.TrimSuffix(wid, ".flow")))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	c.Left = filepath.Join(dir, fmt.Sprintf("%s.v%d.md", node, old.Version))
	c.Right = filepath.Join(dir, fmt.Sprintf("%s.v%d.md", node, cur.Version))
	// A project without prices, or with a broken flowcabal.toml, still
	// compares: in tokens only.
	cfg, _ := project.LoadConfig(s.root)
	if err := os.WriteFile(c.Left, []byte(compareDoc(old, nil, cfg)), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(c.Right, []byte(compareDoc(cur, c, cfg)), 0o644); err != nil {
		return nil, err
	}
	return c, nil
}

// CompareOutputs says what changed between two outputs of a node: the
// sources of their contexts (from the provenance each keeps), the files
// both were built from, and the settings of the calls.
func CompareOutputs(old, cur store.Output) *Comparison {
	c := &Comparison{Node: cur.Node, Old: old, New: cur}
	before, now := provenanceOf(old), provenanceOf(cur)
	key := func(s assemble.Source) string {
		if s.Part != "" {
			return s.Path + " · " + s.Part
		}
		return s.Path
	}
	had := map[string]assemble.Source{}
	for _, s := range before.Sources {
		had[key(s)] = s
	}
	has := map[string]bool{}
	for _, s := range now.Sources {
		k := key(s)
		has[k] = true
		if p, ok := had[k]; !ok {
			c.Came = append(c.Came, k+" ("+s.Level+")")
		} else if p.Level != s.Level {
			c.Relevelled = append(c.Relevelled, k+" "+p.Level+" → "+s.Level)
		}
	}
	for _, s := range before.Sources {
		if !has[key(s)] {
			c.Went = append(c.Went, key(s)+" ("+s.Level+")")
		}
	}
	for p, h := range cur.Sources {
		if oh, ok := old.Sources[p]; ok && oh != h {
			c.Changed = append(c.Changed, p)
		}
	}
	slices.Sort(c.Changed)
	a, b := settingsOf(old), settingsOf(cur)
	for _, k := range settingKeys {
		if a[k] != b[k] {
			c.Settings = append(c.Settings, fmt.Sprintf("%s %s → %s", k, orNone(a[k]), orNone(b[k])))
		}
	}
	return c
}

func provenanceOf(o store.Output) assemble.Context {
	var c assemble.Context
	if len(o.Provenance) > 0 {
		_ = json.Unmarshal(o.Provenance, &c)
	}
	return c
}

// settingKeys are the settings a comparison shows, in order.
var settingKeys = []string{"model", "configuration", "temperature", "max tokens"}

func settingsOf(o store.Output) map[string]string {
	m := map[string]string{"model": o.Model}
	var p runner.Params
	if len(o.Params) > 0 && json.Unmarshal(o.Params, &p) == nil {
		m["configuration"] = p.ModelName
		if p.Temperature != nil {
			m["temperature"] = fmt.Sprint(*p.Temperature)
		}
		if p.MaxTokens > 0 {
			m["max tokens"] = fmt.Sprint(p.MaxTokens)
		}
	}
	return m
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// compareDoc is one side of the comparison: what the output was made
// with, the context it was shown, then its text. The newer side (diff
// set) also says what changed since the older one.
func compareDoc(o store.Output, diff *Comparison, cfg *project.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- flowcabal compare: workflow=%s node=%s version=%d -->\n", o.Workflow, o.Node, o.Version)
	fmt.Fprintf(&b, "# %s · v%d\n\n", o.Node, o.Version)
	set := settingsOf(o)
	fmt.Fprintf(&b, "- model: %s", orNone(set["model"]))
	for _, k := range settingKeys[1:] {
		if set[k] != "" {
			fmt.Fprintf(&b, " · %s %s", k, set[k])
		}
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "- tokens: %s in · %s out", groupDigits(o.Usage.PromptTokens), groupDigits(o.Usage.CompletionTokens))
	if p, ok := cfg.PriceOf(set["configuration"], o.Model); ok {
		fmt.Fprintf(&b, " · ≈%s", runner.FormatCost(p.Cost(o.Usage.PromptTokens, o.Usage.CompletionTokens)))
	}
	b.WriteString("\n")
	if !o.At.IsZero() {
		fmt.Fprintf(&b, "- made: %s", o.At.UTC().Format("2006-01-02 15:04 UTC"))
		if o.RunID != "" {
			fmt.Fprintf(&b, " · run %s", o.RunID)
		}
		b.WriteString("\n")
	}
	prov := provenanceOf(o)
	if len(o.Provenance) == 0 {
		b.WriteString("- context: not recorded\n")
	} else {
		fmt.Fprintf(&b, "- context: %d sources · %s of %s tokens\n", len(prov.Sources), groupDigits(prov.Tokens), groupDigits(prov.Budget))
		for _, s := range prov.Sources {
			part := ""
			if s.Part != "" {
				part = " · " + s.Part
			}
			hash := ""
			if h := o.Sources[s.Path]; len(h) >= 8 {
				hash = " · " + h[:8]
			}
			fmt.Fprintf(&b, "  - %s%s · %s · %s tok%s\n", s.Path, part, s.Level, groupDigits(s.Tokens), hash)
		}
	}
	if diff != nil {
		fmt.Fprintf(&b, "\n## Since v%d\n\n", diff.Old.Version)
		n := 0
		list := func(label string, xs []string) {
			for _, x := range xs {
				fmt.Fprintf(&b, "- %s %s\n", label, x)
				n++
			}
		}
		list("added:", diff.Came)
		list("dropped:", diff.Went)
		list("level:", diff.Relevelled)
		list("content changed:", diff.Changed)
		list("setting:", diff.Settings)
		if n == 0 {
			b.WriteString("- the same context and settings\n")
		}
	}
	b.WriteString("\n---\n\n")
	b.WriteString(o.Text)
	if !strings.HasSuffix(o.Text, "\n") {
		b.WriteString("\n")
	}
	return b.String()
}
