// Package knowledge models the author's knowledge files: Markdown
// documents with optional YAML front matter under meta/, entities/,
// profiles/, manuscript/ and summaries/, the entities they declare (names,
// aliases, facts, progressions "as of chapter N", relations), the world
// rules, and the chapters of the manuscript. It reads files only; it keeps
// no database and no state beyond what LoadProject returns.
package knowledge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/project"
	"go.yaml.in/yaml/v3"
)

// Document is one Markdown file of the project.
type Document struct {
	// Path is the file path relative to the project root, with slashes.
	Path string
	// Resource is the project resource path of the file
	// (project.ResourcePath of Path): "entities/characters/lydia-bennet".
	Resource string
	// Front is the decoded front matter; nil when the file has none or it
	// could not be decoded.
	Front map[string]any
	// Body is the text after the front matter.
	Body string
	// BodyOffset is the byte offset of Body in the file's data, so that
	// positions in Body map back to the file.
	BodyOffset int
	// Hash is the hex SHA-256 of the file's data.
	Hash string

	// node is the front matter's mapping node, kept so that entity fields
	// are read with their source text and line numbers.
	node *yaml.Node
	// frontLine is the 1-based file line of the first line of YAML.
	frontLine int
}

// FrontMatterError reports front matter that cannot be used, at a 1-based
// line and column of the file (Col is 0 when unknown).
type FrontMatterError struct {
	Path string
	Line int
	Col  int
	Msg  string
}

func (e *FrontMatterError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: front matter: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: front matter: %s", e.Path, e.Line, e.Msg)
}

// ErrInvalidUTF8 is wrapped by ParseDocument for a file that is not UTF-8.
var ErrInvalidUTF8 = errors.New("file is not valid UTF-8")

// MaxFileSize bounds the files ParseDocument and LoadProject accept; a
// knowledge file larger than this is almost certainly not prose.
const MaxFileSize = 64 << 20

var bom = []byte("\ufeff")

// ParseDocument parses a Markdown file with optional front matter: a first
// line "---", YAML, and a closing line "---" (or "..."). relPath is the
// file's path relative to the project root.
//
// Broken front matter still yields a Document, with Front nil and Body
// either everything after the closing fence or, when there is none, the
// whole text; the error is then a *FrontMatterError. A file that is not
// UTF-8 or exceeds MaxFileSize yields a nil Document and an error.
func ParseDocument(relPath string, data []byte) (*Document, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: file is %d bytes, more than the %d a knowledge file may have", relPath, len(data), MaxFileSize)
	}
	if !utf8.Valid(data) {
		off := firstInvalid(data)
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		return nil, fmt.Errorf("%s:%d: byte %d: %w", relPath, line, off, ErrInvalidUTF8)
	}
	sum := sha256.Sum256(data)
	d := &Document{
		Path:     relPath,
		Resource: project.ResourcePath(relPath),
		Hash:     hex.EncodeToString(sum[:]),
	}
	start := 0
	if bytes.HasPrefix(data, bom) {
		start = len(bom)
	}
	first, next := lineAt(data, start)
	if string(first) != "---" {
		d.Body = string(data[start:])
		d.BodyOffset = start
		return d, nil
	}
	// Find the closing fence.
	yamlStart := next
	closeAt, bodyAt := -1, -1
	for p := next; p < len(data); {
		l, n := lineAt(data, p)
		if s := string(l); s == "---" || s == "..." {
			closeAt, bodyAt = p, n
			break
		}
		p = n
	}
	if closeAt < 0 {
		d.Body = string(data[start:])
		d.BodyOffset = start
		return d, &FrontMatterError{Path: relPath, Line: 1, Col: 1, Msg: "opening --- has no closing --- line"}
	}
	d.Body = string(data[bodyAt:])
	d.BodyOffset = bodyAt
	d.frontLine = 2
	src := data[yamlStart:closeAt]
	if len(bytes.TrimSpace(src)) == 0 {
		d.Front = map[string]any{}
		return d, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		line, msg := yamlErrorLine(err)
		return d, &FrontMatterError{Path: relPath, Line: d.frontLine + line - 1, Msg: msg}
	}
	node := &root
	if node.Kind == yaml.DocumentNode && len(node.Content) == 1 {
		node = node.Content[0]
	}
	if node.Kind != yaml.MappingNode {
		return d, &FrontMatterError{Path: relPath, Line: d.frontLine + node.Line - 1, Col: node.Column, Msg: "front matter must be a mapping of keys to values"}
	}
	budget := maxNodes
	front, err := mappingValue(node, 0, &budget)
	if err != nil {
		return d, &FrontMatterError{Path: relPath, Line: d.frontLine + err.line - 1, Col: err.col, Msg: err.msg}
	}
	d.Front = front
	d.node = node
	return d, nil
}

// lineAt returns the line starting at p without its terminator (\n or
// \r\n) and the offset of the next line.
func lineAt(data []byte, p int) ([]byte, int) {
	i := bytes.IndexByte(data[p:], '\n')
	if i < 0 {
		return bytes.TrimSuffix(data[p:], []byte("\r")), len(data)
	}
	return bytes.TrimSuffix(data[p:p+i], []byte("\r")), p + i + 1
}

func firstInvalid(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

var yamlLineRE = regexp.MustCompile(`line (\d+): (.*)`)

// yamlErrorLine extracts the 1-based line (relative to the YAML text) and
// the message from a yaml error.
func yamlErrorLine(err error) (int, string) {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		// yaml v3 reports "did not find expected …" at the zero-based
		// line of the enclosing flow collection's start.
		if strings.HasPrefix(m[2], "did not find expected") {
			n++
		}
		return max(n, 1), m[2]
	}
	return 1, msg
}

// nodeError is a problem at a node of the front matter.
type nodeError struct {
	line, col int
	msg       string
}

// maxDepth bounds nesting of front matter values, and maxNodes the
// values decoded in all, so that aliases cannot expand without end (the
// "billion laughs").
const (
	maxDepth = 64
	maxNodes = 200000
)

// mappingValue turns a mapping node into a map, values decoded as yaml
// would decode them into interface{} values (int, float64, bool, nil,
// string, []any, map[string]any), without reflection: LoadProject decodes
// thousands of files.
func mappingValue(n *yaml.Node, depth int, budget *int) (map[string]any, *nodeError) {
	m := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, &nodeError{k.Line, k.Column, "a key must be a plain value"}
		}
		v, err := nodeValue(n.Content[i+1], depth+1, budget)
		if err != nil {
			return nil, err
		}
		m[k.Value] = v
	}
	return m, nil
}

func nodeValue(n *yaml.Node, depth int, budget *int) (any, *nodeError) {
	if depth > maxDepth {
		return nil, &nodeError{n.Line, n.Column, "values nested too deep"}
	}
	if *budget--; *budget < 0 {
		return nil, &nodeError{n.Line, n.Column, "too many values (aliases expanding without end?)"}
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, &nodeError{n.Line, n.Column, "unknown alias"}
		}
		return nodeValue(n.Alias, depth+1, budget)
	case yaml.MappingNode:
		return mappingValue(n, depth, budget)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValue(c, depth+1, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool", "!!int", "!!float", "!!timestamp", "!!binary":
			var v any
			if err := n.Decode(&v); err != nil {
				return nil, &nodeError{n.Line, n.Column, err.Error()}
			}
			return v, nil
		}
		return n.Value, nil
	}
	return nil, nil
}
