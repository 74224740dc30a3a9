package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// TestPlanVerify: fixplan plan --verify --yes checks the plan in a scratch copy
// of a real Go module with the derived failing-test command and --check, before
// the user sees it; the project is not touched; approvals are listed by checks.
func TestPlanVerify(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/mm\n\ngo 1.21\n",
		"mm/mm.go":      "package mm\n\nfunc Max(a, b int) int {\n\tif a < b {\n\t\treturn a\n\t}\n\treturn b\n}\n",
		"mm/mm_test.go": "package mm\n\nimport \"testing\"\n\nfunc TestMax(t *testing.T) {\n\tif Max(2, 3) != 3 {\n\t\tt.Fatal(\"Max(2, 3) != 3\")\n\t}\n}\n",
		// A test command the project ships: --yes must never approve it.
		".fixplan/project.json": `{"project.default_test_command": "touch PWNED_BY_PROJECT; go test ./..."}`,
	}
	for p, c := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	fixed := "package mm\\n\\nfunc Max(a, b int) int {\\n\\tif a > b {\\n\\t\\treturn a\\n\\t}\\n\\treturn b\\n}\\n"
	reply := `{"mode":"fix-plan","summary":"fix Max","questions":[],"context_requests":[],"plan":[],
"proposed_changes":{"patch":null,"actions":[{"kind":"UPDATE_FILE","path":"mm/mm.go","content":"` + fixed + `"}],"commands_to_run":[]},
"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	srv := llmtest.NewServer(t, llmtest.Reply{Content: reply}, llmtest.Reply{Content: reply})
	problem := "--- FAIL: TestMax (0.00s)\n    mm_test.go:7: Max(2, 3) != 3\nFAIL\nFAIL\texample.com/mm/mm\t0.002s\n"
	before, _ := os.ReadFile(filepath.Join(root, "mm/mm.go"))

	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", problem, "--verify", "--yes", "--check", "go vet ./...")
	if code != 0 {
		t.Fatalf("plan --verify: %d %s", code, errOut)
	}
	if !strings.Contains(out, "VERIFIED: 2 of 2 checks pass") || !strings.Contains(out, "go test -run '^TestMax$' ./mm") || !strings.Contains(out, "your files were not touched") {
		t.Fatalf("output:\n%s", out)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "mm/mm.go")); string(after) != string(before) {
		t.Fatal("verification touched the project")
	}
	if strings.Contains(out, "$ touch PWNED_BY_PROJECT") {
		t.Fatal("--yes approved and ran the project's own test command")
	}
	code, out, _ = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", problem, "--verify", "--json")
	var got struct {
		Verification struct {
			State    string
			Commands []struct{ Command, Outcome string }
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.Verification.State != "verified" || len(got.Verification.Commands) != 2 {
		t.Fatalf("plan --verify --json (approvals remembered): %d %s", code, out)
	}
	code, out, _ = runEnv(t, nil, "", "--root", root, "checks")
	if code != 0 || !strings.Contains(out, "go vet ./...") || !strings.Contains(out, "TestMax") || strings.Contains(out, "PWNED") {
		t.Fatalf("checks: %s", out)
	}
	if code, out, _ = runEnv(t, nil, "", "--root", root, "checks", "approve", "make check"); code != 0 || !strings.Contains(out, "make check") {
		t.Fatalf("approve: %s", out)
	}
	if code, out, _ = runEnv(t, nil, "", "--root", root, "checks", "revoke", "go vet ./..."); code != 0 || strings.Contains(out, "go vet") {
		t.Fatalf("revoke: %s", out)
	}
}

// TestModelCommandNeverRunsUnderYes: a command the model proposed (it would create
// a marker file) is run by no route under --yes — plan --verify --yes, apply
// --verify --yes, verify --yes — and is labelled as the model's where it is
// listed; answered yes on a terminal, it runs.
func TestModelCommandNeverRunsUnderYes(t *testing.T) {
	root := cliProject(t)
	marker := filepath.Join(t.TempDir(), "MARKER")
	cmd := "touch " + marker
	reply := strings.ReplaceAll(goodPlan, "echo verified", cmd)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: reply})
	ran := func(route string) {
		t.Helper()
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s ran the model's command", route)
		}
	}
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", "File \"calc.py\", line 2, in divide\nZeroDivisionError: division by zero", "--verify", "--yes")
	if code != 0 || !labelled(out, cmd, " (proposed by the model)") || strings.Contains(out, "$ "+cmd) {
		t.Fatalf("plan --verify --yes: %d\n%s%s", code, out, errOut)
	}
	ran("plan --verify --yes")
	code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--verify", "--dry-run", "--yes")
	if code != 0 || !labelled(out, cmd, " (proposed by the model)") {
		t.Fatalf("apply --verify --yes: %d\n%s%s", code, out, errOut)
	}
	ran("apply --verify --yes")
	code, out, errOut = runEnv(t, nil, "", "--root", root, "verify", "--yes")
	if code != 2 || !strings.Contains(errOut, "not run: `"+cmd+"` is not approved: it was proposed by the model, and --yes never approves such a command") {
		t.Fatalf("verify --yes: %d\n%s%s", code, out, errOut)
	}
	ran("verify --yes")
	code, out, errOut = runTerminal(t, nil, "n\n", "--root", root, "verify", "--yes")
	if !strings.Contains(errOut, "Run `"+cmd+"` (proposed by the model) in ") || !strings.Contains(errOut, "skipped") {
		t.Fatalf("verify on a terminal, answered no: %d\n%s%s", code, out, errOut)
	}
	ran("verify answered no")
	code, out, errOut = runTerminal(t, nil, "y\n", "--root", root, "verify")
	if code != 0 || !strings.Contains(out, "$ "+cmd) {
		t.Fatalf("verify on a terminal, answered yes: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the command the user confirmed did not run")
	}
}

// TestTheKeyIsInNothingFixplanWrites: a check that prints the API key (as one
// reading /proc/<parent>/environ would) runs through plan --verify, verify and
// apply --verify; the key is in no file under the project or the config folder
// (plans, the verification note, the baselines cache, ...), nor on stdout or
// stderr, and the verification note is private (0600).
func TestTheKeyIsInNothingFixplanWrites(t *testing.T) {
	const key = "correct-horse-battery-staple-4242"
	root := cliProject(t)
	keyFile := filepath.Join(t.TempDir(), "key.txt")
	if err := os.WriteFile(keyFile, []byte("the key is "+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// It fails with and without the change, so its baseline is run and cached.
	cmd := "cat " + keyFile + " && false"
	reply := strings.ReplaceAll(goodPlan, "echo verified", cmd)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: reply})
	vars := providerEnv(srv)
	vars["FIXPLAN_API_KEY"] = key
	var printed strings.Builder
	step := func(want int, args ...string) string {
		t.Helper()
		code, out, errOut := runEnv(t, vars, "", append([]string{"--root", root}, args...)...)
		printed.WriteString(out + errOut)
		if code != want {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		return out
	}
	step(0, "plan", "--problem", "File \"calc.py\", line 2, in divide\nZeroDivisionError: division by zero", "--verify", "--yes", "--check", cmd, "--json")
	if out := step(1, "verify", "--yes"); !strings.Contains(out, "the key is [REDACTED]") {
		t.Fatalf("verify printed:\n%s", out)
	}
	step(0, "apply", "--verify", "--yes", "--check", cmd, "--json")
	step(0, "history")
	if strings.Contains(printed.String(), key) {
		t.Errorf("the key was printed:\n%s", printed.String())
	}
	for _, dir := range []string{root, userConfig(t)} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("the key is in %s", p)
			}
			return nil
		})
	}
	fi, err := os.Stat(filepath.Join(root, ".fixplan", "logs", "verification.log"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("verification.log: %v %v", fi, err)
	}
	if n, _ := filepath.Glob(filepath.Join(userConfig(t), "verify-baselines", "*.json")); len(n) == 0 {
		t.Error("no baseline was cached: the test checks nothing there")
	}
}

// TestModelTestCommandInTheSharedProjectFile: apply --yes writes the model's
// proposed test command into .fixplan/project.json marked as the model's (plan,
// date); a teammate who clones the project sees it labelled so, and --yes does
// not run it (it would create a marker file).
func TestModelTestCommandInTheSharedProjectFile(t *testing.T) {
	root := cliProject(t)
	marker := filepath.Join(t.TempDir(), "MARKER")
	reply := strings.ReplaceAll(goodPlan, "pytest -q", "touch "+marker)
	again := strings.ReplaceAll(reply, "return None", "return 0")
	srv := llmtest.NewServer(t, llmtest.Reply{Content: reply}, llmtest.Reply{Content: again})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rec struct{ ID string }
	json.Unmarshal([]byte(out), &rec)
	if code, _, errOut := runEnv(t, nil, "", "--root", root, "apply", "--yes"); code != 0 {
		t.Fatal(errOut)
	}
	b, _ := os.ReadFile(filepath.Join(root, ".fixplan", "project.json"))
	var pj struct {
		Test   string `json:"project.default_test_command"`
		Origin map[string]struct {
			ProposedBy string `json:"proposed_by"`
			Plan       string
		}
	}
	if err := json.Unmarshal(b, &pj); err != nil || pj.Test != "touch "+marker || pj.Origin["project.default_test_command"].ProposedBy != "model" ||
		pj.Origin["project.default_test_command"].Plan != rec.ID {
		t.Fatalf("project.json = %s", b)
	}
	// A teammate: another config folder, the same project file.
	mate := t.TempDir()
	vars := providerEnv(srv)
	vars["FIXPLAN_SETTINGS"] = filepath.Join(mate, "settings.json")
	vars["FIXPLAN_USER_PREFS"] = filepath.Join(mate, "preferences.json")
	code, out, errOut = runEnv(t, vars, "", "--root", root, "plan", "--problem", "File \"calc.py\", line 2, in divide\nZeroDivisionError", "--verify", "--yes")
	if code != 0 || !labelled(out, "touch "+marker, " (test command the model proposed in plan "+rec.ID+" (applied ") {
		t.Fatalf("teammate's plan --verify --yes: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("--yes ran the model's test command from the project file")
	}
}

// labelled reports whether out lists cmd with its origin label, as a plain command or
// shell-quoted where the line tells the user what to approve (fixplan checks approve 'CMD').
func labelled(out, cmd, label string) bool {
	return strings.Contains(out, cmd+label) || strings.Contains(out, "'"+cmd+"'"+label)
}
