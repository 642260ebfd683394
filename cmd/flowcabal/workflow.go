package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// loadedWorkflow is a .flow file checked in its project, as the commands
// that work on one workflow (run, graph, context) need it.
type loadedWorkflow struct {
	File   string // absolute path
	Root   string // project root
	Config *project.Config
	Env    workflowlang.Env
	Result *workflowlang.Result
}

// loadWorkflow finds path's project, reads its configuration and
// knowledge, and parses and checks the workflow in it.
func loadWorkflow(path string) (*loadedWorkflow, error) {
	file, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	root, err := project.FindRoot(filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return nil, err
	}
	wenv, err := newProjectEnv(root)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read workflow: %w", err)
	}
	return &loadedWorkflow{File: file, Root: root, Config: cfg, Env: wenv,
		Result: workflowlang.Check(workflowlang.Parse(file, src), wenv)}, nil
}
