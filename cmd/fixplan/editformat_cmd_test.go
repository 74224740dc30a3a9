package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

const editPlan = `{"mode":"fix-plan","summary":"guard against b == 0","questions":[],"context_requests":[],
"plan":[{"step":"change","details":"return None for b == 0"}],
"proposed_changes":{"patch":null,"actions":[{"kind":"EDIT_FILE","path":"calc.py","content":null,"edits":[{"search":"    return a / b","replace":"    if b == 0:\n        return None\n    return a / b"}]}],"commands_to_run":[]},
"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`

// TestPlanEditFormatFlag: --edit-format reaches the prompt, a search/replace plan
// previews and applies through the CLI, and an unknown format says which exist.
func TestPlanEditFormatFlag(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: editPlan})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--edit-format", "search-replace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	msgs := srv.Requests()[0].JSON["messages"].([]any)
	if sys := fmt.Sprint(msgs[0].(map[string]any)["content"]); !strings.Contains(sys, "EDIT FORMAT: change an existing file with EDIT_FILE") {
		t.Errorf("the prompt does not ask for search/replace:\n%s", sys)
	}
	if !strings.Contains(out, "update calc.py") || !strings.Contains(out, "+    if b == 0:") {
		t.Errorf("output lacks the edit's diff:\n%s", out)
	}
	if code, _, errOut := runEnv(t, nil, "", "--root", root, "apply", "--yes"); code != 0 {
		t.Fatalf("apply exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != "def divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n" {
		t.Fatalf("calc.py = %q", b)
	}
	code, _, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--edit-format", "xml")
	if code != 1 || !strings.Contains(errOut, "ERR_CONFIG") || !strings.Contains(errOut, "auto, whole, search_replace, diff") {
		t.Errorf("unknown format: exit %d %s", code, errOut)
	}
}
