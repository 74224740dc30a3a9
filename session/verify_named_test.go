package session

import (
	"context"
	"maps"
	"os/exec"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
	"fixplan/plan"
)

// issue 18's module: Mean divides by len-1, so TestMean fails; Mean(nil) is
// -0, which the test accepts.
var meanProject = map[string]string{
	"go.mod":               "module example.com/stats\n\ngo 1.21\n",
	"stats/mean.go":        meanBug,
	"stats/mean_test.go":   "package stats\n\nimport \"testing\"\n\nfunc TestMean(t *testing.T) {\n\tif got := Mean([]float64{1, 2, 3}); got != 2 {\n\t\tt.Errorf(\"Mean([1 2 3]) = %v, want 2\", got)\n\t}\n\tif got := Mean(nil); got != 0 {\n\t\tt.Errorf(\"Mean(nil) = %v, want 0\", got)\n\t}\n}\n",
	"stats/sum.go":         "package stats\n\nfunc Sum(xs []float64) float64 {\n\ts := 0.0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n",
	"stats/sum_test.go":    "package stats\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]float64{1, 2}) != 3 {\n\t\tt.Fatal(\"Sum\")\n\t}\n}\n",
	"README.md":            "stats\n",
	"legacy/legacy.go":     "package legacy\n",
	"legacy/old_test.go":   "package legacy\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) { t.Fatal(\"legacy has been broken for a while\") }\n",
	"stats/testdata/x.txt": "x\n",
}

const (
	meanBug = "package stats\n\n// Mean is the average of xs, 0 for none.\nfunc Mean(xs []float64) float64 {\n\treturn Sum(xs) / float64(len(xs)-1)\n}\n"
	// meanNaN divides by len: Mean(nil) is now 0/0.
	meanNaN   = "package stats\n\n// Mean is the average of xs, 0 for none.\nfunc Mean(xs []float64) float64 {\n\treturn Sum(xs) / float64(len(xs))\n}\n"
	meanRight = "package stats\n\n// Mean is the average of xs, 0 for none.\nfunc Mean(xs []float64) float64 {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\treturn Sum(xs) / float64(len(xs))\n}\n"
)

func meanReply(t *testing.T, content string) llmtest.Reply {
	return reply(t, func(m map[string]any) {
		m["summary"] = "Mean divides by len(xs)"
		m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "stats/mean.go", "content": content}}}
		m["commands_to_run"] = []any{}
	})
}

// meanProblem is the real output of go test ./stats/... on the project: it
// names TestMean.
func meanProblem(t *testing.T, root string) string {
	t.Helper()
	cmd := exec.Command("go", "test", "./stats/...")
	cmd.Dir = root
	cmd.Env = append(cmd.Environ(), "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--- FAIL: TestMean") || !strings.Contains(string(out), "FAIL\texample.com/stats/stats") {
		t.Fatalf("go test of the buggy module: %v\n%s", err, out)
	}
	return string(out)
}

