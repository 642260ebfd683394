package workflowlang

// TEMPORARY: replaced by format.go.

// Format returns f in canonical form, comments kept. It refuses a file
// with syntax errors, since their text cannot be placed reliably.
func Format(f *File) ([]byte, error) { return f.Src, nil }
