package workflowlang

// This file states the package's contract: the diagnostic model, the
// resolution environment and the results of Check. The implementations
// live in lexer.go, parser.go, resolve.go, dag.go, format.go and model.go.

// Severity of a diagnostic, numbered as in LSP.
type Severity int

// The severities.
const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
	SeverityInfo    Severity = 3
	SeverityHint    Severity = 4
)

// String returns "error", "warning", "info" or "hint".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	default:
		return "hint"
	}
}

// Code identifies a static rule. Codes are stable: tools, golden files and
// quick-fixes key on them.
type Code string

// The diagnostic codes. Each has a broken example under
// testdata/diagnostics with its golden output.
const (
	CodeSyntax           Code = "syntax"             // any syntax error
	CodeInvalidUTF8      Code = "invalid-utf8"       // bytes that are not UTF-8
	CodeUnknownRef       Code = "unknown-ref"        // {{x}} names no node or input
	CodeUnknownAlias     Code = "unknown-alias"      // {{a.x}} with no `use … as a`
	CodeUnknownUseNode   Code = "unknown-use-node"   // {{a.x}}: the used file has no node x
	CodeSelfRef          Code = "self-ref"           // a node references itself
	CodeCycle            Code = "cycle"              // a cycle of references, whole path given
	CodeDuplicateNode    Code = "duplicate-node"     // two nodes (or a node and an input) share a name
	CodeDuplicateAttr    Code = "duplicate-attr"     // an attribute set twice in one block
	CodeDuplicateAlias   Code = "duplicate-alias"    // two `use`s with the same alias
	CodeDuplicateHeader  Code = "duplicate-workflow" // more than one workflow header
	CodeUnknownAttr      Code = "unknown-attr"       // an attribute the language does not know
	CodeAttrType         Code = "attr-type"          // an attribute value of the wrong type or range
	CodeMissingKnowledge Code = "missing-knowledge"  // {{@path}} names no project resource
	CodeBadPath          Code = "bad-path"           // {{@../x}}, absolute paths: outside the project
	CodeMissingUse       Code = "missing-use"        // `use` of a file that does not exist
	CodeUseCycle         Code = "use-cycle"          // files that `use` each other
	CodeUnknownInput     Code = "unknown-input"      // a `use` argument the used file does not declare
	CodeMissingInput     Code = "missing-input"      // a used file's input without default left unfilled
	CodeUnusedNode       Code = "unused-node"        // a node no other node references (hint)
	CodeOverBudget       Code = "over-budget"        // explicit references alone exceed the budget
	CodeEmptyNode        Code = "empty-node"         // a node with no prompt
	CodeTooLarge         Code = "too-large"          // a file or DAG beyond the language's limits
)

// A Diagnostic is a problem found in a .flow file.
type Diagnostic struct {
	Span     Span
	Severity Severity
	Code     Code
	Message  string

	// Suggestions are replacement names for unknown references, best
	// first ("did you mean"), for quick-fixes.
	Suggestions []string
	// Related points at other places that explain the diagnostic (the
	// first declaration of a duplicate, the other nodes of a cycle).
	Related []Related
	// Path is set when the diagnostic belongs to another file than the
	// one checked (a problem inside a used file is reported there).
	Path string
}

// Related is a secondary location of a diagnostic.
type Related struct {
	Path    string // empty: the same file
	Span    Span
	Message string
}

// Env is what Check needs to know about the world outside the file. Every
// field is optional: a nil function disables the rules that need it.
type Env struct {
	// Load parses the file a `use` names, relative to the using file's
	// path. It returns an error wrapping fs.ErrNotExist when there is no
	// such file.
	Load func(fromPath, usePath string) (*File, error)

	// Resource reports whether a project resource exists at path (as
	// written after '@', e.g. "meta/style-guide").
	Resource func(path string) bool

	// Resources lists the project's resource paths, for "did you mean".
	Resources func() []string

	// Tokens estimates the tokens of a resource at a level ("L0", "L1",
	// "L2"), for the over-budget rule; ok is false when unknown.
	Tokens func(path, level string) (n int, ok bool)

	// DefaultBudget is the project's budget, used when neither node nor
	// workflow sets one. Zero means no project default.
	DefaultBudget int

	// Models are the model names flowcabal.toml defines, accepted by the
	// model attribute besides writer and agent. Nil leaves model names
	// unchecked.
	Models []string

	// Root is the project root directory. When the checked file's path is
	// absolute, a use path that climbs above Root is a bad-path; without
	// Root, file paths are taken as relative to the project root.
	Root string
}

// An Edge is a dependency: From's output feeds To (To references From).
type Edge struct {
	From, To string
	Ref      *Ref // the reference in To that creates the edge
}

// Result is the outcome of Check: the file's diagnostics (syntax and
// static rules together, sorted) and its resolved DAG.
type Result struct {
	File        *File
	Diagnostics []Diagnostic

	// Uses maps each alias to its parsed file (nil when it failed to load).
	Uses map[string]*File

	// Edges are the in-file dependencies between nodes (and inputs), in
	// source order of the references; references to used files are not
	// edges of this DAG.
	Edges []Edge

	// Order is a Kahn topological order of the node names, ties broken by
	// source order. Nodes on a cycle are left out.
	Order []string

	// Levels groups Order into the DAG's parallel levels: every node of a
	// level depends only on nodes of earlier levels.
	Levels [][]string
}
