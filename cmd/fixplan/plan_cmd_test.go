package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

const goodPlan = `{"mode":"fix-plan","summary":"guard against b == 0","questions":[],"context_requests":[],
"plan":[{"step":"change","details":"return None for b == 0"}],
"proposed_changes":{"patch":null,"actions":[{"kind":"UPDATE_FILE","path":"calc.py","content":"def divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n"}],"commands_to_run":["echo verified"]},
"patch":null,"commands_to_run":["echo verified"],"verification":["echo prints verified"],"risks":["callers expecting an exception"],"rollback":["git checkout calc.py"],
"memory_patch":[{"key":"project.default_test_command","value":"pytest -q"}]}`

const readFirst = `{"mode":"fix-plan","summary":"need the test","questions":[],"context_requests":[{"type":"read_file","path":"test_calc.py","start_line":null,"end_line":null,"query":null,"glob":null,"source":null,"last_n":null}],
"plan":[],"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`

func TestPlanJSON(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: readFirst}, llmtest.Reply{Content: goodPlan})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := "changes,commands_to_run,id,memory_patch,mode,plan,questions,risks,rounds,summary,warnings"
	if strings.Join(keys, ",") != want {
		t.Fatalf("keys = %s\nwant   %s", strings.Join(keys, ","), want)
	}
	ch := got["changes"].([]any)[0].(map[string]any)
	if ch["path"] != "calc.py" || ch["op"] != "update" || !strings.Contains(ch["diff"].(string), "+    if b == 0:") || len(ch["base_sha256"].(string)) != 64 {
		t.Errorf("change = %v", ch)
	}
	rd := got["rounds"].([]any)[0].(map[string]any)
	res := rd["results"].([]any)[0].(map[string]any)
	// test_calc.py was sent whole in the base context, but its 5 lines cost fewer tokens than a
	// reference to them, so they are sent again as they are (the session tests cover references)
	if res["ok"] != true || !strings.Contains(res["text"].(string), "5 |     assert divide(1, 0) is None") || strings.Contains(res["text"].(string), "already sent") || rd["requests"].([]any)[0].(map[string]any)["type"] != "read_file" {
		t.Errorf("round = %v", rd)
	}
	if mp := got["memory_patch"].([]any)[0].(map[string]any); mp["key"] != "project.default_test_command" || mp["value"] != "pytest -q" {
		t.Errorf("memory_patch = %v", mp)
	}
	if _, err := os.Stat(filepath.Join(root, ".fixplan", "plans", got["id"].(string)+".json")); err != nil {
		t.Errorf("plan not saved: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); strings.Contains(string(b), "None") {
		t.Error("plan changed the project")
	}
	if strings.Contains(out+errOut, cliKey) {
		t.Error("the key was printed")
	}
}

func TestPlanHumanOutputAndApplyUndo(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: goodPlan})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Summary: guard against b == 0", "Steps:\n  1. change: return None for b == 0", "Risks:", "echo verified", "Verification:\n  - echo prints verified", "Rollback by hand (fixplan undo does not depend on it):\n  - git checkout calc.py", "(fix-plan)\n", "project.default_test_command = \"pytest -q\"", "update calc.py", "+    if b == 0:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	before, _ := os.ReadFile(filepath.Join(root, "calc.py"))
	if code, _, errOut := runEnv(t, nil, "", "--root", root, "apply"); code != 2 || !strings.Contains(errOut, "--yes") {
		t.Fatalf("apply without a terminal: exit %d %s", code, errOut)
	}
	code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--yes", "--json")
	if code != 0 {
		t.Fatalf("apply exit %d: %s", code, errOut)
	}
	var res map[string]any
	json.Unmarshal([]byte(out), &res)
	if len(res) != 3 {
		t.Errorf("apply --json keys = %v, want transaction, applied, memory", res)
	}
	if res["transaction"] == "" || len(res["applied"].([]any)) != 1 || res["memory"].([]any)[0] != "project.default_test_command" {
		t.Fatalf("apply json = %s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); !strings.Contains(string(b), "return None") {
		t.Fatal("not applied")
	}
	if code, _, errOut := runEnv(t, nil, "", "--root", root, "apply", "--yes"); code != 1 || !strings.Contains(errOut, "no unapplied plan") {
		t.Errorf("second apply: exit %d %s", code, errOut)
	}
	// The plan's command was proposed by the model: --yes does not approve it...
	code, out, errOut = runEnv(t, nil, "", "--root", root, "verify", "--yes")
	if code != 2 || strings.Contains(out, "$ echo verified") || !strings.Contains(errOut, "not run: `echo verified` is not approved: it was proposed by the model") {
		t.Errorf("verify --yes: exit %d\n%s%s", code, out, errOut)
	}
	// ...its approval for the project does.
	if code, _, errOut := runEnv(t, nil, "", "--root", root, "checks", "approve", "echo verified"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut = runEnv(t, nil, "", "--root", root, "verify", "--yes")
	if code != 0 || !strings.Contains(out, "$ echo verified\nverified\n[exit 0") {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runEnv(t, nil, "", "--root", root, "history")
	if code != 0 || !strings.Contains(out, "applied") || !strings.Contains(out, "guard against b == 0") {
		t.Errorf("history: exit %d\n%s", code, out)
	}
	code, _, errOut = runEnv(t, nil, "", "--root", root, "undo", "--json")
	if code != 0 {
		t.Fatalf("undo exit %d: %s", code, errOut)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "calc.py")); !bytes.Equal(after, before) {
		t.Fatalf("undo did not restore the bytes: %q", after)
	}
}

func TestVerificationOutputGoesToTheNextPlan(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: goodPlan}, llmtest.Reply{Content: goodPlan})
	if code, _, e := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--quiet"); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runEnv(t, nil, "", "--root", root, "checks", "approve", "echo verified"); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runEnv(t, nil, "", "--root", root, "verify"); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--quiet"); code != 0 {
		t.Fatal(e)
	}
	if !srv.Requests()[1].Contains("$ echo verified") {
		t.Errorf("the verification output was not sent:\n%s", srv.Requests()[1].LastUser())
	}
}

