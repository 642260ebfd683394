package workbench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// settingsEditor answers workspace/configuration with fixed settings, as
// an editor whose author set the models in its settings would.
type settingsEditor struct {
	server.Editor
	settings string
}

func (e settingsEditor) Call(ctx context.Context, method string, params, result any) error {
	if method != "workspace/configuration" {
		return nil
	}
	return json.Unmarshal([]byte("["+e.settings+"]"), result)
}

func TestEditorSettingsOverrideTheProjectModels(t *testing.T) {
	llm := llmtest.New(t, llmtest.Script{Default: &llmtest.Reply{Content: "from the editor's endpoint"}})
	root := t.TempDir()
	// flowcabal.toml points at an endpoint that does not exist.
	toml := "[models.writer]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\napi_key_env = \"K\"\n"
	flow := "node a { user \"\"\"hello\"\"\" }\n"
	if err := os.WriteFile(filepath.Join(root, "flowcabal.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "workflows", "a.flow")
	if err := os.WriteFile(path, []byte(flow), 0o644); err != nil {
		t.Fatal(err)
	}
	wb := New(nil, func(string) string { return "k" })
	defer wb.Close()
	ss, err := wb.session(path)
	if err != nil {
		t.Fatal(err)
	}
	// The session exists before any command (a lens or a hover made it);
	// the first command reads the editor's settings into it.
	ed := settingsEditor{settings: `{"models": {"writer": {"baseUrl": "` + llm.URL + `", "model": "editor-model"}}}`}
	wb.ensureConfigured(ed, ss)
	wf := workflowlang.Check(workflowlang.Parse(path, []byte(flow)), workflowlang.Env{})
	info, err := ss.Run(context.Background(), wf, workflowlang.Env{}, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ss.Wait(info.File)
	reqs := llm.Requests()
	if len(reqs) != 1 || reqs[0].Model != "editor-model" {
		t.Fatalf("the editor's model settings were not used: %d requests %+v", len(reqs), reqs)
	}
	// A key in the settings is refused, never used.
	bad := settingsEditor{settings: `{"models": {"writer": {"apiKey": "sk-in-settings"}}}`}
	wb.configure(bad, ss)
	info, err = ss.Run(context.Background(), wf, workflowlang.Env{}, runner.Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	ss.Wait(info.File)
	if reqs := llm.Requests(); len(reqs) != 2 || reqs[1].Header.Get("Authorization") != "Bearer k" {
		t.Errorf("after settings holding a key: %d requests, last Authorization %q", len(reqs), reqs[len(reqs)-1].Header.Get("Authorization"))
	}
}
