package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// longCalc is calc.py long enough that a change at the top and one at the
// bottom are two hunks.
func longCalc(top, bottom string) string {
	var b strings.Builder
	b.WriteString("def divide(a, b):\n" + top + "    return a / b\n")
	for i := 1; i <= 14; i++ {
		b.WriteString("# filler " + string(rune('a'+i)) + "\n")
	}
	b.WriteString(bottom + "VERSION = 1\n")
	return b.String()
}

func twoHunkPlan(t *testing.T) string {
	t.Helper()
	m := map[string]any{"mode": "fix-plan", "summary": "guard against b == 0", "questions": []any{}, "context_requests": []any{},
		"plan": []any{map[string]any{"step": "change", "details": "return None for b == 0"}},
		"proposed_changes": map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "calc.py", "content": longCalc("    if b == 0:\n        return None\n", "# bottom change by the model\n")},
			map[string]any{"kind": "UPDATE_FILE", "path": "test_calc.py", "content": "from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) == 0\n"},
		}},
		"patch": nil, "commands_to_run": []any{}, "verification": []any{}, "risks": []any{}, "rollback": []any{}, "memory_patch": []any{}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const noChangePlan = `{"mode":"fix-plan","summary":"look again","questions":[],"context_requests":[],"plan":[{"step":"diagnose","details":"x"}],
"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`

