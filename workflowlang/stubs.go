package workflowlang

// TEMPORARY: signatures only, replaced by the real implementation
// (resolve.go, dag.go, format.go, model.go).

// Check resolves f's references against env and applies every static rule.
func Check(f *File, env Env) *Result { return &Result{File: f, Diagnostics: f.Diagnostics} }

// Format returns f in canonical form, comments kept. It refuses a file
// with syntax errors, since their text cannot be placed reliably.
func Format(f *File) ([]byte, error) { return f.Src, nil }
