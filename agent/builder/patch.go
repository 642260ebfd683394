package builder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// The patch format the model answers with.
//
// A batch is an array of RFC 6902 operations over the workflow's JSON model
// (workflowlang.Model without its derived edges). On top of RFC 6902:
//
//   - A node may be addressed by name instead of index: /nodes/draft/attrs
//     is /nodes/<index of draft>/attrs at the moment the operation applies.
//   - A new node is added as {"op": "add", "path": "/nodes/-", "value": {…}}
//     whose value carries a temporary "localId" ("n1"). Its other fields:
//     "template" (a template id), "title", "attrs", "prompts" (each
//     {"role": "user", "text": "…"} or {"role": …, "blocks": […]}), the
//     shortcuts "user" and "system" (prompt text), and "input" (a node name,
//     a "$localId" or a list of them: fills the template's {{in}}, further
//     inputs follow it on their own lines).
//   - Later operations of the same batch refer to a new node as
//     "$<localId>": in paths (/nodes/$n1/attrs/temperature), in references
//     ({{$n1}} inside prompt text, or a block {"ref": "$n1"}) and in
//     "input". A "$name" that no earlier operation defined is an error.
//   - Names and positions of new nodes are the builder's: the name comes
//     from the template (its `name`), else the title, made unique
//     ("critique", "critique-2"); the node goes right after the last node
//     it references, else at the end. A "name" the model gives a new node
//     is only a hint used when there is neither template nor title.
//   - /edges is derived from the references and may not be patched.

// Op is one JSON Patch operation as the model wrote it.
type Op struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// PatchError is a rejected patch. Index is the offending operation's
// position in the batch (from 0), or -1 when the problem is the batch as a
// whole.
type PatchError struct {
	Index  int
	Op     string
	Path   string
	Reason string
}

func (e *PatchError) Error() string {
	if e.Index < 0 {
		return "invalid patch: " + e.Reason
	}
	return fmt.Sprintf("invalid patch: operations[%d] (%s %s): %s", e.Index, e.Op, e.Path, e.Reason)
}

// applied is a patch applied to a copy of a workflow and checked.
type applied struct {
	model   *workflowlang.Model
	names   map[string]string // localId -> final node name
	added   []string          // final names of the new nodes, in file order
	edits   []workflowlang.TextEdit
	newText []byte
	result  *workflowlang.Result
}

// newNode is what the builder remembers about a node the batch adds.
type newNode struct {
	localID  string
	template *Template
	title    string
	hint     string
	op       int
}

type patcher struct {
	lib   *Library
	doc   []byte
	local map[string]*newNode // by localId (without '$')
	// touched maps a node (its name at the time, "$id" for new nodes) to
	// the last operation that changed it, to blame check errors on.
	touched map[string]int
	ops     []Op
	// added holds the final names of the new nodes.
	added map[string]bool
}

var localIDRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,40}$`)

// applyPatch applies ops to the model of res, names and places the new
// nodes, writes the result as minimal edits of res.File's source and
// checks it with the language's own rules.
func applyPatch(lib *Library, res *workflowlang.Result, env workflowlang.Env, ops []Op) (*applied, error) {
	if len(ops) == 0 {
		return nil, &PatchError{Index: -1, Reason: "the batch has no operations"}
	}
	m := workflowlang.ToModel(res)
	m.Edges = nil
	doc, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	p := &patcher{lib: lib, doc: doc, local: map[string]*newNode{}, touched: map[string]int{}, ops: ops, added: map[string]bool{}}
	for i, op := range ops {
		if err := p.apply(i, op); err != nil {
			var pe *PatchError
			if errors.As(err, &pe) {
				return nil, pe
			}
			return nil, &PatchError{Index: i, Op: op.Op, Path: op.Path, Reason: err.Error()}
		}
	}
	var out workflowlang.Model
	if err := json.Unmarshal(p.doc, &out); err != nil {
		return nil, &PatchError{Index: -1, Reason: "the patched model: " + err.Error()}
	}
	names := p.name(&out)
	p.place(&out)
	out.Edges = nil

	edits, err := workflowlang.Edits(res.File, &out)
	if err != nil {
		return nil, &PatchError{Index: -1, Reason: "the patched model cannot be written: " + err.Error()}
	}
	edits = restoreLevels(res.File.Src, edits, &out)
	if len(edits) == 0 {
		return nil, &PatchError{Index: -1, Reason: "the patch changes nothing in the file"}
	}
	newText := workflowlang.ApplyEdits(res.File.Src, edits)
	nf := workflowlang.Parse(res.File.Path, newText)
	nres := workflowlang.Check(nf, env)
	if err := p.blame(res, nres, names); err != nil {
		return nil, err
	}
	a := &applied{model: &out, names: map[string]string{}, edits: edits, newText: newText, result: nres}
	for id, n := range names {
		a.names[strings.TrimPrefix(id, "$")] = n
	}
	for _, n := range nf.Nodes {
		if p.added[n.Name.Name] {
			a.added = append(a.added, n.Name.Name)
		}
	}
	return a, nil
}

// apply applies one operation to p.doc.
func (p *patcher) apply(i int, op Op) error {
	switch op.Op {
	case "add", "remove", "replace", "move", "copy", "test":
	case "":
		return errors.New(`no "op"`)
	default:
		return fmt.Errorf("unknown op %q: want add, remove, replace, move, copy or test", op.Op)
	}
	segs, err := p.resolve(op.Path)
	if err != nil {
		return err
	}
	var fromSegs []string
	if op.Op == "move" || op.Op == "copy" {
		if fromSegs, err = p.resolve(op.From); err != nil {
			return fmt.Errorf("from: %w", err)
		}
		if len(fromSegs) == 2 && fromSegs[0] == "nodes" && op.Op == "copy" {
			return errors.New("copying a whole node would duplicate its name; add a new node instead")
		}
	}
	var value json.RawMessage
	switch op.Op {
	case "add", "replace", "test":
		if len(op.Value) == 0 {
			return errors.New(`no "value"`)
		}
		if value, err = p.normalize(i, segs, op.Op, op.Value); err != nil {
			return err
		}
	}
	// Blame: the node the operation lands in (by its name before).
	if len(segs) >= 2 && segs[0] == "nodes" && !(op.Op == "add" && len(segs) == 2) {
		if name, ok := p.nodeNameAt(segs[1]); ok {
			p.touched[name] = i
		}
	}
	one := map[string]any{"op": op.Op, "path": pointer(segs)}
	if value != nil {
		one["value"] = value
	}
	if fromSegs != nil {
		one["from"] = pointer(fromSegs)
	}
	data, err := json.Marshal([]any{one})
	if err != nil {
		return err
	}
	patch, err := jsonpatch.DecodePatch(data)
	if err != nil {
		return err
	}
	doc, err := patch.Apply(p.doc)
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "error in remove for path: "))
	}
	// The model must still have the model's shape after every operation,
	// so that a misplaced value is blamed on the operation that put it.
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	var check workflowlang.Model
	if err := dec.Decode(&check); err != nil {
		return fmt.Errorf("the result is not a workflow model: %v", err)
	}
	p.doc = doc
	if len(segs) >= 2 && segs[0] == "nodes" {
		if name, ok := p.nodeNameAt(segs[1]); ok {
			p.touched[name] = i
		}
	}
	return nil
}

// resolve splits a JSON pointer and replaces node names and $localIds
// after /nodes/ by the node's current index.
func (p *patcher) resolve(ptr string) ([]string, error) {
	if ptr == "" || ptr[0] != '/' {
		return nil, fmt.Errorf("path %q: want a JSON pointer such as /nodes/0/attrs/temperature", ptr)
	}
	segs := strings.Split(ptr[1:], "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	switch segs[0] {
	case "nodes", "workflow", "uses", "inputs":
	case "edges":
		return nil, errors.New("edges are derived from the references: change a prompt's {{refs}} instead")
	default:
		return nil, fmt.Errorf("path %q: the model has nodes, workflow, uses and inputs", ptr)
	}
	if segs[0] != "nodes" || len(segs) < 2 || segs[1] == "-" {
		return segs, nil
	}
	if _, err := strconv.Atoi(segs[1]); err == nil {
		return segs, nil
	}
	key := segs[1]
	key = strings.TrimSuffix(strings.TrimPrefix(key, "{{"), "}}")
	if strings.HasPrefix(key, "$") && p.local[key[1:]] == nil {
		return nil, fmt.Errorf("unknown localId %s: no earlier operation of this batch adds a node with that localId", key)
	}
	names := p.nodeNames()
	idx := slices.Index(names, key)
	if idx < 0 {
		return nil, fmt.Errorf("no node named %q (the nodes are: %s)", key, strings.Join(names, ", "))
	}
	segs[1] = strconv.Itoa(idx)
	return segs, nil
}

func pointer(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
	}
	return b.String()
}

func (p *patcher) nodeNames() []string {
	var m struct {
		Nodes []struct {
			Name string `json:"name"`
		} `json:"nodes"`
	}
	_ = json.Unmarshal(p.doc, &m)
	out := make([]string, len(m.Nodes))
	for i, n := range m.Nodes {
		out[i] = n.Name
	}
	return out
}

func (p *patcher) nodeNameAt(seg string) (string, bool) {
	names := p.nodeNames()
	i, err := strconv.Atoi(seg)
	if err != nil || i < 0 || i >= len(names) {
		return "", false
	}
	return names[i], true
}

// normalize turns the friendly forms of a value into the model's shape,
// by where the path puts it.
func (p *patcher) normalize(i int, segs []string, op string, raw json.RawMessage) (json.RawMessage, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("value is not JSON: %v", err)
	}
	var err error
	switch {
	case segs[0] != "nodes":
	case len(segs) == 2 && op == "add":
		v, err = p.newNode(i, v)
	case len(segs) == 2:
		v, err = p.node(v)
	case len(segs) == 3 && segs[2] == "prompts":
		v, err = p.prompts(v)
	case len(segs) == 4 && segs[2] == "prompts":
		v, err = p.prompt(v)
	case len(segs) == 5 && segs[2] == "prompts" && segs[4] == "blocks":
		v, err = p.blockList(v)
	case len(segs) == 6 && segs[2] == "prompts" && segs[4] == "blocks":
		var bs []any
		if bs, err = p.block(v); err == nil {
			if len(bs) != 1 {
				return nil, errors.New("one block is text or a reference, not both")
			}
			v = bs[0]
		}
	case len(segs) == 5 && segs[2] == "prompts" && segs[4] == "text":
		return nil, errors.New(`a prompt's text lives in its "blocks": replace /nodes/…/prompts/N with {"role": …, "text": …}`)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

