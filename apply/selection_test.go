package apply

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

func reviewOf(t *testing.T, e *Engine, id string) *plan.Review {
	t.Helper()
	rec, err := e.LoadPlan(id)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Review
}

func TestApplyPlanHunksAndEdits(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": lines(20, nil), "b.txt": "one\ntwo\n", "c.txt": "keep\n"})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(
		act(plan.UpdateFile, "a.txt", str(lines(20, map[int]string{2: "TWO\n", 18: "EIGHTEEN\n"}))),
		act(plan.UpdateFile, "b.txt", str("one\n2\n")),
		act(plan.UpdateFile, "c.txt", str("changed\n")),
	))
	res, err := e.ApplyPlan(bg, rec.ID, Selection{Paths: []string{"a.txt", "b.txt"}, Files: []FileChoice{
		{Path: "a.txt", Hunks: []int{2}},
		{Path: "b.txt", Content: str("one\ntwo, by hand\n")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, root, "a.txt"), lines(20, map[int]string{18: "EIGHTEEN\n"}); got != want {
		t.Errorf("a.txt = %q, want %q", got, want)
	}
	if got := read(t, root, "b.txt"); got != "one\ntwo, by hand\n" {
		t.Errorf("b.txt = %q", got)
	}
	if got := read(t, root, "c.txt"); got != "keep\n" {
		t.Errorf("unticked c.txt = %q", got)
	}
	// What was applied is shown as it was written.
	for _, a := range res.Applied {
		if a.Path == "a.txt" && (strings.Contains(a.Diff, "TWO") || !strings.Contains(a.Diff, "EIGHTEEN")) {
			t.Errorf("applied diff of a.txt:\n%s", a.Diff)
		}
		if a.Path == "b.txt" && !strings.Contains(a.Diff, "+two, by hand") {
			t.Errorf("applied diff of b.txt:\n%s", a.Diff)
		}
	}
	rv := reviewOf(t, e, rec.ID)
	if rv == nil || len(rv.Files) != 3 {
		t.Fatalf("review = %+v", rv)
	}
	for _, f := range rv.Files {
		switch f.Path {
		case "a.txt":
			if f.Hunks != 2 || len(f.Rejected) != 1 || f.Rejected[0] != 1 || f.Edited || f.Unticked {
				t.Errorf("a.txt review = %+v", f)
			}
		case "b.txt":
			if !f.Edited || !strings.Contains(f.EditDiff, "-2\n") || !strings.Contains(f.EditDiff, "+two, by hand\n") {
				t.Errorf("b.txt review = %+v", f)
			}
			// One file in two versions: both sides are titled by its path, not as a rename.
			if !strings.HasPrefix(f.EditDiff, "--- b.txt\n+++ b.txt\n") {
				t.Errorf("b.txt's edit diff is titled %q", strings.SplitN(f.EditDiff, "@@", 2)[0])
			}
		case "c.txt":
			if !f.Unticked {
				t.Errorf("c.txt review = %+v", f)
			}
		}
	}
	// One transaction: undo puts every file back.
	if _, err := e.Undo(bg); err != nil {
		t.Fatal(err)
	}
	if read(t, root, "a.txt") != lines(20, nil) || read(t, root, "b.txt") != "one\ntwo\n" {
		t.Error("undo did not restore the files")
	}
}

func TestApplyPlanEditKeepsCRLF(t *testing.T) {
	root := tree(t, map[string]string{"w.txt": "a\r\nb\r\n"})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "w.txt", str("a\nB\n"))))
	// An editor gives LF lines; the file stays CRLF.
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{Files: []FileChoice{{Path: "w.txt", Content: str("a\nb, edited\n")}}}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "w.txt"); got != "a\r\nb, edited\r\n" {
		t.Errorf("w.txt = %q", got)
	}
}

