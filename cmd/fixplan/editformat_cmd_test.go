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

// TestPatchCommandBeginPatch: `fixplan patch` takes the *** Begin Patch envelope
// Codex-trained models write, and refuses a chunk that is not in the file with
// the closest lines.
func TestPatchCommandBeginPatch(t *testing.T) {
	root := cliProject(t)
	env := "*** Begin Patch\n*** Update File: calc.py\n@@ def divide(a, b):\n-    return a / b\n+    if b == 0:\n+        return None\n+    return a / b\n*** Add File: README.md\n+# calc\n*** End Patch\n"
	code, out, errOut := runEnv(t, nil, env, "--root", root, "patch", "--json")
	if code != 0 || !strings.Contains(out, `"transaction"`) {
		t.Fatalf("patch: exit %d %s %s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != "def divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n" {
		t.Fatalf("calc.py = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "README.md")); string(b) != "# calc\n" {
		t.Fatalf("README.md = %q", b)
	}
	bad := "*** Begin Patch\n*** Update File: calc.py\n@@\n-    return a // b\n+    return 0\n*** End Patch\n"
	code, _, errOut = runEnv(t, nil, bad, "--root", root, "patch")
	if code != 1 || !strings.Contains(errOut, "ERR_PATCH_APPLY_FAILED") || !strings.Contains(errOut, "closest lines in the file") {
		t.Errorf("bad envelope: exit %d\n%s", code, errOut)
	}
}