var newNodeFields = []string{"localId", "template", "title", "name", "attrs", "prompts", "user", "system", "input"}

// newNode builds the model node of an added node.
func (p *patcher) newNode(i int, v any) (any, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("a new node is an object with a localId")
	}
	for k := range obj {
		if !slices.Contains(newNodeFields, k) {
			return nil, fmt.Errorf("unknown field %q in a new node; the fields are %s", k, strings.Join(newNodeFields, ", "))
		}
	}
	id, _ := obj["localId"].(string)
	id = strings.TrimPrefix(id, "$")
	if id == "" {
		return nil, errors.New(`a new node needs a "localId" (e.g. "n1") for later operations to refer to it`)
	}
	if !localIDRe.MatchString(id) {
		return nil, fmt.Errorf("localId %q: use letters, digits, '_' and '-'", id)
	}
	if p.local[id] != nil {
		return nil, fmt.Errorf("localId %s is used by operations[%d] already", id, p.local[id].op)
	}
	nn := &newNode{localID: id, op: i}
	if s, ok := obj["template"].(string); ok && s != "" {
		nn.template = p.lib.Get(s)
		if nn.template == nil {
			return nil, fmt.Errorf("unknown template %q; the templates are: %s", s, strings.Join(p.lib.sortedIDs(), ", "))
		}
	} else if obj["template"] != nil {
		return nil, errors.New(`"template" is a template id`)
	}
	nn.title, _ = obj["title"].(string)
	nn.hint, _ = obj["name"].(string)
	if nn.title == "" && nn.template != nil {
		nn.title = nn.template.Title
	}

	attrs := map[string]any{}
	if nn.template != nil {
		for k, v := range nn.template.Attrs {
			attrs[k] = v
		}
	}
	if a, ok := obj["attrs"]; ok {
		am, ok := a.(map[string]any)
		if !ok {
			return nil, errors.New(`"attrs" is an object`)
		}
		for k, v := range am {
			attrs[k] = v
		}
	}

	inputs, err := p.inputs(obj["input"])
	if err != nil {
		return nil, err
	}
	var prompts []any
	switch {
	case obj["prompts"] != nil:
		ps, err := p.prompts(obj["prompts"])
		if err != nil {
			return nil, err
		}
		prompts = ps.([]any)
	case obj["user"] != nil || obj["system"] != nil:
		for _, role := range []string{"system", "user"} {
			if s, ok := obj[role].(string); ok {
				pr, err := p.prompt(map[string]any{"role": role, "text": s})
				if err != nil {
					return nil, err
				}
				prompts = append(prompts, pr)
			}
		}
	case nn.template != nil:
		for _, role := range []string{"system", "user"} {
			text := nn.template.System
			if role == "user" {
				text = nn.template.User
			}
			if text == "" {
				continue
			}
			pr, err := p.prompt(map[string]any{"role": role, "text": fillInputs(text, inputs, role == "user")})
			if err != nil {
				return nil, err
			}
			prompts = append(prompts, pr)
		}
	default:
		return nil, errors.New(`a new node needs a "template", "prompts" or a "user" prompt`)
	}
	if len(inputs) > 0 && obj["template"] == nil && obj["prompts"] == nil && obj["user"] == nil {
		return nil, errors.New(`"input" fills a template's {{in}}; without a template, write the {{refs}} in the prompt`)
	}
	p.local[id] = nn
	p.touched["$"+id] = i
	node := map[string]any{"name": "$" + id, "attrs": attrs, "prompts": prompts}
	if nn.title != "" {
		node["title"] = nn.title
	}
	return node, nil
}

