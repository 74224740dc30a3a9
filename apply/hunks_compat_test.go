package apply

import (
	"strings"
	"testing"

	"fixplan/plan"
)

// A draft previewed before the new-side starts were counted right stored
// "@@ -24,3 +20,5 @@"; its hunks are the same as now, so reviewing it hunk by
// hunk and applying it still work instead of failing as "changed since the
// preview". A stored diff whose hunks differ (an old line, a body line) still
// does.
func TestDraftWithOldHunkHeadersStillReviewable(t *testing.T) {
	after := strings.Replace(strings.Replace(cartPy, "        self.discount = percent\n", "        \"\"\"Doc.\"\"\"\n        self.discount = percent\n", 1),
		"total += price\n", "total += price * qty\n", 1) + "\n# end\n"
	root := tree(t, map[string]string{"cart.py": cartPy})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "cart.py", str(after))))
	now := rec.Changes[0].Diff
	old := strings.Replace(now, "@@ -24,3 +25,5 @@", "@@ -24,3 +20,5 @@", 1)
	if old == now {
		t.Fatalf("the preview has no hunk @@ -24,3 +25,5 @@:\n%s", now)
	}
	rec.Changes[0].Diff = old
	if err := e.SavePlan(rec); err != nil {
		t.Fatal(err)
	}
	cs, err := e.SelectedChanges(rec.ID, Selection{Files: []FileChoice{{Path: "cart.py", Hunks: []int{2}}}})
	if err != nil {
		t.Fatalf("a draft with the old headers: %v", err)
	}
	if want := cartPy + "\n# end\n"; len(cs) != 1 || string(cs[0].After) != want || !strings.Contains(cs[0].Preview().Diff, "@@ -24,3 +24,5 @@") {
		t.Errorf("hunk 2 alone gives %d changes, want cart.py = %q", len(cs), want)
	}
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{Files: []FileChoice{{Path: "cart.py", Hunks: []int{2}}}}); err != nil {
		t.Fatalf("applying a draft with the old headers: %v", err)
	}
	if got := read(t, root, "cart.py"); got != cartPy+"\n# end\n" {
		t.Errorf("cart.py with hunk 2 applied = %q", got)
	}
	for _, bad := range []string{
		strings.Replace(now, "@@ -24,3 +25,5 @@", "@@ -23,3 +25,5 @@", 1),
		strings.Replace(now, "+# end", "+# END", 1),
		strings.Replace(now, "@@ -24,3 +25,5 @@", "@@ -24,3 +25,4 @@", 1),
	} {
		if samePreview(bad, now) {
			t.Errorf("a stored diff with other hunks passes as the preview:\n%s", bad)
		}
	}
}
