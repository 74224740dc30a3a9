package app

import (
	"strings"
	"testing"

	"fixplan/plan"
)

// The window's estimate next to Fix: worked out by the Go side, nothing sent, no
// progress shown; a ceiling saved in Settings turns it to a warning, and Fix then
// stops before anything is sent, with the error the window shows.
func TestEstimateAndCeilingThroughTheApp(t *testing.T) {
	const traceback = "Traceback (most recent call last):\n  File \"calc.py\", line 2, in divide\n    return a / b\nZeroDivisionError: division by zero\n"
	a, rt, _, srv := newApp(t)
	if _, err := a.Estimate(PlanRequest{Problem: traceback}); appErr(t, err).Code != plan.ErrInvalidInput {
		t.Fatalf("estimate without a project: %v", err)
	}
	if _, err := a.ChooseProject(); err != nil {
		t.Fatal(err)
	}
	est, err := a.Estimate(PlanRequest{Problem: traceback})
	if err != nil {
		t.Fatal(err)
	}
	if est.PromptTokens <= 0 || est.FirstTokens != est.PromptTokens+est.SchemaTokens+est.ReplyTokens || est.OverCeiling || est.FirstCost != nil ||
		len(est.Notes) == 0 || est.Notes[0] != "set prices in Settings to see a cost" {
		t.Fatalf("estimate = %+v", est)
	}
	if n := rt.count(EventPlanProgress); n != 0 {
		t.Errorf("the estimate showed progress (%d events)", n)
	}

	v, _ := a.GetSettings()
	v.MaxTokensPerPlan, v.PriceInput, v.PriceOutput = est.FirstTokens/2, 0.15, 0.6 // well under: a tool-version probe may finish in between
	if v, err = a.SaveSettings(v, ""); err != nil || v.MaxTokensPerPlan != est.FirstTokens/2 {
		t.Fatalf("save: %+v %v", v, err)
	}
	est, err = a.Estimate(PlanRequest{Problem: traceback})
	if err != nil || !est.OverCeiling || est.CeilingTokens != v.MaxTokensPerPlan || est.FirstCost == nil {
		t.Fatalf("estimate under the ceiling = %+v, %v", est, err)
	}
	_, err = a.Plan(PlanRequest{Problem: traceback})
	if ae := appErr(t, err); ae.Code != plan.ErrCeiling || !strings.Contains(ae.Message, "nothing was sent") || !strings.Contains(ae.Hint, "raise max tokens per plan in Settings") {
		t.Fatalf("plan over the ceiling = %+v", ae)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d request(s) sent", n)
	}
	// a cost ceiling needs a price: refused with what to do
	v.PriceInput, v.PriceOutput, v.MaxCostPerPlan = 0, 0, 0.5
	if _, err := a.SaveSettings(v, ""); appErr(t, err).Code != plan.ErrInvalidInput || !strings.Contains(err.Error(), "max cost per plan 0.5 cannot apply") {
		t.Fatalf("a cost ceiling without prices was saved: %v", err)
	}
}
