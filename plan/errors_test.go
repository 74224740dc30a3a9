package plan

import (
	"errors"
	"fmt"
	"testing"
)

func TestForeignPlan(t *testing.T) {
	err := fmt.Errorf("load: %w", ForeignPlan("20260101-120000.000001-abcdef", "; its commands are never run", "make your own plan"))
	if CodeOf(err) != ErrForeignState {
		t.Fatalf("code = %q, want %s", CodeOf(err), ErrForeignState)
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("%v is not a *plan.Error", err)
	}
	if want := "plan 20260101-120000.000001-abcdef was not made by your fixplan; its commands are never run"; pe.Msg != want {
		t.Errorf("Msg = %q, want %q", pe.Msg, want)
	}
	if pe.Hint != "make your own plan" {
		t.Errorf("Hint = %q", pe.Hint)
	}
}
