package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
	"fixplan/plan"
)

// TestVerifyPlanThroughTheApp: the window lists the checks that could verify a
// plan, the user ticks one, the plan is checked in a scratch copy (the project
// is not touched), the approval is listed in Settings and can be revoked.
func TestVerifyPlanThroughTheApp(t *testing.T) {
	a, _, root, _ := newApp(t, llmtest.Reply{Content: planReply})
	if _, err := a.OpenProject(root); err != nil {
		t.Fatal(err)
	}
	rec, err := a.Plan(PlanRequest{Problem: "Traceback (most recent call last):\n  File \"calc.py\", line 2, in divide\n    return a / b\nZeroDivisionError: division by zero\n"})
	if err != nil {
		t.Fatal(err)
	}
	checks, err := a.PlanChecks(rec.ID)
	if err != nil || len(checks) == 0 || checks[0].Command != "echo ok" || checks[0].Approved {
		t.Fatalf("checks = %+v, %v", checks, err)
	}
	check := `python3 -c "import calc; assert calc.divide(1, 0) is None"`
	before, _ := os.ReadFile(filepath.Join(root, "calc.py"))
	v, err := a.VerifyPlan(rec.ID, []string{check})
	if err != nil {
		t.Fatal(err)
	}
	if v.Verification == nil || v.Verification.State != plan.VerifyVerified || len(v.Verification.Commands) != 1 {
		t.Fatalf("verification = %+v", v.Verification)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(after) != string(before) {
		t.Fatal("verification changed the project")
	}
	if _, err := os.Stat(filepath.Join(root, "notes.txt")); !os.IsNotExist(err) {
		t.Fatal("verification created a file in the project")
	}
	approved, _ := a.ApprovedChecks()
	if strings.Join(approved, "|") != check {
		t.Fatalf("approved = %v", approved)
	}
	if err := a.RevokeCheck(check); err != nil {
		t.Fatal(err)
	}
	if approved, _ := a.ApprovedChecks(); len(approved) != 0 {
		t.Fatalf("after revoke: %v", approved)
	}
	// Without an approved check the plan is recorded as not verified, naming the candidates.
	v, err = a.VerifyPlan(rec.ID, nil)
	if err != nil || v.Verification.State != plan.VerifyNotVerified || !strings.Contains(v.Verification.Reason, "echo ok") {
		t.Fatalf("unapproved: %+v %v", v.Verification, err)
	}
}

// TestModelCommandRunsOnlyOnItsRunButton: the window lists the model's command
// labelled as the model's; verifying without ticking it does not run it (it
// would create a marker file); only its Run button, the user's approval of that
// exact command, does.
func TestModelCommandRunsOnlyOnItsRunButton(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "MARKER")
	cmd := "touch " + marker
	a, _, root, _ := newApp(t, llmtest.Reply{Content: strings.ReplaceAll(planReply, "echo ok", cmd)})
	if _, err := a.OpenProject(root); err != nil {
		t.Fatal(err)
	}
	rec, err := a.Plan(PlanRequest{Problem: "File \"calc.py\", line 2, in divide\nZeroDivisionError: division by zero\n"})
	if err != nil {
		t.Fatal(err)
	}
	checks, err := a.PlanChecks(rec.ID)
	if err != nil || len(checks) != 1 || checks[0].Command != cmd || checks[0].Source != "proposed by the model" || !checks[0].FromProject || checks[0].Approved {
		t.Fatalf("checks = %+v, %v", checks, err)
	}
	v, err := a.VerifyPlan(rec.ID, nil)
	if err != nil || v.Verification.State != plan.VerifyNotVerified || !strings.Contains(v.Verification.Reason, cmd+" (proposed by the model)") {
		t.Fatalf("verify: %+v %v", v.Verification, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("verifying ran the model's command nobody approved")
	}
	if _, err := a.RunCommand(rec.ID, cmd); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the Run button did not run the command")
	}
}
