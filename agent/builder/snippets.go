package builder

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// A Snippet is a whole node offered as a completion: deterministic, no
// model involved.
type Snippet struct {
	// Label is what the completion list shows ("critique: Self-critique").
	Label string
	// Detail says what the node is for and what it reads.
	Detail   string
	Template string
	// Name is the new node's name, unique in the file.
	Name string
	// Text is the node as plain text, in canonical form.
	Text string
	// Snippet is Text in LSP snippet syntax, the name as the first tab
	// stop.
	Snippet string
}

// Snippets returns whole-node completions for the byte offset at of
// res's file: templates that typically follow the node just before at,
// reading its output (after a draft: a self-critique of it, a dialogue
// pass, a continuity check…). Inside a node there are none.
func (l *Library) Snippets(res *workflowlang.Result, at int) []Snippet {
	f := res.File
	var prev *workflowlang.Node
	for _, n := range f.Nodes {
		if n.Span.Start < at && at < n.Span.End {
			return nil
		}
		if n.Span.End <= at {
			prev = n
		}
	}
	taken := map[string]bool{}
	for _, n := range f.Nodes {
		taken[n.Name.Name] = true
	}
	for _, in := range f.Inputs {
		taken[in.Name.Name] = true
	}
	var kind *Template
	var candidates []*Template
	switch {
	case prev == nil:
		candidates = []*Template{}
		for _, t := range l.Templates {
			if !strings.Contains(t.User, "{{in}}") {
				candidates = append(candidates, t)
			}
		}
	default:
		title := ""
		if prev.Title != nil {
			title = prev.Title.Value
		}
		kind = l.classify(prev.Name.Name, title)
		for _, t := range l.Templates {
			if kind != nil && slices.Contains(t.Follows, kind.ID) {
				candidates = append(candidates, t)
			}
		}
		if len(candidates) == 0 {
			for _, t := range l.Templates {
				if strings.Contains(t.User, "{{in}}") {
					candidates = append(candidates, t)
				}
			}
		}
	}
	var out []Snippet
	for _, t := range candidates {
		var inputs []string
		if prev != nil {
			inputs = []string{prev.Name.Name}
			// A revision reads what the critique reviewed, and the critique.
			if t.ID == "revise" && kind != nil && kind.ID == "self-critique" {
				if refs := prev.Refs(); len(refs) > 0 && refs[0].Kind == workflowlang.RefNode {
					inputs = []string{refs[0].Name, prev.Name.Name}
				}
			}
		}
		name := t.NodeName()
		for k := 2; taken[name]; k++ {
			name = fmt.Sprintf("%s-%d", t.NodeName(), k)
		}
		text, err := renderNode(t, name, inputs)
		if err != nil {
			continue
		}
		detail := t.Description
		if len(inputs) > 0 {
			detail = fmt.Sprintf("%s Reads %s.", detail, strings.Join(inputs, " and "))
		}
		out = append(out, Snippet{
			Label:    name + ": " + t.Title,
			Detail:   detail,
			Template: t.ID,
			Name:     name,
			Text:     text,
			Snippet:  strings.Replace(snippetEscape(text), "node "+name, "node ${1:"+name+"}", 1) + "\n$0",
		})
	}
	return out
}

// renderNode prints a node made from t, in the language's canonical form:
// the language's own writer renders it into an empty file.
func renderNode(t *Template, name string, inputs []string) (string, error) {
	mn := workflowlang.ModelNode{Name: name, Title: t.Title, Attrs: map[string]any{}}
	for k, v := range t.Attrs {
		mn.Attrs[k] = v
	}
	for _, role := range []string{"system", "user"} {
		text := t.System
		if role == "user" {
			text = t.User
		}
		if text == "" {
			continue
		}
		var blocks []workflowlang.ModelBlock
		rest := fillInputs(text, inputs, role == "user")
		for {
			i := strings.Index(rest, "{{")
			j := strings.Index(rest, "}}")
			if i < 0 || j < i {
				break
			}
			if i > 0 {
				blocks = append(blocks, workflowlang.ModelBlock{Text: rest[:i]})
			}
			blocks = append(blocks, workflowlang.ModelBlock{Ref: strings.TrimSpace(rest[i+2 : j])})
			rest = rest[j+2:]
		}
		if rest != "" {
			blocks = append(blocks, workflowlang.ModelBlock{Text: rest})
		}
		mn.Prompts = append(mn.Prompts, workflowlang.ModelPrompt{Role: role, Blocks: blocks})
	}
	empty := workflowlang.Parse("snippet.flow", nil)
	edits, err := workflowlang.Edits(empty, &workflowlang.Model{Nodes: []workflowlang.ModelNode{mn}})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(workflowlang.ApplyEdits(nil, edits))), nil
}

