package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// template is a new project: settings with every line commented, short
// meta templates and a starter workflow that checks clean.
//
//go:embed template
var template embed.FS

// projectDirs are the folders a project holds even when empty.
var projectDirs = []string{"entities/characters", "entities/locations", "entities/plot-threads", "manuscript", "workflows"}

// runInit makes a project in DIR, or adds to one what it lacks. It never
// overwrites a file.
func runInit(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal init [DIR]\n\nMakes a FlowCabal project in DIR (default: the current folder): flowcabal.toml\nwith every setting commented, meta/ templates (outline, style guide, world\nrules), entities/, manuscript/ and a starter workflow. In an existing project it\nadds only what is missing and says what it added; it never overwrites a file.\n")
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return exitUsage
	}
	dir := fs.Arg(0)
	if dir == "" {
		dir = "."
	}
	added, err := initProject(dir)
	for _, a := range added {
		fmt.Fprintf(env.stdout, "added %s\n", a)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal init: %v\n", err)
		return exitFailure
	}
	if len(added) == 0 {
		fmt.Fprintf(env.stdout, "%s already has everything init makes; nothing changed\n", dir)
		return exitOK
	}
	fmt.Fprintf(env.stdout, "\nNext: flowcabal import BOOK.txt --project %s, then flowcabal entities suggest --project %s --write\n", dir, dir)
	return exitOK
}

// initProject writes what dir lacks of the template and returns the paths
// it added, relative to dir, with slashes.
func initProject(dir string) ([]string, error) {
	var added []string
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	err := fs.WalkDir(template, "template", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := p[len("template/"):]
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Lstat(dst); err == nil {
			return nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		data, err := template.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		// O_EXCL: a file that appears meanwhile is not overwritten either.
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		added = append(added, rel)
		return nil
	})
	if err != nil {
		return added, err
	}
	for _, d := range projectDirs {
		dst := filepath.Join(dir, filepath.FromSlash(d))
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return added, err
		}
		added = append(added, path.Clean(d)+"/")
	}
	return added, nil
}
