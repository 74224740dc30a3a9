//go:build unix

package codectx

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
	"fixplan/projfs/projfstest"
)

// fifoWhy is the refusal of a named pipe where a file is expected.
const fifoWhy = "is a named pipe (FIFO), not a regular file; fixplan reads only regular files"

// TestNamedPipesDoNotHangTheGatherer: named pipes at the rules file, a
// virtualenv's pyvenv.cfg, a log the project memory names, an attached log
// and a file the model asks for: the base context is gathered and every
// request answered at once, the pipes refused with the reason.
func TestNamedPipesDoNotHangTheGatherer(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"main.py":               "print('needle')\n",
		".fixplan/project.json": `{"project": {"log_paths": {"app": "logs/app.log"}}}`,
	})
	attached := filepath.Join(t.TempDir(), "attached.log")
	for _, p := range []string{"AGENTS.md", ".venv/pyvenv.cfg", "logs/app.log", "pipe.py"} {
		projfstest.Mkfifo(t, filepath.Join(root, filepath.FromSlash(p)))
	}
	projfstest.Mkfifo(t, attached)
	g := newGatherer(t, root, Options{})
	in := plan.ProblemInput{Problem: "crash in main.py", Logs: []plan.LogSource{{Source: "attached", Path: attached}}}
	projfstest.NoHang(t, "Base", func() {
		if _, err := g.Base(context.Background(), in); err != nil {
			t.Errorf("Base: %v", err)
		}
	})
	for _, tc := range []struct {
		req  plan.ContextRequest
		want string
	}{
		{plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("pipe.py")}, `"pipe.py" ` + fifoWhy},
		{plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("AGENTS.md")}, `"AGENTS.md" ` + fifoWhy},
		{plan.ContextRequest{Type: plan.ReqLogs, Source: ptr("app")}, `the configured log "logs/app.log" ` + fifoWhy},
		{plan.ContextRequest{Type: plan.ReqLogs, Source: ptr("attached")}, "the attached log attached.log " + fifoWhy},
		{plan.ContextRequest{Type: plan.ReqSearch, Query: ptr("needle")}, "main.py:1:"},
	} {
		var res plan.ContextResult
		projfstest.NoHang(t, tc.req.Type, func() { res = g.Fulfil(context.Background(), in, tc.req) })
		if got := res.Text + res.Error; !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.req.Type, got, tc.want)
		}
	}
}

// TestNamedPipeProjectMemory: a named pipe at .fixplan/project.json is not
// waited on; the project simply has no memory.
func TestNamedPipeProjectMemory(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"main.py": "x = 1\n"})
	projfstest.Mkfifo(t, filepath.Join(root, ".fixplan", "project.json"))
	g := newGatherer(t, root, Options{})
	projfstest.NoHang(t, "Base", func() {
		if _, err := g.Base(context.Background(), plan.ProblemInput{Problem: "crash"}); err != nil {
			t.Errorf("Base: %v", err)
		}
	})
	projfstest.NoHang(t, "projectMemory", func() {
		if prefs, logs := g.projectMemory(); len(prefs)+len(logs) != 0 {
			t.Errorf("memory from a named pipe: %v %v", prefs, logs)
		}
	})
}