// snippetEscape escapes the characters LSP snippet syntax gives meaning
// outside placeholders ('}' only means something inside one).
func snippetEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`).Replace(s)
}

// Action is a code action on a node that asks the builder for a change.
type Action struct {
	// Title is what the editor shows.
	Title string
	// Intent is the ready-made intent for Suggest.
	Intent string
	// Node is the node the action is about.
	Node string
	// Ops, when set, is a ready-made patch that does the same without a
	// model (Builder.Apply); nil when the change needs the model.
	Ops []Op
}

func addOp(v map[string]any) Op {
	data, _ := json.Marshal(v)
	return Op{Op: "add", Path: "/nodes/-", Value: data}
}

// CodeActions returns the builder's code actions for a node of res.
func (l *Library) CodeActions(res *workflowlang.Result, node string) []Action {
	if res.File.Node(node) == nil {
		return nil
	}
	out := make([]Action, len(nodeActions))
	for i, k := range nodeActions {
		out[i] = Action{Title: k.title(node), Node: node, Intent: k.intent(node)}
		if k.ops != nil {
			out[i].Ops = k.ops(node)
		}
	}
	return out
}

// A ListedAction is a code action as an editor lists it before one is
// chosen: CodeActions' action without its patch.
type ListedAction struct {
	Title string
	Node  string
	// Patch reports whether the action has a ready-made patch (Ops).
	Patch bool
	// Intent is set for the actions without a patch only, whose command
	// carries it to the model; those with one are resolved whole through
	// CodeActions.
	Intent string
}

// ListCodeActions returns CodeActions' actions for a node of res, in the
// same order, without making their patches or the intents of those that
// have one: what a list of titles needs, asked for whenever the cursor
// moves.
func (l *Library) ListCodeActions(res *workflowlang.Result, node string) []ListedAction {
	if res.File.Node(node) == nil {
		return nil
	}
	out := make([]ListedAction, len(nodeActions))
	for i, k := range nodeActions {
		out[i] = ListedAction{Title: k.title(node), Node: node, Patch: k.ops != nil}
		if k.ops == nil {
			out[i].Intent = k.intent(node)
		}
	}
	return out
}

// actionKind is one of the code actions on a node: its title, and its
// intent and patch made only when asked for. They are functions of the
// node rather than closures over it, so that listing the actions (on
// every move of the cursor) allocates only the strings it returns.
type actionKind struct {
	title  func(node string) string
	intent func(node string) string
	ops    func(node string) []Op // nil: the action needs the model
}

var nodeActions = [3]actionKind{
	{title: func(node string) string { return "Add a critique/revise loop after " + node },
		intent: func(node string) string {
			return fmt.Sprintf("Add a critique/revise loop after node %s: a self-critique node that reviews {{%s}}, then a revise node that reads {{%s}} and the critique. Leave %s itself unchanged.", node, node, node, node)
		},
		ops: func(node string) []Op {
			return []Op{
				addOp(map[string]any{"localId": "critique", "template": "self-critique", "input": node}),
				addOp(map[string]any{"localId": "revise", "template": "revise", "input": []string{node, "$critique"}}),
			}
		}},
	{title: func(node string) string { return "Split " + node + " into scene nodes" },
		intent: func(node string) string {
			return "Split node " + node + " into scene nodes: a split-scenes node that reads what " + node + " reads, one scene-draft node per scene (three unless the outline says otherwise) each reading the split, and change " + node + " to join the scene drafts in order."
		}},
	{title: func(node string) string { return "Add a continuity check after " + node },
		intent: func(node string) string {
			return fmt.Sprintf("Add a continuity-check node after node %s that reads {{%s}} and reports only verifiable contradictions with the entity facts and earlier chapters.", node, node)
		},
		ops: func(node string) []Op {
			return []Op{addOp(map[string]any{"localId": "check", "template": "continuity-check", "input": node})}
		}},
}
