package runner

import (
	"os"
	"path/filepath"
	"regexp"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// OutputHeader matches the first line of a node's output document (see
// OutputPath) and captures its workflow id and node.
var OutputHeader = regexp.MustCompile(`^<!-- flowcabal: workflow=(\S+) node=(\S+) `)

// OutputChapter returns the chapter a node's output document is written
// for: the chapter its node's persist target names. ok is false when text
// is no output document, or its node persists to no chapter.
func OutputChapter(root, text string) (int, bool) {
	m := OutputHeader.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m[1])))
	if err != nil {
		return 0, false
	}
	n := workflowlang.Parse(m[1], src).Node(m[2])
	if n == nil {
		return 0, false
	}
	if a := n.Attr("persist"); a != nil {
		if v, ok := a.Value.(*workflowlang.StringValue); ok {
			return knowledge.ChapterNumber(v.Value)
		}
	}
	return 0, false
}