func TestPlanFailures(t *testing.T) {
	t.Run("no problem is a usage error", func(t *testing.T) {
		if code, _, errOut := runEnv(t, nil, "", "--root", cliProject(t), "plan"); code != 2 || !strings.Contains(errOut, "--problem") {
			t.Errorf("exit %d %s", code, errOut)
		}
	})
	t.Run("provider down", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		vars := providerEnv(srv)
		srv.Close()
		vars["FIXPLAN_TIMEOUT"] = "2"
		code, _, errOut := runEnv(t, vars, "", "--root", cliProject(t), "plan", "--problem", "x fails", "--quiet")
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "ERR") && !strings.Contains(errOut, "FIXPLAN_BASE_URL") {
			t.Errorf("exit %d %q", code, errOut)
		}
	})
	t.Run("flags override the environment", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.Reply{Content: goodPlan})
		vars := map[string]string{"FIXPLAN_BASE_URL": "http://127.0.0.1:1/v1", "FIXPLAN_MODEL": "wrong"}
		code, _, errOut := runEnv(t, vars, "", "--root", cliProject(t), "plan", "--problem", traceback, "--quiet", "--base-url", srv.URL(), "--model", "flag-model")
		if code != 0 || srv.Requests()[0].JSON["model"] != "flag-model" {
			t.Errorf("exit %d %s", code, errOut)
		}
	})
	t.Run("OpenAI without a key", func(t *testing.T) {
		vars := map[string]string{"FIXPLAN_BASE_URL": "https://api.openai.com/v1"}
		code, _, errOut := runEnv(t, vars, "", "--root", cliProject(t), "plan", "--problem", "x fails")
		if code != 1 || !strings.Contains(errOut, "set FIXPLAN_API_KEY") {
			t.Errorf("exit %d %q", code, errOut)
		}
	})
	t.Run("settings the client refuses", func(t *testing.T) {
		vars := map[string]string{"FIXPLAN_BASE_URL": "http://127.0.0.1:1/v1"}
		code, _, errOut := runEnv(t, vars, "", "--root", cliProject(t), "plan", "--problem", "x fails", "--model", " ")
		if code != 1 || !strings.Contains(errOut, "ERR_CONFIG: the provider settings are not usable") || !strings.Contains(errOut, "check FIXPLAN_BASE_URL and FIXPLAN_MODEL") {
			t.Errorf("exit %d %q", code, errOut)
		}
	})
	t.Run("invalid output after the repair", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.Reply{Content: "Step 1: fix it.\nStep 2: test it.\n"}, llmtest.Reply{Content: "I cannot."})
		code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", cliProject(t), "plan", "--problem", "x fails", "--quiet")
		if code != 1 || !strings.Contains(errOut, "---- raw reply ----\nI cannot.") || !strings.Contains(errOut, "raw reply saved in .fixplan/plans/") {
			t.Errorf("exit %d %q", code, errOut)
		}
	})
}

func TestPlanUsageErrors(t *testing.T) {
	root := cliProject(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `fixplan plan: unexpected argument "extra"; pass the problem with --problem or --problem-file`},
		{[]string{"--problem", "x", "--problem-file", "p.txt"}, "fixplan plan: give either --problem or --problem-file, not both"},
		{[]string{"--problem", "x", "--answer", "yes"}, "fixplan plan: --answer needs --replan ID"},
		{[]string{"--write-changes", "id", "--problem", "x"}, "fixplan plan: --write-changes ID uses the problem, logs and context of plan ID"},
		{[]string{"--problem", "x", "--log", "nofile"}, `fixplan plan: --log "nofile": want SOURCE=FILE`},
	} {
		code, out, errOut := runEnv(t, nil, "", append([]string{"--root", root, "plan", "--json"}, tc.args...)...)
		if code != 2 || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	code, out, errOut := runEnv(t, nil, "", "--root", root, "plan", "--json", "--problem-file", filepath.Join(root, "missing.txt"))
	if code != 1 || !strings.Contains(errOut, "ERR_INVALID_INPUT: cannot read the problem file") || !strings.Contains(out, `"ERR_INVALID_INPUT"`) {
		t.Errorf("missing problem file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
