package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fixplan/plan"
)

// A pasted problem over the cap is refused with what to do, before redaction or
// any model request; one just under it is accepted by the check.
func TestProblemTextIsBounded(t *testing.T) {
	pl := &Planner{} // the check comes before the planner uses any of its parts
	_, err := pl.Plan(context.Background(), plan.ProblemInput{Problem: strings.Repeat("abcdefghij", MaxProblemBytes/10+1)})
	var pe *plan.Error
	if !errors.As(err, &pe) || pe.Code != plan.ErrInvalidInput || !strings.Contains(pe.Msg, "1.0 MiB") || !strings.Contains(pe.Hint, "log") {
		t.Fatalf("err = %v", err)
	}
	if err := checkProblem(plan.ProblemInput{Problem: strings.Repeat("x", MaxProblemBytes)}); err != nil {
		t.Fatalf("a problem of exactly the cap: %v", err)
	}
	if err := checkProblem(plan.ProblemInput{Problem: " \n"}); err == nil {
		t.Fatal("an empty problem was accepted")
	}
}