// inputs reads a new node's "input": one reference or a list.
func (p *patcher) inputs(v any) ([]string, error) {
	var raw []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		raw = []any{x}
	case []any:
		raw = x
	default:
		return nil, errors.New(`"input" is a node name, a "$localId" or a list of them`)
	}
	var out []string
	for _, r := range raw {
		s, ok := r.(string)
		if !ok {
			return nil, errors.New(`"input" is a node name, a "$localId" or a list of them`)
		}
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "{{"), "}}"))
		if err := p.checkRef(s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// fillInputs puts the references into a template prompt: the first at
// {{in}}, the others after it, one a line. Without inputs {{in}} is left
// out with its line.
func fillInputs(text string, inputs []string, user bool) string {
	text = strings.TrimRight(text, "\n")
	var refs []string
	for _, in := range inputs {
		refs = append(refs, "{{"+in+"}}")
	}
	if !strings.Contains(text, "{{in}}") {
		if user && len(refs) > 0 {
			text += "\n" + strings.Join(refs, "\n")
		}
		return text
	}
	if len(refs) == 0 {
		var keep []string
		for _, ln := range strings.Split(text, "\n") {
			if strings.TrimSpace(ln) != "{{in}}" {
				keep = append(keep, ln)
			}
		}
		return strings.ReplaceAll(strings.Join(keep, "\n"), "{{in}}", "")
	}
	return strings.Replace(text, "{{in}}", strings.Join(refs, "\n"), 1)
}

// node normalises a replaced whole node.
func (p *patcher) node(v any) (any, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("a node is an object")
	}
	if ps, ok := obj["prompts"]; ok {
		n, err := p.prompts(ps)
		if err != nil {
			return nil, err
		}
		obj["prompts"] = n
	}
	if _, ok := obj["localId"]; ok {
		return nil, errors.New(`"localId" belongs to nodes added with "add"`)
	}
	return obj, nil
}

