package app

import (
	"strings"
	"testing"

	"fixplan/llm/llmtest"
	"fixplan/plan"
)

func TestPlanOnlyThenWriteChangesThroughTheApp(t *testing.T) {
	const traceback = "Traceback (most recent call last):\n  File \"calc.py\", line 2, in divide\n    return a / b\nZeroDivisionError: division by zero\n"
	approach := `{"mode":"fix-plan","summary":"guard b","questions":[],"context_requests":[],"plan":[{"step":"change","details":"return None when b is 0"}],
"proposed_changes":null,"patch":null,"commands_to_run":["echo ok"],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	written := strings.Replace(planReply, `"mode":"fix-plan"`, `"mode":"apply"`, 1)
	a, _, _, srv := newApp(t, llmtest.Reply{Content: approach}, llmtest.Reply{Content: written})
	if _, err := a.ChooseProject(); err != nil {
		t.Fatal(err)
	}
	approved, err := a.Plan(PlanRequest{Problem: traceback, PlanOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(approved.Changes) != 0 || !approved.Input.PlanOnly {
		t.Fatalf("plan-only record = %+v", approved)
	}
	rec, err := a.WriteChanges(approved.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.ApprovedPlan != approved.ID || rec.Plan.Mode != plan.ModeApply || len(rec.Changes) != 2 {
		t.Fatalf("written record: approved %q mode %s %d changes", rec.ApprovedPlan, rec.Plan.Mode, len(rec.Changes))
	}
	if u := srv.Requests()[1].LastUser(); !strings.Contains(u, `mode "apply"`) || !strings.Contains(u, "1. change: return None when b is 0") {
		t.Errorf("the second request is not the apply-mode request:\n%s", u)
	}
	hist, err := a.History()
	if err != nil || len(hist) != 2 || hist[0].ApprovedPlan != approved.ID || !hist[1].PlanOnly {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	// The written plan has changes: writing them again is refused, in the window's error shape.
	if _, err := a.WriteChanges(rec.ID); appErr(t, err).Code != plan.ErrInvalidInput {
		t.Fatalf("write changes of a plan with changes: %v", err)
	}
}
