package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// mmSource is mm/mm.go: Max at the top (fixed or not) and a constant at the
// bottom, far enough apart that changing both makes two hunks.
func mmSource(fixed bool, bottom string) string {
	cmp := "<"
	if fixed {
		cmp = ">"
	}
	var b strings.Builder
	b.WriteString("package mm\n\nfunc Max(a, b int) int {\n\tif a " + cmp + " b {\n\t\treturn a\n\t}\n\treturn b\n}\n")
	for i := 1; i <= 12; i++ {
		b.WriteString("\n// filler " + string(rune('a'+i)) + "\n")
	}
	b.WriteString("\nconst Version = " + bottom + "\n")
	return b.String()
}

// TestApplyVerifySelection: fixplan apply --verify checks exactly the hunks the
// user chose in a scratch copy: a real Go module whose test fails, a plan with
// two hunks of which only the first fixes it. Rejecting the fixing hunk FAILS,
// accepting it is VERIFIED; verifying never touches the project, --yes never
// runs the project's own command, and a FAILED selection is not applied.
func TestApplyVerifySelection(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/mm\n\ngo 1.21\n",
		"mm/mm.go":      mmSource(false, "1"),
		"mm/mm_test.go": "package mm\n\nimport \"testing\"\n\nfunc TestMax(t *testing.T) {\n\tif Max(2, 3) != 3 {\n\t\tt.Fatal(\"Max(2, 3) != 3\")\n\t}\n}\n",
		// A test command the project ships: --yes must never approve it.
		".fixplan/project.json": `{"project.default_test_command": "touch PWNED_BY_PROJECT; go test ./..."}`,
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	content, _ := json.Marshal(mmSource(true, "2"))
	reply := `{"mode":"fix-plan","summary":"fix Max","questions":[],"context_requests":[],"plan":[],
"proposed_changes":{"patch":null,"actions":[{"kind":"UPDATE_FILE","path":"mm/mm.go","content":` + string(content) + `}],"commands_to_run":[]},
"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	srv := llmtest.NewServer(t, llmtest.Reply{Content: reply})
	problem := "--- FAIL: TestMax (0.00s)\n    mm_test.go:7: Max(2, 3) != 3\nFAIL\nFAIL\texample.com/mm/mm\t0.002s\n"
	if code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", problem); code != 0 {
		t.Fatalf("plan: %d %s", code, errOut)
	}
	if code, out, _ := runEnv(t, nil, "", "--root", root, "apply", "--show-hunks"); code != 0 || !strings.Contains(out, "update mm/mm.go: 2 hunk(s)") {
		t.Fatalf("the plan should change mm/mm.go in two hunks: %s", out)
	}
	snapshot := func() map[string]string {
		m := map[string]string{}
		for p := range files {
			b, err := os.ReadFile(filepath.Join(root, p))
			if err != nil {
				t.Fatal(err)
			}
			m[p] = string(b)
		}
		return m
	}
	unchanged := func(when string, before map[string]string) {
		t.Helper()
		for p, c := range snapshot() {
			if c != before[p] {
				t.Fatalf("%s changed %s in the project", when, p)
			}
		}
		if _, err := os.Stat(filepath.Join(root, "PWNED_BY_PROJECT")); err == nil {
			t.Fatal("--yes approved and ran the project's own test command")
		}
	}
	before := snapshot()

	// The fixing hunk rejected: only hunk 2 is verified, and TestMax still fails.
	code, out, errOut := runEnv(t, nil, "", "--root", root, "apply", "--verify", "--dry-run", "--yes", "--check", "go vet ./...", "--hunks", "mm/mm.go:2")
	if code != 1 || !strings.Contains(out, "FAILED VERIFICATION") || !strings.Contains(out, "go test -run '^TestMax$' ./mm") || !strings.Contains(out, "your files were not touched") || !strings.Contains(out, "nothing written") {
		t.Fatalf("verify with the fix rejected: exit %d, want 1 and FAILED\n%s\n%s", code, out, errOut)
	}
	unchanged("apply --verify --dry-run", before)

	// The same selection without --dry-run: verified, FAILED, so --yes does not apply it.
	code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--verify", "--yes", "--hunks", "mm/mm.go:2")
	if code != 1 || !strings.Contains(out, "FAILED VERIFICATION") || !strings.Contains(errOut, "not applied") || strings.Contains(out, "applied transaction") {
		t.Fatalf("apply --verify --yes of a failing selection: exit %d\n%s\n%s", code, out, errOut)
	}
	unchanged("a FAILED apply --verify", before)

	// The fixing hunk accepted: VERIFIED, with each check's outcome, as JSON too.
	code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--verify", "--dry-run", "--hunks", "mm/mm.go:1")
	if code != 0 || !strings.Contains(out, "VERIFIED: ") || strings.Contains(out, "FAILED") || !strings.Contains(out, "$ go vet ./...  → passed") {
		t.Fatalf("verify with the fix accepted (approvals remembered): exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runEnv(t, nil, "", "--root", root, "apply", "--verify", "--dry-run", "--json", "--hunks", "mm/mm.go:1")
	var got struct {
		DryRun       bool `json:"dry_run"`
		Verification struct {
			State    string
			Commands []struct{ Command, Outcome string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || !got.DryRun || got.Verification.State != "verified" || len(got.Verification.Commands) != 2 {
		t.Fatalf("apply --verify --dry-run --json: exit %d %v\n%s", code, err, out)
	}
	unchanged("apply --verify --dry-run", before)

	// Your own text instead of the proposal is what gets verified: the bug kept, FAILED.
	mine := filepath.Join(t.TempDir(), "mm.go")
	if err := os.WriteFile(mine, []byte(mmSource(false, "7")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--verify", "--dry-run", "--edit", "mm/mm.go="+mine); code != 1 || !strings.Contains(out, "FAILED VERIFICATION") {
		t.Fatalf("verify of an --edit that keeps the bug: exit %d\n%s\n%s", code, out, errOut)
	}
	unchanged("apply --verify --dry-run --edit", before)

	// Verified, then applied: exactly hunk 1 lands in the project.
	code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--verify", "--yes", "--hunks", "mm/mm.go:1")
	if code != 0 || !strings.Contains(out, "VERIFIED: ") || !strings.Contains(out, "applied transaction") {
		t.Fatalf("apply --verify --yes: exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "mm/mm.go")); string(b) != mmSource(true, "1") {
		t.Fatalf("applied mm/mm.go is not the accepted hunk only:\n%s", b)
	}

	// --check without --verify is a usage mistake, said plainly.
	if code, _, errOut = runEnv(t, nil, "", "--root", root, "apply", "--check", "go vet ./...", "--dry-run"); code == 0 || !strings.Contains(errOut, "--check needs --verify") {
		t.Fatalf("--check without --verify: exit %d %s", code, errOut)
	}
}
