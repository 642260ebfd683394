// Package projecttest gives tests a writable copy of a sample project from
// testdata/projects, optionally with its models pointed at a scripted
// server, so that every test works on real files in its own directory.
package projecttest

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the absolute path of testdata/projects/name in this
// repository.
func Dir(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "projects", name)
}

// Copy copies the sample project called name into a new temporary
// directory (leaving out any .flowcabal folder) and returns its path.
func Copy(t testing.TB, name string) string {
	t.Helper()
	return CopyDir(t, Dir(name))
}

// CopyDir copies the project folder src into a new temporary directory
// (leaving out any .flowcabal folder) and returns its path.
func CopyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == ".flowcabal" {
				return fs.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// UseModels rewrites root's flowcabal.toml so that the writer and agent
// models are served at baseURL, with the key in the variable keyEnv.
func UseModels(t testing.TB, root, baseURL, keyEnv string) {
	t.Helper()
	toml := "[models.writer]\nbase_url = \"" + baseURL + "\"\nmodel = \"w\"\napi_key_env = \"" + keyEnv + "\"\n" +
		"[models.agent]\nbase_url = \"" + baseURL + "\"\nmodel = \"a\"\napi_key_env = \"" + keyEnv + "\"\n"
	if err := os.WriteFile(filepath.Join(root, "flowcabal.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
}

// UseEmbedding adds to root's flowcabal.toml an embedding model "e"
// served at baseURL, with the key in the variable keyEnv.
func UseEmbedding(t testing.TB, root, baseURL, keyEnv string) {
	t.Helper()
	p := filepath.Join(root, "flowcabal.toml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "\n[models.embedding]\nbase_url = \""+baseURL+"\"\nmodel = \"e\"\napi_key_env = \""+keyEnv+"\"\n"...)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Shared returns the team's shared folder (corpus, evaluation sets), which
// lies beside the repository (../shared from its root; CI lays a copy
// there). It fails the test when there is none.
func Shared(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	for d := filepath.Dir(file); ; d = filepath.Dir(d) {
		p := filepath.Join(d, "shared")
		if fi, err := os.Stat(filepath.Join(p, "corpus")); err == nil && fi.IsDir() {
			return p
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no shared/corpus above %s", file)
		}
	}
}

// Write makes a project in a new temporary directory from files (path
// with slashes → content) and returns its path.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		WriteFile(t, dir, name, content)
	}
	return dir
}

// WriteFile writes content to root/rel (rel with slashes), making the
// folders it needs.
func WriteFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
