package workflowlang

// TEMPORARY: signatures only, replaced by the real implementation
// (lexer.go, parser.go, resolve.go, dag.go, format.go, model.go).

// Parse parses src as a .flow file. It never fails: syntax errors are in
// File.Diagnostics and the AST holds everything that could be recovered.
func Parse(path string, src []byte) *File { return &File{Path: path, Src: src} }

// Check resolves f's references against env and applies every static rule.
func Check(f *File, env Env) *Result { return &Result{File: f} }

// Format returns f in canonical form, comments kept. It refuses a file
// with syntax errors, since their text cannot be placed reliably.
func Format(f *File) ([]byte, error) { return f.Src, nil }
