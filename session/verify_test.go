package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
)

// A Go module with a real failing test (Max returns the smaller value) and an
// unrelated test that passes.
var goProject = map[string]string{
	"go.mod":            "module example.com/mm\n\ngo 1.21\n",
	"mm/mm.go":          "package mm\n\nfunc Max(a, b int) int {\n\tif a < b {\n\t\treturn a\n\t}\n\treturn b\n}\n\nfunc Min(a, b int) int {\n\tif a < b {\n\t\treturn a\n\t}\n\treturn b\n}\n",
	"mm/mm_test.go":     "package mm\n\nimport \"testing\"\n\nfunc TestMax(t *testing.T) {\n\tif Max(2, 3) != 3 {\n\t\tt.Fatal(\"Max(2, 3) != 3\")\n\t}\n}\n\nfunc TestMin(t *testing.T) {\n\tif Min(2, 3) != 2 {\n\t\tt.Fatal(\"Min(2, 3) != 2\")\n\t}\n}\n",
	"mm/other_test.go":  "package mm\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {}\n",
	"README.md":         "mm\n",
	"testdata/keep.txt": "x\n",
	// The project's remembered test command: it runs only once the user approves it.
	".fixplan/project.json": `{"project.default_test_command": "go test ./..."}`,
}

const goFailure = "--- FAIL: TestMax (0.00s)\n    mm_test.go:7: Max(2, 3) != 3\nFAIL\nFAIL\texample.com/mm/mm\t0.002s\n"

const rightMax = "package mm\n\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n\nfunc Min(a, b int) int {\n\tif a < b {\n\t\treturn a\n\t}\n\treturn b\n}\n"

// wrongMax fixes nothing and breaks Min.
const wrongMax = "package mm\n\nfunc Max(a, b int) int {\n\treturn a\n}\n\nfunc Min(a, b int) int {\n\treturn b\n}\n"

// breaksMin fixes Max but breaks Min.
const breaksMin = "package mm\n\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n\nfunc Min(a, b int) int {\n\treturn b\n}\n"

func goReply(t *testing.T, content string) llmtest.Reply {
	return reply(t, func(m map[string]any) {
		m["summary"] = "fix Max"
		m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "mm/mm.go", "content": content}}}
		m["commands_to_run"] = []any{}
	})
}

func goFixture(t *testing.T, replies ...llmtest.Reply) (*Session, *llmtest.Server, string) {
	t.Helper()
	return projectFixture(t, goProject, replies...)
}

// projectFixture opens a session on a new project made of files, with the
// fake model answering replies.
func projectFixture(t *testing.T, files map[string]string, replies ...llmtest.Reply) (*Session, *llmtest.Server, string) {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(abs), 0o755)
		os.WriteFile(abs, []byte(c), 0o644)
	}
	srv := llmtest.NewServer(t, replies...)
	m, err := openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake-model", APIKey: apiKey, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := t.TempDir()
	st := DefaultSettings()
	st.BaseURL = srv.URL()
	s, err := Open(root, st, m, nil, Options{ConfigDir: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, srv, root
}

// treeSum is every file's path, mode and bytes under root, outside .fixplan.
func treeSum(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == ".fixplan" {
			return filepath.SkipDir
		}
		fi, _ := d.Info()
		h := sha256.New()
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
		out[rel] = fi.Mode().String() + " " + hex.EncodeToString(h.Sum(nil))
		return nil
	})
	return out
}

// repairSent is the text of the second (and last) request to the model: the
// repair after a failed verification.
func repairSent(t *testing.T, srv *llmtest.Server) string {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	var sent strings.Builder
	for _, m := range reqs[1].Messages {
		sent.WriteString(m.Content)
	}
	return sent.String()
}

// dump is v as indented JSON, for failure messages.
func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

func sameSums(t *testing.T, a, b map[string]string) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("the project changed: %d vs %d entries", len(a), len(b))
	}
	for k, v := range a {
		if b[k] != v {
			t.Fatalf("the project changed: %s", k)
		}
	}
}