func (p *patcher) prompts(v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New(`"prompts" is a list of {"role": …, "text": …}`)
	}
	out := make([]any, 0, len(list))
	for _, x := range list {
		pr, err := p.prompt(x)
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

// prompt normalises {"role", "text"} or {"role", "blocks"}.
func (p *patcher) prompt(v any) (any, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New(`a prompt is {"role": "user", "text": "…"}`)
	}
	role, _ := obj["role"].(string)
	if role != "user" && role != "system" {
		return nil, fmt.Errorf("prompt role %v: want user or system", obj["role"])
	}
	for k := range obj {
		if k != "role" && k != "text" && k != "blocks" {
			return nil, fmt.Errorf("unknown field %q in a prompt; want role and text (or blocks)", k)
		}
	}
	var blocks []any
	switch {
	case obj["text"] != nil && obj["blocks"] != nil:
		return nil, errors.New(`a prompt has "text" or "blocks", not both`)
	case obj["text"] != nil:
		s, ok := obj["text"].(string)
		if !ok {
			return nil, errors.New(`a prompt's "text" is a string`)
		}
		// The model keeps a prompt without its final newline; the
		// writer adds it.
		s = strings.TrimRight(strings.TrimPrefix(s, "\n"), "\n")
		var err error
		if blocks, err = p.splitText(s); err != nil {
			return nil, err
		}
	default:
		b, err := p.blockList(obj["blocks"])
		if err != nil {
			return nil, err
		}
		blocks = b.([]any)
	}
	return map[string]any{"role": role, "blocks": blocks}, nil
}

func (p *patcher) blockList(v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New(`"blocks" is a list of {"text": …} and {"ref": …}`)
	}
	out := []any{}
	for _, x := range list {
		bs, err := p.block(x)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

// block normalises one block; a text block with {{refs}} in it becomes
// several blocks.
func (p *patcher) block(v any) ([]any, error) {
	switch x := v.(type) {
	case string:
		return p.splitText(x)
	case map[string]any:
		if r, ok := x["ref"].(string); ok && len(x) == 1 {
			r = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(r), "{{"), "}}"))
			if err := p.checkRef(r); err != nil {
				return nil, err
			}
			return []any{map[string]any{"ref": r}}, nil
		}
		if t, ok := x["text"].(string); ok && len(x) == 1 {
			return p.splitText(t)
		}
	}
	return nil, errors.New(`a block is {"text": "…"} or {"ref": "node"}`)
}

// splitText cuts prompt text at {{refs}}.
func (p *patcher) splitText(s string) ([]any, error) {
	var out []any
	for {
		i := strings.Index(s, "{{")
		if i < 0 || (i > 0 && s[i-1] == '\\') {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		ref := strings.TrimSpace(s[i+2 : i+j])
		if ref == "" {
			return nil, errors.New("an empty {{}} in prompt text")
		}
		if err := p.checkRef(ref); err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, map[string]any{"text": s[:i]})
		}
		out = append(out, map[string]any{"ref": ref})
		s = s[i+j+2:]
	}
	if s != "" {
		out = append(out, map[string]any{"text": s})
	}
	return out, nil
}

