package e2e

import (
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary returns the flowcabal binary under test: $FLOWCABAL_BIN when set,
// else one built from this checkout (once per test run).
func binary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("FLOWCABAL_BIN"); p != "" {
		return p
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "flowcabal-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "flowcabal")
		out, err := exec.Command("go", "build", "-o", binPath, "../cmd/flowcabal").CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("build flowcabal: %v", buildErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// writeProject writes files (slash paths) into a new temporary project.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	return projecttest.Write(t, files)
}

// sampleFlow has a broken reference, Chinese names and astral characters.
const sampleFlow = `workflow "第十二章 · 断桥 😀" {
  budget = 24000
}

node premise "Where the story stands" {
  user """
    Summarise 😀 the story so far: {{@meta/style-guide}}
  """
}

node 大纲 {
  user """
    𠀀 From this: {{premise}}
  """
}

node draft {
  user """
    Write from {{大纲}} and {{premis}}.
  """
}
`

func sampleProject(t *testing.T) string {
	return writeProject(t, map[string]string{
		"flowcabal.toml":      "budget = 24000\n",
		"meta/style-guide.md": "# Style\n\nShort sentences.\n",
		"workflows/ch12.flow": sampleFlow,
	})
}