func TestApplyPlanSelectionRefusals(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": lines(20, nil), "old.txt": "x\n"})
	before := snapshot(t, root)
	e := open(t, root, nil)
	rec := draft(t, e, planOf(
		act(plan.UpdateFile, "a.txt", str(lines(20, map[int]string{2: "TWO\n", 18: "EIGHTEEN\n"}))),
		act(plan.DeleteFile, "old.txt", nil),
	))
	tests := []struct {
		name string
		sel  Selection
		code plan.Code
		want string
	}{
		{"unknown hunk", Selection{Files: []FileChoice{{Path: "a.txt", Hunks: []int{3}}}}, plan.ErrInvalidInput, "hunk 3 does not exist"},
		{"unknown path", Selection{Files: []FileChoice{{Path: "zzz.txt", Hunks: []int{1}}}}, plan.ErrInvalidInput, "does not change zzz.txt"},
		{"not ticked", Selection{Paths: []string{"old.txt"}, Files: []FileChoice{{Path: "a.txt", Hunks: []int{1}}}}, plan.ErrInvalidInput, "not ticked"},
		{"hunks and edit", Selection{Files: []FileChoice{{Path: "a.txt", Hunks: []int{1}, Content: str("x\n")}}}, plan.ErrInvalidInput, "both"},
		{"edit a deletion", Selection{Files: []FileChoice{{Path: "old.txt", Content: str("x\n")}}}, plan.ErrInvalidInput, "no content to edit"},
		{"binary edit", Selection{Files: []FileChoice{{Path: "a.txt", Content: str("a\x00b")}}}, plan.ErrBinaryContent, "looks binary"},
		{"non-UTF-8 edit", Selection{Files: []FileChoice{{Path: "a.txt", Content: str("caf\xe9\n")}}}, plan.ErrNonUTF8File, "not UTF-8"},
		{"too large edit", Selection{Files: []FileChoice{{Path: "a.txt", Content: str(strings.Repeat("x\n", maxUserContent))}}}, plan.ErrInvalidInput, "at most"},
		{"redacted mark", Selection{Files: []FileChoice{{Path: "a.txt", Content: str("key = [REDACTED]\n")}}}, plan.ErrInvalidInput, "[REDACTED]"},
		{"every hunk rejected", Selection{Paths: []string{"a.txt"}, Files: []FileChoice{{Path: "a.txt", Hunks: []int{}}}}, plan.ErrInvalidInput, "every hunk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.ApplyPlan(bg, rec.ID, tt.sel)
			if plan.CodeOf(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v (%s), want %s %q", err, plan.CodeOf(err), tt.code, tt.want)
			}
			if _, err := e.PreviewSelection(rec.ID, tt.sel); tt.name != "redacted mark" && tt.name != "every hunk rejected" && plan.CodeOf(err) != tt.code {
				t.Errorf("PreviewSelection: %v", err)
			}
			if d := diffSnap(before, snapshot(t, root)); d != "" {
				t.Fatalf("files changed:\n%s", d)
			}
		})
	}
	// The base hashes still guard staleness with a selection.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte(lines(21, nil)), 0o644)
	sel := Selection{Files: []FileChoice{{Path: "a.txt", Hunks: []int{1}}}}
	if _, err := e.PreviewSelection(rec.ID, sel); plan.CodeOf(err) != plan.ErrBaseMismatch {
		t.Errorf("stale preview: %v", err)
	}
	if _, err := e.ApplyPlan(bg, rec.ID, sel); plan.CodeOf(err) != plan.ErrBaseMismatch {
		t.Errorf("stale apply: %v", err)
	}
}

func TestPreviewSelection(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": lines(20, nil), "b.txt": "one\n"})
	before := snapshot(t, root)
	e := open(t, root, nil)
	rec := draft(t, e, planOf(
		act(plan.UpdateFile, "a.txt", str(lines(20, map[int]string{2: "TWO\n", 18: "EIGHTEEN\n"}))),
		act(plan.UpdateFile, "b.txt", str("uno\n")),
	))
	pv, err := e.PreviewSelection(rec.ID, Selection{Files: []FileChoice{
		{Path: "a.txt", Hunks: []int{1}},
		{Path: "b.txt", Content: str("one\n")}, // edited back to the file as it is: nothing to write
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pv) != 1 || pv[0].Path != "a.txt" || !strings.Contains(pv[0].Diff, "+TWO") || strings.Contains(pv[0].Diff, "EIGHTEEN") {
		t.Fatalf("preview = %+v", pv)
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("a preview wrote files:\n%s", d)
	}
	// The edit is flagged like a model's would be.
	root2 := tree(t, map[string]string{"c.txt": "x\n"})
	e2 := open(t, root2, nil)
	rec2 := draft(t, e2, planOf(act(plan.UpdateFile, "c.txt", str("y\n"))))
	pv, err = e2.PreviewSelection(rec2.ID, Selection{Files: []FileChoice{{Path: "c.txt", Content: str("token = [REDACTED]\n")}}})
	if err != nil || len(pv) != 1 || len(pv[0].Flags) == 0 || !strings.Contains(pv[0].Flags[0], "[REDACTED]") {
		t.Fatalf("preview = %+v, %v", pv, err)
	}
}

func TestProposal(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "one\r\ntwo\r\n", "old.txt": "x\n"})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "a.txt", str("one\nTWO\n")), act(plan.CreateFile, "n.txt", str("new\n")), act(plan.DeleteFile, "old.txt", nil)))
	before, after, err := e.Proposal(rec.ID, "a.txt")
	if err != nil || before != "one\r\ntwo\r\n" || after != "one\r\nTWO\r\n" {
		t.Errorf("a.txt: %q %q %v", before, after, err)
	}
	if before, after, err := e.Proposal(rec.ID, "n.txt"); err != nil || before != "" || after != "new\n" {
		t.Errorf("n.txt: %q %q %v", before, after, err)
	}
	if _, _, err := e.Proposal(rec.ID, "old.txt"); plan.CodeOf(err) != plan.ErrInvalidInput {
		t.Errorf("deleted file: %v", err)
	}
	if _, _, err := e.Proposal(rec.ID, "zzz"); plan.CodeOf(err) != plan.ErrInvalidInput {
		t.Errorf("unknown file: %v", err)
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed\n"), 0o644)
	if _, _, err := e.Proposal(rec.ID, "a.txt"); plan.CodeOf(err) != plan.ErrBaseMismatch {
		t.Errorf("stale: %v", err)
	}
}