// checkRef refuses a $localId no earlier operation defined. Other
// references are the language's to check.
func (p *patcher) checkRef(ref string) error {
	if strings.HasPrefix(ref, "$") {
		if p.local[ref[1:]] == nil {
			return fmt.Errorf("unknown localId %s: no earlier operation of this batch adds a node with that localId", ref)
		}
	}
	return nil
}

// name gives the new nodes their final names and rewrites every
// reference to them. It returns "$localId" -> name.
func (p *patcher) name(m *workflowlang.Model) map[string]string {
	taken := map[string]bool{}
	for _, n := range m.Nodes {
		if !strings.HasPrefix(n.Name, "$") {
			taken[n.Name] = true
		}
	}
	for _, in := range m.Inputs {
		taken[in.Name] = true
	}
	names := map[string]string{}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if !strings.HasPrefix(n.Name, "$") {
			continue
		}
		nn := p.local[n.Name[1:]]
		base := ""
		switch {
		case nn == nil:
		case nn.template != nil:
			base = nn.template.NodeName()
		case nn.title != "":
			base = slug(nn.title)
		case nn.hint != "":
			base = slug(nn.hint)
		}
		if base == "" {
			base = "node"
		}
		name := base
		for k := 2; taken[name]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		taken[name] = true
		p.added[name] = true
		names[n.Name] = name
		if op, ok := p.touched[n.Name]; ok {
			p.touched[name] = op
		}
		n.Name = name
	}
	rename := func(bs []workflowlang.ModelBlock) {
		for j := range bs {
			if nn, ok := names[bs[j].Ref]; ok {
				bs[j].Ref = nn
			}
		}
	}
	for i := range m.Nodes {
		for j := range m.Nodes[i].Prompts {
			rename(m.Nodes[i].Prompts[j].Blocks)
		}
	}
	return names
}

// slug makes a readable node name from a title: lower case, words joined
// by '-', letters of any script kept.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			if b.Len() == 0 && unicode.IsDigit(r) {
				b.WriteString("n")
			}
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= 32 {
			break
		}
	}
	out := b.String()
	if !workflowlang.IsIdent(out) {
		return ""
	}
	return out
}

// place puts each new node right after the last node it references (new
// nodes in the order of their dependencies), or at the end.
func (p *patcher) place(m *workflowlang.Model) {
	var kept, added []workflowlang.ModelNode
	for _, n := range m.Nodes {
		if p.added[n.Name] {
			added = append(added, n)
		} else {
			kept = append(kept, n)
		}
	}
	placed := map[string]bool{}
	for len(added) > 0 {
		// The first new node whose new dependencies are all placed.
		pick := 0
		for i, n := range added {
			ready := true
			for _, r := range refsOf(n) {
				if slices.ContainsFunc(added, func(a workflowlang.ModelNode) bool { return a.Name == r }) && !placed[r] {
					ready = false
				}
			}
			if ready {
				pick = i
				break
			}
		}
		n := added[pick]
		added = slices.Delete(added, pick, pick+1)
		at := len(kept)
		last := -1
		for _, r := range refsOf(n) {
			if i := slices.IndexFunc(kept, func(k workflowlang.ModelNode) bool { return k.Name == r }); i > last {
				last = i
			}
		}
		if last >= 0 {
			at = last + 1
			// After nodes already placed behind the same dependency.
			for at < len(kept) && placed[kept[at].Name] {
				at++
			}
		}
		kept = slices.Insert(kept, at, n)
		placed[n.Name] = true
	}
	m.Nodes = kept
}

func refsOf(n workflowlang.ModelNode) []string {
	var out []string
	for _, pr := range n.Prompts {
		for _, b := range pr.Blocks {
			if b.Ref != "" {
				out = append(out, b.Ref)
			}
		}
	}
	return out
}

