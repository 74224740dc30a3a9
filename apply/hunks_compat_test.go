package apply

import (
	"strings"
	"testing"

	"fixplan/plan"
)

// A draft previewed before the new-side starts were counted right stored a
// hunk header whose "+c" was too small; its hunks are the same as now, so
// reviewing it hunk by hunk and applying it still work instead of failing as
// "changed since the preview" (which stored diffs pass is edit.SameDiff's
// rule, tested in package edit).
func TestDraftWithOldHunkHeadersStillReviewable(t *testing.T) {
	// Two hunks: a line added at the top moves the second one down by a line.
	after := "// Package calc does sums.\n" + calc + "\n// end\n"
	root := tree(t, map[string]string{"calc.go": calc})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "calc.go", str(after))))
	now := rec.Changes[0].Diff
	old := strings.Replace(now, "@@ -9,3 +10,5 @@", "@@ -9,3 +6,5 @@", 1)
	if old == now {
		t.Fatalf("the preview has no hunk @@ -9,3 +10,5 @@:\n%s", now)
	}
	rec.Changes[0].Diff = old
	if err := e.SavePlan(rec); err != nil {
		t.Fatal(err)
	}
	sel := Selection{Files: []FileChoice{{Path: "calc.go", Hunks: []int{2}}}}
	cs, err := e.SelectedChanges(rec.ID, sel)
	if err != nil {
		t.Fatalf("a draft with the old headers: %v", err)
	}
	if want := calc + "\n// end\n"; len(cs) != 1 || string(cs[0].After) != want || !strings.Contains(cs[0].Preview().Diff, "@@ -9,3 +9,5 @@") {
		t.Errorf("hunk 2 alone gives %d changes, want calc.go = %q", len(cs), want)
	}
	if _, err := e.ApplyPlan(bg, rec.ID, sel); err != nil {
		t.Fatalf("applying a draft with the old headers: %v", err)
	}
	if got := read(t, root, "calc.go"); got != calc+"\n// end\n" {
		t.Errorf("calc.go with hunk 2 applied = %q", got)
	}
}
