package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
)

// tree maps every file under root to a hash of its content.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		rel, _ := filepath.Rel(root, p)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDemoLeavesTheProjectAlone runs the README's main job on an author's
// project, with no key set (the run uses the scripted stand-in): it does
// the whole job, and not one file of the project is added, changed or
// removed.
func TestDemoLeavesTheProjectAlone(t *testing.T) {
	proj := projecttest.Copy(t, "pride-and-prejudice")
	before := tree(t, proj)
	cmd := exec.Command("bash", "../scripts/demo.sh", proj)
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.Contains(name, "KEY") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"flowcabal index", "=== context", "✓ draft"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the demo's output lacks %q:\n%s", want, out)
		}
	}
	after := tree(t, proj)
	for p, h := range after {
		if before[p] == "" {
			t.Errorf("the demo added %s to the author's project", p)
		} else if before[p] != h {
			t.Errorf("the demo changed %s in the author's project", p)
		}
	}
	for p := range before {
		if after[p] == "" {
			t.Errorf("the demo removed %s from the author's project", p)
		}
	}
}
