//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
	"fixplan/projfs/projfstest"
)

// TestPlanWithNamedPipes: named pipes where fixplan expects files (the rules
// file, a virtualenv's pyvenv.cfg, the project memory, a log the memory names,
// a file the model asks for) do not hang `fixplan plan`: the plan is made, and
// the model is told why each pipe was not read.
func TestPlanWithNamedPipes(t *testing.T) {
	const askPipes = `{"mode":"fix-plan","summary":"need more","questions":[],"context_requests":[` +
		`{"type":"read_file","path":"pipe.py","start_line":null,"end_line":null,"query":null,"glob":null,"source":null,"last_n":null},` +
		`{"type":"logs","path":null,"start_line":null,"end_line":null,"query":null,"glob":null,"source":"app","last_n":null}],` +
		`"plan":[],"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	for name, memoryPipe := range map[string]bool{"memory is a pipe": true, "memory names a pipe": false} {
		t.Run(name, func(t *testing.T) {
			root := cliProject(t)
			for _, p := range []string{"AGENTS.md", ".venv/pyvenv.cfg", "pipe.py", "logs/app.log"} {
				projfstest.Mkfifo(t, filepath.Join(root, filepath.FromSlash(p)))
			}
			if memoryPipe {
				projfstest.Mkfifo(t, filepath.Join(root, ".fixplan", "project.json"))
			} else {
				os.MkdirAll(filepath.Join(root, ".fixplan"), 0o755)
				os.WriteFile(filepath.Join(root, ".fixplan", "project.json"), []byte(`{"project": {"log_paths": {"app": "logs/app.log"}}}`), 0o644)
			}
			srv := llmtest.NewServer(t, llmtest.Reply{Content: askPipes}, llmtest.Reply{Content: goodPlan})
			var code int
			var out, errOut string
			projfstest.NoHang(t, "fixplan plan", func() {
				code, out, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json")
			})
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, `\"pipe.py\" is a named pipe (FIFO), not a regular file; fixplan reads only regular files`) {
				t.Errorf("the model was not told why pipe.py was not read:\n%s", out)
			}
			if !memoryPipe && !strings.Contains(out, `the configured log \"logs/app.log\" is a named pipe (FIFO)`) {
				t.Errorf("the model was not told why the log was not read:\n%s", out)
			}
		})
	}
}