// blame turns the errors the patched file has and the original had not
// into a PatchError naming the operation that last changed the node the
// error is in.
func (p *patcher) blame(before, after *workflowlang.Result, names map[string]string) error {
	old := map[string]int{}
	key := func(d workflowlang.Diagnostic) string { return string(d.Code) + "\x00" + d.Message }
	for _, d := range before.Diagnostics {
		if d.Severity == workflowlang.SeverityError && d.Path == "" {
			old[key(d)]++
		}
	}
	for _, d := range after.Diagnostics {
		if d.Severity != workflowlang.SeverityError || d.Path != "" {
			continue
		}
		if old[key(d)] > 0 {
			old[key(d)]--
			continue
		}
		idx := -1
		where := ""
		for _, n := range after.File.Nodes {
			if n.Span.Start <= d.Span.Start && d.Span.End <= n.Span.End {
				where = n.Name.Name
				if op, ok := p.touched[n.Name.Name]; ok {
					idx = op
				}
				break
			}
		}
		reason := fmt.Sprintf("%s: %s", d.Code, d.Message)
		if where != "" {
			reason = fmt.Sprintf("node %s: %s", where, reason)
		}
		if idx < 0 {
			return &PatchError{Index: -1, Reason: reason}
		}
		return &PatchError{Index: idx, Op: p.ops[idx].Op, Path: p.ops[idx].Path, Reason: reason}
	}
	return nil
}

// restoreLevels puts back the explicit levels of knowledge references
// ({{@path:L1}}) that workflowlang.Edits drops when it re-renders a node:
// it compares the written file with the intended model and inserts the
// missing ":L1" into the edit that wrote the reference. With a writer that
// keeps levels it changes nothing.
func restoreLevels(src []byte, edits []workflowlang.TextEdit, want *workflowlang.Model) []workflowlang.TextEdit {
	newText := workflowlang.ApplyEdits(src, edits)
	nf := workflowlang.Parse("restore.flow", newText)
	type fix struct {
		at   int
		text string
	}
	var fixes []fix
	for _, n := range nf.Nodes {
		i := slices.IndexFunc(want.Nodes, func(mn workflowlang.ModelNode) bool { return mn.Name == n.Name.Name })
		if i < 0 {
			continue
		}
		mn := want.Nodes[i]
		for j, pr := range n.Prompts {
			if j >= len(mn.Prompts) {
				break
			}
			var wantRefs []string
			for _, b := range mn.Prompts[j].Blocks {
				if b.Ref != "" {
					wantRefs = append(wantRefs, b.Ref)
				}
			}
			var got []*workflowlang.Ref
			for _, b := range pr.Blocks {
				if r, ok := b.(*workflowlang.Ref); ok {
					got = append(got, r)
				}
			}
			if len(got) != len(wantRefs) {
				continue
			}
			for k, r := range got {
				if r.Kind == workflowlang.RefKnowledge && r.LevelSpan.Len() == 0 && strings.HasPrefix(wantRefs[k], r.Target()+":") {
					fixes = append(fixes, fix{at: r.PathSpan.End, text: wantRefs[k][len(r.Target()):]})
				}
			}
		}
	}
	if len(fixes) == 0 {
		return edits
	}
	out := slices.Clone(edits)
	slices.SortStableFunc(out, func(a, b workflowlang.TextEdit) int { return a.Span.Start - b.Span.Start })
	// Apply the fixes back to front so that earlier offsets stay valid.
	slices.SortFunc(fixes, func(a, b fix) int { return b.at - a.at })
	for _, f := range fixes {
		delta := 0
		for i := range out {
			start := out[i].Span.Start + delta
			end := start + len(out[i].NewText)
			if start <= f.at && f.at <= end {
				o := f.at - start
				out[i].NewText = out[i].NewText[:o] + f.text + out[i].NewText[o:]
				break
			}
			delta += len(out[i].NewText) - out[i].Span.Len()
		}
	}
	return out
}
