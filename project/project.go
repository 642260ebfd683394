// Package project describes a FlowCabal project on disk: where its root
// is, how its files are laid out, what its flowcabal.toml says, and which
// paths are inside it. It holds no state beyond a loaded configuration.
package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ConfigFile is the name of the project configuration at the root.
const ConfigFile = "flowcabal.toml"

// DataDir is the folder, relative to the root, that holds what FlowCabal
// derives: the database and the node outputs.
const DataDir = ".flowcabal"

// DBFile is the bbolt database, relative to the root.
const DBFile = DataDir + "/project.db"

// OutputsDir holds the latest output of each node, relative to the root.
const OutputsDir = DataDir + "/outputs"

// KnowledgeDirs are the top-level folders whose Markdown files are project
// resources, in the order an indexer walks them.
var KnowledgeDirs = []string{"meta", "entities", "profiles", "manuscript", "summaries"}

// WorkflowsDir is where .flow files conventionally live.
const WorkflowsDir = "workflows"

// FindRoot returns the project root for dir: the nearest ancestor (dir
// included) holding flowcabal.toml, or else the nearest holding one of the
// knowledge folders, or else dir itself.
func FindRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find project root of %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ConfigFile)) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for d := abs; ; d = filepath.Dir(d) {
		for _, k := range KnowledgeDirs {
			if isDir(filepath.Join(d, k)) {
				return d, nil
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return abs, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// ErrOutside is returned for a path that leaves the project.
var ErrOutside = errors.New("path leaves the project")

// CleanRel checks that rel, a slash-separated path written by an author
// (a knowledge reference, a persist target, a use), stays inside the
// project, and returns it cleaned. Absolute paths, drive letters, ".."
// that climbs out and NUL bytes are refused.
func CleanRel(rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("empty path: %w", ErrOutside)
	}
	if strings.ContainsRune(rel, 0) || strings.Contains(rel, "\\") {
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	if strings.HasPrefix(rel, "/") || filepath.VolumeName(rel) != "" || (len(rel) > 1 && rel[1] == ':') {
		return "", fmt.Errorf("%q is absolute: %w", rel, ErrOutside)
	}
	c := filepath.ToSlash(filepath.Clean(rel))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	return c, nil
}

// Resolve joins rel to root after CleanRel, and refuses a result that a
// symbolic link takes outside root. A path that does not exist yet is
// checked up to its deepest existing ancestor.
func Resolve(root, rel string) (string, error) {
	c, err := CleanRel(rel)
	if err != nil {
		return "", err
	}
	full := filepath.Join(root, filepath.FromSlash(c))
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("resolve project root: %w", err)
	}
	probe := full
	for {
		real, err := filepath.EvalSymlinks(probe)
		if err == nil {
			if !within(realRoot, real) {
				return "", fmt.Errorf("%q points outside the project: %w", rel, ErrOutside)
			}
			return full, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("resolve %q: %w", rel, err)
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			return full, nil
		}
		probe = parent
	}
}

func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../") && !filepath.IsAbs(r)
}

// ResourcePath turns a file path relative to the root into the resource
// path authors write after '@': "meta/style-guide.md" -> "meta/style-guide",
// "manuscript/chapter-12/content.md" -> "manuscript/chapter-12".
func ResourcePath(rel string) string {
	rel = filepath.ToSlash(rel)
	rel = strings.TrimSuffix(rel, ".md")
	rel = strings.TrimSuffix(rel, "/content")
	return rel
}