func TestApplyHunksAndEdits(t *testing.T) {
	root := cliProject(t)
	if err := os.WriteFile(filepath.Join(root, "calc.py"), []byte(longCalc("", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.Reply{Content: twoHunkPlan(t)}, llmtest.Reply{Content: noChangePlan})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json")
	if code != 0 {
		t.Fatalf("plan exit %d: %s", code, errOut)
	}
	var planned struct {
		ID string `json:"id"`
	}
	json.Unmarshal([]byte(out), &planned)

	// --show-hunks numbers the hunks as the preview shows them.
	code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--show-hunks")
	if code != 0 {
		t.Fatalf("--show-hunks exit %d: %s", code, errOut)
	}
	for _, want := range []string{"update calc.py: 2 hunk(s)", "[hunk 1 of calc.py]\n@@ ", "+    if b == 0:", "[hunk 2 of calc.py]", "+# bottom change by the model", "update test_calc.py: 1 hunk(s)"} {
		if !strings.Contains(out, want) {
			t.Errorf("--show-hunks lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runEnv(t, nil, "", "--root", root, "apply", "--show-hunks", "--json")
	var shown struct {
		Files []struct {
			Path  string `json:"path"`
			Hunks []struct {
				N    int    `json:"n"`
				Text string `json:"text"`
			} `json:"hunks"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &shown); code != 0 || err != nil || len(shown.Files) != 2 || len(shown.Files[0].Hunks) != 2 || shown.Files[0].Hunks[1].N != 2 {
		t.Fatalf("--show-hunks --json: exit %d %v\n%s", code, err, out)
	}

	mine := filepath.Join(t.TempDir(), "mine.py")
	byHand := "from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) is None  # kept by hand\n"
	os.WriteFile(mine, []byte(byHand), 0o644)
	sel := []string{"--hunks", "calc.py:2", "--edit", "test_calc.py=" + mine}

	// Refusals write nothing and say what to do.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--hunks", "calc.py:3"}, "hunk 3 does not exist"},
		{[]string{"--hunks", "calc.py:x"}, "is not a hunk number"},
		{[]string{"--hunks", "calc.py:2-1"}, "is not a hunk number or range"},
		{[]string{"--hunks", "calc.py:1-3"}, "hunk 3 does not exist"},
		{[]string{"--hunks", "nope.py:1"}, "does not change nope.py"},
		{[]string{"--hunks", "calc.py"}, "expected PATH:N"},
		{[]string{"--edit", "calc.py=" + filepath.Join(root, "missing")}, "cannot read"},
		{[]string{"--hunks", "calc.py:1", "--edit", "calc.py=" + mine}, "given twice"},
	} {
		code, _, errOut := runEnv(t, nil, "", append([]string{"--root", root, "apply", "--yes"}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("apply %v: exit %d %s, want %q", tc.args, code, errOut, tc.want)
		}
	}

	// --dry-run shows exactly what would be written, and writes nothing.
	code, out, errOut = runEnv(t, nil, "", append([]string{"--root", root, "apply", "--dry-run"}, sel...)...)
	if code != 0 || strings.Contains(out, "if b == 0") || !strings.Contains(out, "+# bottom change by the model") ||
		!strings.Contains(out, "+    assert divide(1, 0) is None  # kept by hand") || !strings.Contains(out, "nothing written") {
		t.Fatalf("--dry-run: exit %d %s\n%s", code, errOut, out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != longCalc("", "") {
		t.Fatal("--dry-run wrote calc.py")
	}

	code, _, errOut = runEnv(t, nil, "", append([]string{"--root", root, "apply", "--yes"}, sel...)...)
	if code != 0 {
		t.Fatalf("apply exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != longCalc("", "# bottom change by the model\n") {
		t.Errorf("calc.py = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "test_calc.py")); string(b) != byHand {
		t.Errorf("test_calc.py = %q", b)
	}

	// Re-planning tells the model what was rejected and edited.
	code, _, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--replan", planned.ID)
	if code != 0 {
		t.Fatalf("re-plan exit %d: %s", code, errOut)
	}
	reqs := srv.Requests()
	user := reqs[len(reqs)-1].LastUser()
	for _, want := range []string{"calc.py: the operator rejected this hunk (1 of 2)", "+    if b == 0:", "test_calc.py: the operator changed your proposed content", "+    assert divide(1, 0) is None  # kept by hand"} {
		if !strings.Contains(user, want) {
			t.Errorf("re-plan request lacks %q:\n%s", want, user)
		}
	}
	// --help documents the selector.
	if code, _, errOut := runEnv(t, nil, "", "apply", "-h"); code != 0 || !strings.Contains(errOut, "--hunks PATH:1,3-5") || !strings.Contains(errOut, "--show-hunks") {
		t.Errorf("apply -h: exit %d\n%s", code, errOut)
	}
}

// Re-planning a draft without applying it: --reject tells the model which hunks
// or files the user rejects.
func TestReplanRejectingPartsOfADraft(t *testing.T) {
	root := cliProject(t)
	if err := os.WriteFile(filepath.Join(root, "calc.py"), []byte(longCalc("", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.Reply{Content: twoHunkPlan(t)}, llmtest.Reply{Content: noChangePlan})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json")
	if code != 0 {
		t.Fatalf("plan exit %d: %s", code, errOut)
	}
	var planned struct {
		ID string `json:"id"`
	}
	json.Unmarshal([]byte(out), &planned)
	for _, tc := range []struct{ arg, want string }{
		{"nope.py", "does not change nope.py"},
		{"calc.py:3", "hunk 3 does not exist"},
		{"calc.py:x", "is not a hunk number"},
	} {
		if code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--replan", planned.ID, "--reject", tc.arg); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("--reject %s: exit %d %s", tc.arg, code, errOut)
		}
	}
	code, _, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--replan", planned.ID, "--reject", "calc.py:2", "--reject", "test_calc.py")
	if code != 0 {
		t.Fatalf("re-plan exit %d: %s", code, errOut)
	}
	reqs := srv.Requests()
	user := reqs[len(reqs)-1].LastUser()
	for _, want := range []string{
		"OPERATOR REVIEW OF THE EARLIER PLAN (reviewed, not applied)",
		"calc.py: the operator rejected this hunk (2 of 2)",
		"+# bottom change by the model",
		"test_calc.py: the operator rejected your whole change to this file",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("re-plan request lacks %q:\n%s", want, user)
		}
	}
	if strings.Contains(user, "rejected this hunk (1 of 2)") {
		t.Error("an accepted hunk is described as rejected")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != longCalc("", "") {
		t.Error("a re-plan changed calc.py")
	}
}
