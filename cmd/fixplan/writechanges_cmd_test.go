package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

const approachOnly = `{"mode":"fix-plan","summary":"divide must not raise for b == 0","questions":[],"context_requests":[],
"plan":[{"step":"diagnose","details":"divide() divides by zero"},{"step":"change","details":"return None in divide when b == 0"}],
"proposed_changes":null,"patch":null,"commands_to_run":["pytest -q"],"verification":["1 passed"],"risks":[],"rollback":[],"memory_patch":[]}`

const applyModeReply = `{"mode":"apply","summary":"return None for b == 0","questions":[],"context_requests":[],
"plan":[{"step":"change","details":"guard b == 0"}],"proposed_changes":null,
"patch":"--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,4 @@\n def divide(a, b):\n+    if b == 0:\n+        return None\n     return a / b\n",
"commands_to_run":["pytest -q"],"verification":["1 passed"],"risks":[],"rollback":["git checkout calc.py"],"memory_patch":[]}`

func TestPlanOnlyThenWriteChangesCLI(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: approachOnly}, llmtest.Reply{Content: applyModeReply})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--plan-only", "--problem", traceback, "--json")
	if code != 0 {
		t.Fatalf("plan --plan-only: exit %d: %s", code, errOut)
	}
	var approved map[string]any
	if err := json.Unmarshal([]byte(out), &approved); err != nil {
		t.Fatal(err)
	}
	id, _ := approved["id"].(string)
	if approved["plan_only"] != true || len(approved["changes"].([]any)) != 0 {
		t.Fatalf("plan-only output = %s", out)
	}
	if first := srv.Requests()[0].LastUser(); !strings.Contains(first, "PLAN ONLY") {
		t.Errorf("the first request does not ask for the approach only:\n%s", first)
	}

	code, out, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--write-changes", id)
	if code != 0 {
		t.Fatalf("plan --write-changes: exit %d: %s", code, errOut)
	}
	second := srv.Requests()[1]
	user := second.LastUser()
	for _, want := range []string{`mode "apply"`, "APPROVED PLAN", "1. diagnose: divide() divides by zero", "2. change: return None in divide when b == 0", "return a / b"} {
		if !strings.Contains(user, want) {
			t.Errorf("the apply-mode request lacks %q:\n%s", want, user)
		}
	}
	for _, want := range []string{"(apply)", "Changes written for the approved plan " + id, "update calc.py", "+    if b == 0:", "fixplan apply --plan"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); strings.Contains(string(b), "None") {
		t.Error("writing the changes changed the project before apply")
	}
	if code, _, errOut := runEnv(t, nil, "", "--root", root, "apply", "--yes"); code != 0 {
		t.Fatalf("apply: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); !strings.Contains(string(b), "return None") {
		t.Error("the written changes were not applied")
	}
}

func TestPlanOnlyHumanOutputOffersWriteChanges(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: approachOnly})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--plan-only", "--problem", traceback)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "No file changes.") || !strings.Contains(out, "fixplan plan --write-changes ") {
		t.Errorf("output does not offer --write-changes:\n%s", out)
	}
}

func TestWriteChangesFlagErrors(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t)
	code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--write-changes", "20260101-000000.000000-abcdef", "--problem", "x")
	if code != 2 || !strings.Contains(errOut, "leave out --problem") {
		t.Errorf("--write-changes with --problem: exit %d %s", code, errOut)
	}
	code, _, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--write-changes", "20260101-000000.000000-abcdef")
	if code != 1 || !strings.Contains(errOut, "fixplan plan: ") {
		t.Errorf("--write-changes of an unknown plan: exit %d %s", code, errOut)
	}
}

func TestSyntaxErrorShownInPlanOutput(t *testing.T) {
	root := cliProject(t)
	broken := `{"mode":"fix-plan","summary":"add a config","questions":[],"context_requests":[],"plan":[{"step":"change","details":"add config.json"}],
"proposed_changes":{"patch":null,"actions":[{"kind":"CREATE_FILE","path":"config.json","content":"{\n  \"retries\": 3,\n}\n"}],"commands_to_run":[]},
"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	srv := llmtest.NewServer(t, llmtest.Reply{Content: broken}, llmtest.Reply{Content: broken})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "create config.json\nSYNTAX ERROR introduced: line 3, column 1: invalid character '}'") {
		t.Errorf("the remaining syntax error is not flagged:\n%s", out)
	}
	if second := srv.Requests()[1].LastUser(); !strings.Contains(second, "config.json: the change introduces JSON syntax error(s)") {
		t.Errorf("the correction request does not quote the error:\n%s", second)
	}
}

func TestWriteChangesVerified(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: approachOnly}, llmtest.Reply{Content: applyModeReply})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--plan-only", "--problem", traceback, "--json")
	if code != 0 {
		t.Fatalf("plan --plan-only: exit %d: %s", code, errOut)
	}
	var approved map[string]any
	json.Unmarshal([]byte(out), &approved)
	check := `python3 -c "import calc; assert calc.divide(1, 0) is None"`
	code, out, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--write-changes", approved["id"].(string), "--verify", "--check", check, "--json")
	if code != 0 {
		t.Fatalf("plan --write-changes --verify: exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	v, _ := got["verification"].(map[string]any)
	if got["approved_plan"] != approved["id"] || v == nil || v["state"] != "verified" {
		t.Fatalf("written and verified plan = approved %v, verification %v", got["approved_plan"], v)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); strings.Contains(string(b), "None") {
		t.Error("verification changed the project")
	}
}

func TestApplyOfAPlanOnlyPlanPointsToWriteChanges(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: approachOnly})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--plan-only", "--problem", traceback, "--json")
	if code != 0 {
		t.Fatalf("plan --plan-only: exit %d: %s", code, errOut)
	}
	var approved map[string]any
	json.Unmarshal([]byte(out), &approved)
	code, _, errOut = runEnv(t, nil, "", "--root", root, "apply", "--yes")
	if code != 1 || !strings.Contains(errOut, "ERR_NO_PLAN") || !strings.Contains(errOut, "fixplan plan --write-changes "+approved["id"].(string)) {
		t.Errorf("apply of a plan-only plan: exit %d %s", code, errOut)
	}
}
