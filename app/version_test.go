package app

import (
	"testing"

	"fixplan/llm/llmtest"
)

// TestVersionAboutAndPlans: the bound Version() is what main stamped, and every plan
// the app makes records it.
func TestVersionAboutAndPlans(t *testing.T) {
	a, _, _, _ := newApp(t, llmtest.Reply{Content: planReply})
	if v := a.Version(); v != "dev" {
		t.Fatalf("unstamped Version() = %q, want dev", v)
	}
	a.d.Version = "1.2.3-test"
	if v := a.Version(); v != "1.2.3-test" {
		t.Fatalf("Version() = %q", v)
	}
	if _, err := a.ChooseProject(); err != nil {
		t.Fatal(err)
	}
	rec, err := a.Plan(PlanRequest{Problem: "Traceback (most recent call last):\n  File \"calc.py\", line 2, in divide\nZeroDivisionError: division by zero\n"})
	if err != nil {
		t.Fatal(err)
	}
	saved, err := a.LoadPlan(rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.FixplanVersion != "1.2.3-test" || saved.FixplanVersion != "1.2.3-test" {
		t.Fatalf("plan records version %q (saved %q), want 1.2.3-test", rec.FixplanVersion, saved.FixplanVersion)
	}
}
