package workflowlang

import (
	"fmt"
	"slices"
	"strings"
)

// Where an attribute may appear.
const (
	inNode = 1 << iota
	inWorkflow
)

// attrSpec is the schema of one attribute.
type attrSpec struct {
	where int
	doc   string
	check func(c *checker, a *Attr) string // "" when the value is fine
}

// The checkers Role C can run, for the checks attribute.
var checkNames = []string{"continuity", "character", "timeline", "world", "names", "facts", "state", "setup-payoff"}

// attrOrder lists the attributes in documentation order.
var attrOrder = []string{"model", "temperature", "max_tokens", "context", "budget", "checks", "retries", "persist", "refine", "candidates", "generations", "select"}

var attrSchema = map[string]attrSpec{
	"model": {inNode | inWorkflow, "the model: writer (default), agent or a name from flowcabal.toml", func(c *checker, a *Attr) string {
		s, ok := wordOrString(a.Value)
		if !ok {
			return "model is a name: writer, agent or a model of flowcabal.toml"
		}
		if s == "writer" || s == "agent" || c.env.Models == nil || slices.Contains(c.env.Models, s) {
			return ""
		}
		return fmt.Sprintf("unknown model %q: want writer, agent%s", s, listOr(c.env.Models))
	}},
	"temperature": {inNode | inWorkflow, "sampling temperature, 0 to 2", numberIn(false, 0, 2)},
	"max_tokens":  {inNode | inWorkflow, "the most tokens the model may write, > 0", numberIn(true, 1, 1<<31-1)},
	"context": {inNode | inWorkflow, "auto (Role A injects context, the default) or off", func(c *checker, a *Attr) string {
		return oneOf(a.Value, "context", "auto", "off")
	}},
	"budget":  {inNode | inWorkflow, "Role A token budget, > 0", numberIn(true, 1, 1<<31-1)},
	"checks":  {inNode | inWorkflow, "Role C checkers to run: " + strings.Join(checkNames, ", "), checkChecks},
	"retries": {inNode | inWorkflow, "Role C retry cap, 0 to 10 (default 3)", numberIn(true, 0, 10)},
	"persist": {inNode, "where curated output goes, a path inside the project", func(c *checker, a *Attr) string {
		s, ok := a.Value.(*StringValue)
		if !ok {
			return `persist is a "path" inside the project`
		}
		if _, err := cleanRel(s.Value); err != nil {
			return "bad-path:" + err.Error()
		}
		return ""
	}},
	"refine":      {inNode | inWorkflow, "recursive refinement passes, 1 to 10", numberIn(true, 1, 10)},
	"candidates":  {inNode | inWorkflow, "evolutionary candidates per generation, 1 to 20", numberIn(true, 1, 20)},
	"generations": {inNode | inWorkflow, "evolutionary generations, 1 to 10", numberIn(true, 1, 10)},
	"max_cost": {inWorkflow, "the most a run may spend on model calls (prices of flowcabal.toml), > 0", func(c *checker, a *Attr) string {
		if n, ok := a.Value.(*NumberValue); !ok || n.Value <= 0 {
			return "max_cost is a number > 0 (in the currency of flowcabal.toml's prices)"
		}
		return ""
	}},
	"select": {inNode | inWorkflow, "who selects among candidates: auto or human", func(c *checker, a *Attr) string {
		return oneOf(a.Value, "select", "auto", "human")
	}},
}

// AttrNames lists the attributes a node may set, in documentation order.
func AttrNames() []string { return slices.Clone(attrOrder) }

// AttrDoc returns the one-line documentation of a node attribute, or "".
func AttrDoc(key string) string { return attrSchema[key].doc }

// CheckNames lists the Role C checkers the checks attribute accepts.
func CheckNames() []string { return slices.Clone(checkNames) }

func listOr(names []string) string {
	if len(names) == 0 {
		return " (flowcabal.toml defines no other model)"
	}
	return " or one of " + strings.Join(names, ", ")
}

func wordOrString(v Value) (string, bool) {
	switch v := v.(type) {
	case *WordValue:
		return v.Name, true
	case *StringValue:
		return v.Value, true
	}
	return "", false
}

func oneOf(v Value, key string, allowed ...string) string {
	s, ok := wordOrString(v)
	if ok && slices.Contains(allowed, s) {
		return ""
	}
	return fmt.Sprintf("%s is %s", key, strings.Join(allowed, " or "))
}