func TestVerifiedPlans(t *testing.T) {
	in := plan.ProblemInput{Problem: "go test ./... fails:\n" + goFailure}
	t.Run("right fix is verified", func(t *testing.T) {
		s, _, root := goFixture(t, goReply(t, rightMax))
		before := treeSum(t, root)
		checks := s.Checks(&plan.Record{Input: in})
		if len(checks) == 0 || !checks[0].Focused || !strings.Contains(checks[0].Command, "go test -run") || checks[0].Approved {
			t.Fatalf("checks = %+v", checks)
		}
		// Not approved yet: the plan says so and nothing runs.
		rec, err := s.PlanVerified(context.Background(), in, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Verification == nil || rec.Verification.State != plan.VerifyNotVerified || !strings.Contains(rec.Verification.Reason, checks[0].Command) {
			t.Fatalf("verification without approval = %+v", rec.Verification)
		}
		if err := s.ApproveCheck("go test ./..."); err != nil {
			t.Fatal(err)
		}
		rec, err = s.VerifyPlan(context.Background(), rec.ID, []string{checks[0].Command})
		if err != nil {
			t.Fatal(err)
		}
		v := rec.Verification
		if v.State != plan.VerifyVerified || len(v.Commands) != 2 || !v.Commands[0].Focused || v.Commands[0].Outcome != "passed" {
			t.Fatalf("verification = %+v", v)
		}
		sameSums(t, before, treeSum(t, root))
		// Stored in the plan record and the approval remembered.
		again, _ := s.Load(rec.ID)
		if again.Verification == nil || again.Verification.State != plan.VerifyVerified {
			t.Fatal("verification not saved with the plan")
		}
		if len(s.ApprovedChecks()) != 2 {
			t.Errorf("approvals = %v", s.ApprovedChecks())
		}
	})
	t.Run("wrong fix fails, the output goes back, the repair is verified", func(t *testing.T) {
		s, srv, root := goFixture(t, goReply(t, wrongMax), goReply(t, rightMax))
		focused := s.Checks(&plan.Record{Input: in})[0].Command
		s.ApproveCheck(focused)
		s.ApproveCheck("go test ./...")
		before := treeSum(t, root)
		rec, err := s.PlanVerified(context.Background(), in, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := rec.Verification
		if v.State != plan.VerifyVerified || len(v.Attempts) != 1 || v.Attempts[0].State != plan.VerifyFailed || !strings.Contains(v.Attempts[0].Output, "TestMax") {
			t.Fatalf("verification = %s", dump(v))
		}
		sent := repairSent(t, srv)
		if !strings.Contains(sent, "--- FAIL: TestMax") || !strings.Contains(sent, "Verification of your previous plan") {
			t.Error("the failure output did not reach the model")
		}
		sameSums(t, before, treeSum(t, root))
	})
	t.Run("a fix that breaks another test is partly verified", func(t *testing.T) {
		s, _, root := goFixture(t, goReply(t, breaksMin))
		s.ApproveCheck(s.Checks(&plan.Record{Input: in})[0].Command)
		s.ApproveCheck("go test ./...")
		before := treeSum(t, root)
		rec, err := s.PlanVerified(context.Background(), in, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := rec.Verification
		if v.State != plan.VerifyPartly || strings.Join(v.NewFailures, ",") != "example.com/mm/mm.TestMin" {
			b, _ := json.MarshalIndent(v, "", " ")
			t.Fatalf("verification = %s", b)
		}
		sameSums(t, before, treeSum(t, root))
	})
}

// TestVerifiedPlanThatChangesTests: a plan that guts the failing test passes
// its checks; the verdict says the plan changed tests.
func TestVerifiedPlanThatChangesTests(t *testing.T) {
	gut := reply(t, func(m map[string]any) {
		m["summary"] = "make the test pass"
		m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "mm/mm_test.go", "content": "package mm\n\nimport \"testing\"\n\nfunc TestMax(t *testing.T) {}\n\nfunc TestMin(t *testing.T) {}\n"}}}
		m["commands_to_run"] = []any{}
	})
	s, _, _ := goFixture(t, gut)
	in := plan.ProblemInput{Problem: "go test ./... fails:\n" + goFailure}
	s.ApproveCheck(s.Checks(&plan.Record{Input: in})[0].Command)
	rec, err := s.PlanVerified(context.Background(), in, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Verification.State != plan.VerifyVerified || !strings.Contains(rec.Verification.Reason, "changes tests") || !strings.Contains(rec.Verification.Reason, "mm/mm_test.go") {
		t.Fatalf("verification = %+v", rec.Verification)
	}
}
