package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

func TestVersionFlag(t *testing.T) {
	code, out, errOut := runCLI(t, "", "--version")
	if code != 0 || out != "fixplan dev\n" || errOut != "" {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestPlanRecordsVersion: the version stamped into the binary is saved in the plan.
func TestPlanRecordsVersion(t *testing.T) {
	old := version
	version = "1.2.3-test"
	t.Cleanup(func() { version = old })
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: goodPlan})
	if code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(root, ".fixplan", "plans", "*.json"))
	if len(files) != 1 {
		t.Fatalf("plans saved: %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"fixplan_version":"1.2.3-test"`) {
		t.Fatalf("the plan does not record the version:\n%.600s", b)
	}
}
