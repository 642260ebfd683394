package runner

import (
	"context"
	"fmt"

	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// used runs the part of a used workflow that {{alias.node}} needs, with
// the inputs the `use` declaration fills, and returns the node's output.
// The sub-run is a run of its own (own checkpoint, own history), so its
// nodes are reused from the cache when nothing they read has changed.
func (ex *execution) used(ctx context.Context, alias, node string) (string, error) {
	f, inputs, err := ex.useInputs(ctx, alias)
	if err != nil {
		return "", err
	}
	sub := workflowlang.Check(f, ex.r.cfg.Env)
	ex.step(ctx, alias+"."+node, "sub-workflow "+ex.r.cfg.relPath(f.Path))
	res, err := ex.r.Run(ctx, sub, Options{Target: Target{Node: node}, Inputs: inputs,
		Force: false, Observer: ex.opts.Observer})
	if err != nil {
		return "", fmt.Errorf("sub-workflow %s: %w", alias, err)
	}
	nr := res.Nodes[node]
	if res.Status != store.RunDone || (nr.Status != "done" && nr.Status != "cached" && nr.Status != "frozen") {
		if nr.Err != nil {
			return "", fmt.Errorf("sub-workflow %s, node %s: %s: %w", alias, node, nr.Status, nr.Err)
		}
		return "", fmt.Errorf("sub-workflow %s, node %s: %s (see run %s)", alias, node, nr.Status, res.RunID)
	}
	return nr.Output, nil
}

// useInputs returns the workflow alias names and the inputs its `use`
// declaration (and its inputs' defaults) give it in this run.
func (ex *execution) useInputs(ctx context.Context, alias string) (*workflowlang.File, map[string]string, error) {
	f := ex.wf.Uses[alias]
	if f == nil {
		return nil, nil, fmt.Errorf("sub-workflow %s could not be loaded", alias)
	}
	var decl *workflowlang.Use
	for _, u := range ex.wf.File.Uses {
		if u.Alias.Name == alias {
			decl = u
		}
	}
	inputs := map[string]string{}
	for _, in := range f.Inputs {
		if a := inputDefault(in); a != nil {
			v, err := ex.valueOf(ctx, a.Value)
			if err != nil {
				return nil, nil, fmt.Errorf("default of input %s of %s: %w", in.Name.Name, alias, err)
			}
			inputs[in.Name.Name] = v
		}
	}
	if decl != nil {
		for _, a := range decl.Args {
			v, err := ex.valueOf(ctx, a.Value)
			if err != nil {
				return nil, nil, fmt.Errorf("argument %s of %s: %w", a.Key.Name, alias, err)
			}
			inputs[a.Key.Name] = v
		}
	}
	for _, in := range f.Inputs {
		if _, ok := inputs[in.Name.Name]; !ok {
			return nil, nil, fmt.Errorf("sub-workflow %s needs its input %q: fill it in `use … as %s { %s = … }`", alias, in.Name.Name, alias, in.Name.Name)
		}
	}
	return f, inputs, nil
}

// valueOf renders an attribute value of a `use` argument or an input
// default: text blocks with their references resolved in this run.
func (ex *execution) valueOf(ctx context.Context, v workflowlang.Value) (string, error) {
	switch x := v.(type) {
	case *workflowlang.TextValue:
		return RenderBlocks(x.Blocks, ex.resolver(ctx))
	case nil:
		return "", nil
	default:
		return valueText(v), nil
	}
}

func (c Config) relPath(p string) string { return WorkflowID(c.Root, p) }

func inputDefault(in *workflowlang.Input) *workflowlang.Attr {
	for _, a := range in.Attrs {
		if a.Key.Name == "default" {
			return a
		}
	}
	return nil
}

// usedNow is what {{alias.node}} reads now, for an estimate: the node's
// current output in the used workflow's history, else a stand-in of
// AssumedOutput tokens. It runs nothing.
func (ex *execution) usedNow(alias, node string) (string, error) {
	f := ex.wf.Uses[alias]
	if f == nil {
		return "", fmt.Errorf("sub-workflow %s could not be loaded", alias)
	}
	h := ex.r.cfg.History
	wid := WorkflowID(ex.r.cfg.Root, f.Path)
	if st, err := h.Node(wid, node); err == nil && st.Current > 0 {
		if o, err := h.OutputVersion(wid, node, st.Current); err == nil {
			return o.Text, nil
		}
	}
	return standIn(AssumedOutput), nil
}
