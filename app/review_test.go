package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/apply"
	"fixplan/llm/llmtest"
)

// The window's review round trip: the edited text and the hunk choices are
// previewed and applied as chosen; re-planning a reviewed draft tells the model.
func TestReviewThroughTheBindings(t *testing.T) {
	a, _, root, srv := newApp(t, llmtest.Reply{Content: planReply}, llmtest.Reply{Content: planReply}, llmtest.Reply{Content: planReply})
	if _, err := a.ChooseProject(); err != nil {
		t.Fatal(err)
	}
	tb := "Traceback (most recent call last):\n  File \"calc.py\", line 2, in divide\n    return a / b\nZeroDivisionError: division by zero\n"
	rec, err := a.Plan(PlanRequest{Problem: tb})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := a.ProposedText(rec.ID, "calc.py", nil)
	if err != nil || pr.Before != "def divide(a, b):\n    return a / b\n" || !strings.Contains(pr.After, "if b else None") {
		t.Fatalf("proposed = %+v, %v", pr, err)
	}
	if none, err := a.ProposedText(rec.ID, "calc.py", []int{}); err != nil || none.After != pr.Before {
		t.Errorf("with no hunk accepted the text to edit is the file as it is: %+v, %v", none, err)
	}
	if _, err := a.ProposedText(rec.ID, "calc.py", []int{2}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("unknown hunk: %v", err)
	}
	if _, err := a.ProposedText(rec.ID, "nope.py", nil); err == nil || !strings.Contains(err.Error(), "ERR_INVALID_INPUT") {
		t.Errorf("unknown path: %v", err)
	}
	mine := "def divide(a, b):\n    return 0 if not b else a / b\n"
	pv, err := a.PreviewSelection(ApplyRequest{PlanID: rec.ID, Paths: []string{"calc.py"}, Files: []apply.FileChoice{{Path: "calc.py", Content: &mine}}})
	if err != nil || len(pv) != 1 || !strings.Contains(pv[0].Diff, "+    return 0 if not b else a / b") {
		t.Fatalf("preview = %+v, %v", pv, err)
	}
	bad := "[REDACTED]\n"
	pv, err = a.PreviewSelection(ApplyRequest{PlanID: rec.ID, Paths: []string{"calc.py"}, Files: []apply.FileChoice{{Path: "calc.py", Content: &bad}}})
	if err != nil || len(pv) != 1 || len(pv[0].Flags) == 0 {
		t.Fatalf("an edit writing [REDACTED] is flagged in the preview: %+v, %v", pv, err)
	}

	// Re-plan the draft with notes.txt unticked and calc.py edited: the model is told.
	if _, err := a.Plan(PlanRequest{Problem: tb, Previous: rec.ID, Review: &ReviewRequest{Paths: []string{"calc.py"}, Files: []apply.FileChoice{{Path: "calc.py", Content: &mine}}}}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	user := reqs[len(reqs)-1].LastUser()
	for _, want := range []string{"OPERATOR REVIEW OF THE EARLIER PLAN (reviewed, not applied)", "notes.txt: the operator rejected your whole change", "calc.py: the operator changed your proposed content", "+    return 0 if not b else a / b"} {
		if !strings.Contains(user, want) {
			t.Errorf("re-plan request lacks %q:\n%s", want, user)
		}
	}
	// A stale draft is still re-planned (the review is left out then).
	os.WriteFile(filepath.Join(root, "calc.py"), []byte("def divide(a, b):\n    return a // b\n"), 0o644)
	if _, err := a.Plan(PlanRequest{Problem: tb, Previous: rec.ID, Review: &ReviewRequest{Paths: []string{"calc.py"}}}); err != nil {
		t.Fatalf("re-plan of a stale reviewed draft: %v", err)
	}
	os.WriteFile(filepath.Join(root, "calc.py"), []byte("def divide(a, b):\n    return a / b\n"), 0o644)

	res, err := a.Apply(ApplyRequest{PlanID: rec.ID, Paths: []string{"calc.py"}, Files: []apply.FileChoice{{Path: "calc.py", Content: &mine}}})
	if err != nil || len(res.Applied) != 1 {
		t.Fatalf("apply = %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != mine {
		t.Errorf("calc.py = %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "notes.txt")); !os.IsNotExist(err) {
		t.Error("the unticked notes.txt was written")
	}
}