func numberIn(isInt bool, lo, hi float64) func(c *checker, a *Attr) string {
	return func(c *checker, a *Attr) string {
		n, ok := a.Value.(*NumberValue)
		kind := "a number"
		if isInt {
			kind = "a whole number"
		}
		if !ok || (isInt && !n.IsInt) || n.Value < lo || n.Value > hi {
			if hi >= 1<<31-1 {
				return fmt.Sprintf("%s is %s ≥ %g", a.Key.Name, kind, lo)
			}
			return fmt.Sprintf("%s is %s from %g to %g", a.Key.Name, kind, lo, hi)
		}
		return ""
	}
}

func checkChecks(c *checker, a *Attr) string {
	l, ok := a.Value.(*ListValue)
	if !ok {
		return `checks is a list: ["continuity", "character", …]`
	}
	for _, e := range l.Elems {
		s, ok := wordOrString(e)
		if !ok || !slices.Contains(checkNames, s) {
			return fmt.Sprintf("unknown checker %s: want %s", valueText(c.f.Src, e), strings.Join(checkNames, ", "))
		}
	}
	return ""
}

func valueText(src []byte, v Value) string {
	s := v.ValueSpan()
	if s.End > len(src) || s.Start > s.End {
		return "?"
	}
	return string(src[s.Start:s.End])
}

// checkAttrs applies the attribute schema to the workflow header, the
// nodes and the inputs, and reports duplicate attributes everywhere.
func (c *checker) checkAttrs() {
	if c.f.Workflow != nil {
		c.attrBlock(c.f.Workflow.Attrs, inWorkflow, "the workflow header")
	}
	for _, it := range c.f.Items {
		if w, ok := it.(*Workflow); ok && w != c.f.Workflow {
			c.attrBlock(w.Attrs, inWorkflow, "the workflow header")
		}
	}
	for _, n := range c.f.Nodes {
		c.attrBlock(n.Attrs, inNode, "a node")
		if len(n.Prompts) == 0 && n.Name.Name != "" {
			c.report(Diagnostic{Span: n.Name.Span, Code: CodeEmptyNode,
				Message: fmt.Sprintf("node %s has no prompt: add user \"\"\"…\"\"\"", n.Name.Name)})
		}
	}
	for _, in := range c.f.Inputs {
		c.duplicates(in.Attrs)
		for _, a := range in.Attrs {
			switch {
			case a.Key.Name != "default":
				d := Diagnostic{Span: a.Key.Span, Code: CodeUnknownAttr,
					Message: fmt.Sprintf("unknown attribute %s of an input: only default", a.Key.Name)}
				c.suggest(&d, a.Key.Name, []string{"default"})
				c.report(d)
			case a.Value == nil:
			default:
				switch a.Value.(type) {
				case *TextValue, *StringValue:
				default:
					c.report(Diagnostic{Span: a.Value.ValueSpan(), Code: CodeAttrType,
						Message: "default is text: a \"string\" or a \"\"\"block\"\"\""})
				}
			}
		}
	}
	for _, u := range c.f.Uses {
		c.duplicates(u.Args)
	}
}

func (c *checker) duplicates(attrs []*Attr) {
	if len(attrs) < 2 {
		return
	}
	seen := make(map[string]*Attr, len(attrs))
	for _, a := range attrs {
		if first, dup := seen[a.Key.Name]; dup {
			c.report(Diagnostic{Span: a.Key.Span, Code: CodeDuplicateAttr,
				Message: fmt.Sprintf("%s is set twice", a.Key.Name),
				Related: []Related{{Span: first.Key.Span, Message: "first set here"}}})
			continue
		}
		seen[a.Key.Name] = a
	}
}

func (c *checker) attrBlock(attrs []*Attr, where int, what string) {
	c.duplicates(attrs)
	for _, a := range attrs {
		spec, ok := attrSchema[a.Key.Name]
		if !ok || spec.where&where == 0 {
			d := Diagnostic{Span: a.Key.Span, Code: CodeUnknownAttr,
				Message: fmt.Sprintf("unknown attribute %s in %s", a.Key.Name, what)}
			if ok {
				d.Message = fmt.Sprintf("%s belongs in a node, not in %s", a.Key.Name, what)
			} else {
				var names []string
				for _, k := range attrOrder {
					if attrSchema[k].where&where != 0 {
						names = append(names, k)
					}
				}
				c.suggest(&d, a.Key.Name, names)
			}
			c.report(d)
			continue
		}
		if a.Value == nil {
			continue
		}
		if msg := spec.check(c, a); msg != "" {
			code := CodeAttrType
			if m, ok := strings.CutPrefix(msg, "bad-path:"); ok {
				code, msg = CodeBadPath, "persist path outside the project: "+m
			}
			c.report(Diagnostic{Span: a.Value.ValueSpan(), Code: code, Message: msg})
		}
	}
}
