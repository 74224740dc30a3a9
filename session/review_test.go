package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fixplan/apply"
	"fixplan/plan"
)

// longCalc is calc.py with enough lines that a change at the top and one at the
// bottom are two hunks.
func longCalc(top, bottom string) string {
	var b strings.Builder
	b.WriteString("def divide(a, b):\n" + top + "    return a / b\n")
	for i := 1; i <= 14; i++ {
		b.WriteString("# filler " + string(rune('a'+i)) + "\n")
	}
	b.WriteString(bottom + "VERSION = 1\n")
	return b.String()
}

func TestReplanDescribesRejectedHunksAndEdits(t *testing.T) {
	proposed := longCalc("    if b == 0:\n        return None\n", "# bottom change by the model\n")
	first := reply(t, func(m map[string]any) {
		m["proposed_changes"].(map[string]any)["actions"] = []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "calc.py", "content": proposed},
			map[string]any{"kind": "UPDATE_FILE", "path": "test_calc.py", "content": "from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) == 0\n"},
		}
	})
	f := newFixture(t, nil, first, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	if err := os.WriteFile(filepath.Join(f.root, "calc.py"), []byte(longCalc("", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Changes) != 2 {
		t.Fatalf("changes = %+v warnings %q", rec.Changes, rec.Warnings)
	}
	byHand := "from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) is None  # kept by hand\n"
	// The user rejects the first hunk of calc.py and writes test_calc.py by hand.
	pv, err := f.s.PreviewSelection(rec.ID, nil, []apply.FileChoice{{Path: "calc.py", Hunks: []int{2}}, {Path: "test_calc.py", Content: &byHand}})
	if err != nil || len(pv) != 2 || strings.Contains(pv[0].Diff+pv[1].Diff, "if b == 0") {
		t.Fatalf("preview = %+v, %v", pv, err)
	}
	if _, err := f.s.ApplySelection(context.Background(), rec.ID, nil, nil,
		[]apply.FileChoice{{Path: "calc.py", Hunks: []int{2}}, {Path: "test_calc.py", Content: &byHand}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(f.root, "calc.py")); string(got) != longCalc("", "# bottom change by the model\n") {
		t.Errorf("calc.py = %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(f.root, "test_calc.py")); string(got) != byHand {
		t.Errorf("test_calc.py = %q", got)
	}
	// Fix again: the next request tells the model what the operator did.
	if _, err := f.s.Plan(context.Background(), plan.ProblemInput{Problem: "still failing", Previous: rec.ID}); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	user := reqs[len(reqs)-1].LastUser()
	for _, want := range []string{
		"OPERATOR REVIEW OF THE EARLIER PLAN",
		"calc.py: the operator rejected this hunk (1 of 2)",
		"+    if b == 0:",
		"(the other 1 hunk(s) of calc.py were applied)",
		"test_calc.py: the operator changed your proposed content to their own version",
		"-    assert divide(1, 0) == 0",
		"+    assert divide(1, 0) is None  # kept by hand",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("the re-plan request lacks %q:\n%s", want, user)
		}
	}
	if strings.Contains(user, "bottom change by the model\n    ") && strings.Contains(user, "rejected this hunk (2 of 2)") {
		t.Error("an accepted hunk is described as rejected")
	}
	noKeyInMessages(t, f.srv)
}

// A plan applied as proposed adds nothing to the re-plan request.
func TestReplanWithoutReview(t *testing.T) {
	f := newFixture(t, nil, reply(t, nil), reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Apply(context.Background(), rec.ID, nil, nil); err != nil {
		t.Fatal(err)
	}
	if saved, _ := f.s.Load(rec.ID); saved.Review != nil {
		t.Errorf("review of a plan applied as proposed = %+v", saved.Review)
	}
	if _, err := f.s.Plan(context.Background(), plan.ProblemInput{Problem: "again", Previous: rec.ID}); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if user := reqs[len(reqs)-1].LastUser(); strings.Contains(user, "OPERATOR REVIEW") {
		t.Errorf("review section without a review:\n%s", user)
	}
}

// A draft the user reviewed but did not apply: re-planning it with the review
// tells the model the same way, and nothing is written.
func TestReplanOfReviewedDraft(t *testing.T) {
	proposed := longCalc("    if b == 0:\n        return None\n", "# bottom change by the model\n")
	first := reply(t, func(m map[string]any) {
		m["proposed_changes"].(map[string]any)["actions"] = []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "calc.py", "content": proposed},
			map[string]any{"kind": "UPDATE_FILE", "path": "test_calc.py", "content": "from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) == 0\n"},
		}
	})
	f := newFixture(t, nil, first, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	if err := os.WriteFile(filepath.Join(f.root, "calc.py"), []byte(longCalc("", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	// Hunk 2 of calc.py rejected, test_calc.py unticked.
	rv, err := f.s.ReviewOf(rec.ID, []string{"calc.py"}, []apply.FileChoice{{Path: "calc.py", Hunks: []int{1}}})
	if err != nil || rv == nil {
		t.Fatalf("review = %+v, %v", rv, err)
	}
	if none, err := f.s.ReviewOf(rec.ID, nil, nil); err != nil || none != nil {
		t.Errorf("taking everything as proposed: review = %+v, %v", none, err)
	}
	if _, err := f.s.Plan(context.Background(), plan.ProblemInput{Problem: "again", Previous: rec.ID, Review: rv}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(f.root, "calc.py")); string(got) != longCalc("", "") {
		t.Error("a re-plan of a reviewed draft wrote calc.py")
	}
	reqs := f.srv.Requests()
	user := reqs[len(reqs)-1].LastUser()
	for _, want := range []string{
		"OPERATOR REVIEW OF THE EARLIER PLAN (reviewed, not applied)",
		"calc.py: the operator rejected this hunk (2 of 2)",
		"+# bottom change by the model",
		"(the other 1 hunk(s) of calc.py were accepted)",
		"test_calc.py: the operator rejected your whole change to this file",
		"+    assert divide(1, 0) == 0",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("the re-plan request lacks %q:\n%s", want, user)
		}
	}
}

// Verify checks what the user chose: a proposal that breaks Min, rewritten by
// hand into the right fix, is verified as the user will apply it.
func TestVerifySelection(t *testing.T) {
	in := plan.ProblemInput{Problem: "go test ./... fails:\n" + goFailure}
	s, _, root := goFixture(t, goReply(t, breaksMin))
	s.ApproveCheck(s.Checks(&plan.Record{Input: in})[0].Command)
	s.ApproveCheck("go test ./...")
	before := treeSum(t, root)
	rec, err := s.Plan(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	proposed, err := s.VerifyPlan(context.Background(), rec.ID, nil)
	if err != nil || proposed.Verification.State != plan.VerifyPartly {
		t.Fatalf("the proposal as is: %+v, %v", proposed.Verification, err)
	}
	mine := rightMax
	chosen, err := s.VerifySelection(context.Background(), rec.ID, nil, nil, []apply.FileChoice{{Path: "mm/mm.go", Content: &mine}})
	if err != nil {
		t.Fatal(err)
	}
	v := chosen.Verification
	if v.State != plan.VerifyVerified || !strings.Contains(v.Reason, "about your choices") {
		t.Fatalf("verification of the edit = %+v", v)
	}
	if c := proposed.Verification.Covers; c == nil || c.Scope != plan.CoversProposed {
		t.Errorf("the verdict of the proposal covers %+v, want the plan as proposed", c)
	}
	sum := sha256.Sum256([]byte(mine))
	want := &plan.VerifiedSelection{Scope: plan.CoversSelection, Paths: []string{"mm/mm.go"}, Files: []plan.VerifiedFile{{Path: "mm/mm.go", ContentSHA256: hex.EncodeToString(sum[:])}}}
	if !reflect.DeepEqual(v.Covers, want) {
		t.Errorf("the verdict of the edit covers %+v, want %+v", v.Covers, want)
	}
	sameSums(t, before, treeSum(t, root))
	if _, err := s.VerifySelection(context.Background(), rec.ID, nil, nil, []apply.FileChoice{{Path: "mm/mm.go", Hunks: []int{9}}}); err == nil {
		// an unknown hunk is reported in the verdict (the changes cannot be computed)
		again, _ := s.Load(rec.ID)
		if again.Verification.State != plan.VerifyNotVerified || !strings.Contains(again.Verification.Reason, "hunk 9 does not exist") {
			t.Errorf("unknown hunk: %+v", again.Verification)
		}
	}
}

// A verdict records what it covers: choices that take everything as proposed are
// the plan as proposed; a file left out or narrowed makes it the user's selection,
// in the plan's order whatever order the choices came in.
func TestVerdictCovers(t *testing.T) {
	rec := &plan.Record{Changes: []plan.FileChange{{Path: "a.go"}, {Path: "b.go"}, {Path: "c.go"}}}
	text := "mine\n"
	sum := sha256.Sum256([]byte(text))
	proposed := &plan.VerifiedSelection{Scope: plan.CoversProposed, Paths: []string{}, Files: []plan.VerifiedFile{}}
	for _, tc := range []struct {
		name string
		sel  *apply.Selection
		want *plan.VerifiedSelection
	}{
		{"as proposed", nil, proposed},
		{"every file ticked, nothing narrowed", &apply.Selection{Paths: []string{"c.go", "a.go", "b.go"}}, proposed},
		{"all by nil, a choice that narrows nothing", &apply.Selection{Files: []apply.FileChoice{{Path: "a.go"}}}, proposed},
		{"a file left out", &apply.Selection{Paths: []string{"c.go", "a.go"}},
			&plan.VerifiedSelection{Scope: plan.CoversSelection, Paths: []string{"a.go", "c.go"}, Files: []plan.VerifiedFile{}}},
		{"a hunk rejected and an own text", &apply.Selection{Files: []apply.FileChoice{{Path: "c.go", Content: &text}, {Path: "b.go", Hunks: []int{2}}}},
			&plan.VerifiedSelection{Scope: plan.CoversSelection, Paths: []string{"a.go", "b.go", "c.go"},
				Files: []plan.VerifiedFile{{Path: "b.go", Hunks: []int{2}}, {Path: "c.go", ContentSHA256: hex.EncodeToString(sum[:])}}}},
	} {
		if got := covers(rec, tc.sel); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: covers = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