// Issue 18: the tests the problem names decide, when the only check the user
// gave (--check "go test ./...") fails the same way before and after a wrong
// fix — no focused test approved.
func TestVerifiedByNamedTests(t *testing.T) {
	files := maps.Clone(meanProject)
	delete(files, "legacy/legacy.go")
	delete(files, "legacy/old_test.go")
	check := []string{"go test ./..."}

	t.Run("a fix that still fails the named test is repaired, the repair verified", func(t *testing.T) {
		s, srv, root := projectFixture(t, files, meanReply(t, meanNaN), meanReply(t, meanRight))
		in := plan.ProblemInput{Problem: meanProblem(t, root)}
		before := treeSum(t, root)
		rec, err := s.PlanVerified(context.Background(), in, 2, check)
		if err != nil {
			t.Fatal(err)
		}
		v := rec.Verification
		if v.State != plan.VerifyVerified || len(v.Attempts) != 1 || v.Attempts[0].State != plan.VerifyFailed ||
			!strings.Contains(v.Attempts[0].Reason, "example.com/stats/stats.TestMean") || !strings.Contains(v.Attempts[0].Output, "Mean(nil) = NaN, want 0") {
			t.Fatalf("verification = %s", dump(v))
		}
		if sent := repairSent(t, srv); !strings.Contains(sent, "Mean(nil) = NaN, want 0") || !strings.Contains(sent, "still fails") {
			t.Error("the failing output did not go back to the model")
		}
		if len(v.Commands) != 1 || v.Commands[0].Command != "go test ./..." || v.Commands[0].Outcome != "passed" {
			t.Errorf("commands = %s", dump(v.Commands))
		}
		sameSums(t, before, treeSum(t, root))
	})

	t.Run("a model wrong every time ends failed after the repair attempts", func(t *testing.T) {
		s, srv, root := projectFixture(t, files, meanReply(t, meanNaN), meanReply(t, meanNaN), meanReply(t, meanNaN))
		in := plan.ProblemInput{Problem: meanProblem(t, root)}
		rec, err := s.PlanVerified(context.Background(), in, 2, check)
		if err != nil {
			t.Fatal(err)
		}
		v := rec.Verification
		if v.State != plan.VerifyFailed || len(v.Attempts) != 2 || !strings.Contains(v.Reason, "still fails") || !strings.Contains(v.Reason, "TestMean") {
			t.Fatalf("verification = %s", dump(v))
		}
		if n := len(srv.Requests()); n != 3 {
			t.Errorf("%d model requests, want 3", n)
		}
	})

	t.Run("without any approval nothing runs and the reason says what to approve", func(t *testing.T) {
		s, srv, root := projectFixture(t, files, meanReply(t, meanNaN))
		in := plan.ProblemInput{Problem: meanProblem(t, root)}
		focused := s.Checks(&plan.Record{Input: in})[0]
		if !focused.Focused || focused.Command != "go test -run '^TestMean$' ./stats" {
			t.Fatalf("focused check = %+v", focused)
		}
		rec, err := s.PlanVerified(context.Background(), in, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := rec.Verification
		want := []string{"`go test -run '^TestMean$' ./stats`", "--yes", `fixplan checks approve 'go test -run '\''^TestMean$'\'' ./stats'`}
		for _, w := range want {
			if v.State != plan.VerifyNotVerified || !strings.Contains(v.Reason, w) {
				t.Errorf("reason %q lacks %q (state %s)", v.Reason, w, v.State)
			}
		}
		if len(srv.Requests()) != 1 || len(v.Attempts) != 0 {
			t.Errorf("%d model requests, %d attempts: a plan that was not verified was repaired", len(srv.Requests()), len(v.Attempts))
		}
	})
}

// A check that does not run the named test, failing the same way before and
// after, concludes nothing: the reason names the focused test to approve.
func TestNotVerifiedSaysWhatToApprove(t *testing.T) {
	s, _, root := projectFixture(t, meanProject, meanReply(t, meanRight))
	in := plan.ProblemInput{Problem: meanProblem(t, root)}
	rec, err := s.PlanVerified(context.Background(), in, 2, []string{"go test ./legacy/..."})
	if err != nil {
		t.Fatal(err)
	}
	v := rec.Verification
	if v.State != plan.VerifyNotVerified || !strings.Contains(v.Reason, "fails the same way before and after") ||
		!strings.Contains(v.Reason, "example.com/stats/stats.TestMean") || !strings.Contains(v.Reason, "--yes") ||
		!strings.Contains(v.Reason, "fixplan checks approve 'go test -run") {
		t.Fatalf("verification = %s", dump(v))
	}
	// Approved as the reason says, the focused test gives the verdict.
	if err := s.ApproveCheck("go test -run '^TestMean$' ./stats"); err != nil {
		t.Fatal(err)
	}
	rec, err = s.VerifyPlan(context.Background(), rec.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := rec.Verification; v.State != plan.VerifyVerified || !v.Commands[0].Focused {
		t.Fatalf("verification after approving = %s", dump(v))
	}
}
