package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// TestPlanVerifyNamedTest is issue 18's case on the command line: Mean divides
// by len-1, the problem is the real go test output naming TestMean, and the
// user gives --check "go test ./..." without --yes. The first fix still fails
// TestMean (Mean(nil) is NaN), so the plan fails and goes back to the model;
// the second is verified. Without any approval nothing runs, and the reason
// names the command to approve exactly as the shell takes it.
func TestPlanVerifyNamedTest(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":             "module example.com/stats\n\ngo 1.21\n",
		"stats/mean.go":      "package stats\n\nfunc Mean(xs []float64) float64 {\n\ts := 0.0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s / float64(len(xs)-1)\n}\n",
		"stats/mean_test.go": "package stats\n\nimport \"testing\"\n\nfunc TestMean(t *testing.T) {\n\tif got := Mean([]float64{1, 2, 3}); got != 2 {\n\t\tt.Errorf(\"Mean([1 2 3]) = %v, want 2\", got)\n\t}\n\tif got := Mean(nil); got != 0 {\n\t\tt.Errorf(\"Mean(nil) = %v, want 0\", got)\n\t}\n}\n",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	goTest := exec.Command("go", "test", "./...")
	goTest.Dir = root
	goTest.Env = append(goTest.Environ(), "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local")
	problem, err := goTest.CombinedOutput()
	if err == nil || !strings.Contains(string(problem), "--- FAIL: TestMean") {
		t.Fatalf("go test of the buggy module: %v\n%s", err, problem)
	}
	meanReply := func(body string) llmtest.Reply {
		content, _ := json.Marshal("package stats\n\nfunc Mean(xs []float64) float64 {\n" + body + "\ts := 0.0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s / float64(len(xs))\n}\n")
		return llmtest.Reply{Content: `{"mode":"fix-plan","summary":"divide by len(xs)","questions":[],"context_requests":[],"plan":[],
"proposed_changes":{"patch":null,"actions":[{"kind":"UPDATE_FILE","path":"stats/mean.go","content":` + string(content) + `}],"commands_to_run":[]},
"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`}
	}
	nan, right := meanReply(""), meanReply("\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n")

	srv := llmtest.NewServer(t, nan)
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", string(problem), "--verify")
	if code != 0 || !strings.Contains(out, "NOT VERIFIED: no check command is approved") || !strings.Contains(out, "--yes") ||
		!strings.Contains(out, "(no check ran; your files were not touched)") || strings.Contains(out, "checked in a scratch copy") {
		t.Fatalf("plan --verify without approvals: %d\n%s%s", code, out, errOut)
	}
	// The approval exactly as the reason words it, read by a shell.
	_, cmd, ok := strings.Cut(out, "fixplan checks approve ")
	cmd, _, _ = strings.Cut(cmd, " (in the window")
	if !ok {
		t.Fatalf("no fixplan checks approve in:\n%s", out)
	}
	arg, err := exec.Command("sh", "-c", "printf %s "+cmd).Output()
	if err != nil || string(arg) != "go test -run '^TestMean$' ./stats" {
		t.Fatalf("the command to approve reads %q in a shell (%v)", arg, err)
	}

	srv = llmtest.NewServer(t, nan, right)
	code, out, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", string(problem), "--verify", "--check", "go test ./...")
	if code != 0 || !strings.Contains(out, "\nVERIFIED: ") || !strings.Contains(out, "attempt 1 (plan ") ||
		!strings.Contains(out, "failed — the failing test named in the problem still fails with the change: example.com/stats/stats.TestMean") {
		t.Fatalf("plan --verify --check: %d\n%s%s", code, out, errOut)
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("%d model requests, want 2", len(srv.Requests()))
	}
	if code, out, _ = runEnv(t, nil, "", "--root", root, "checks", "approve", string(arg)); code != 0 || !strings.Contains(out, "TestMean") {
		t.Fatalf("checks approve: %s", out)
	}
}
