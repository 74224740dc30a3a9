package apply

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// TestEditFileThroughEngine: an EDIT_FILE action previews as an update with its
// placements, applies through the transaction, and a refused pair changes nothing.
func TestEditFileThroughEngine(t *testing.T) {
	root := tree(t, map[string]string{"calc.go": calc, "other.go": "package calc\n"})
	e := open(t, root, nil)
	edit := func(path string, e ...plan.Edit) plan.Action {
		return plan.Action{Kind: plan.EditFile, Path: path, Edits: e}
	}
	bad := planOf(edit("other.go", plan.Edit{Search: "package calc", Replace: "package calc // ok"}),
		edit("calc.go", plan.Edit{Search: "nothing like this", Replace: "x"}))
	before := snapshot(t, root)
	if _, err := e.Changes(&bad); plan.CodeOf(err) != plan.ErrPatchApplyFailed {
		t.Fatalf("err = %v, want ERR_PATCH_APPLY_FAILED", err)
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("a refused plan changed files:\n%s", d)
	}
	if _, err := e.Changes(&plan.Plan{ProposedChanges: &plan.ProposedChanges{Actions: []plan.Action{edit("gone.go", plan.Edit{Search: "a", Replace: "b"})}}}); plan.CodeOf(err) != plan.ErrNotFound {
		t.Fatalf("edit of a missing file: err = %v, want ERR_NOT_FOUND", err)
	}
	rec := draft(t, e, planOf(edit("calc.go", plan.Edit{Search: "\treturn a / b", Replace: "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b"})))
	if len(rec.Changes) != 1 || rec.Changes[0].Op != plan.OpUpdate || len(rec.Changes[0].Placement) != 1 || !strings.Contains(rec.Changes[0].Diff, "+\tif b == 0 {") {
		t.Fatalf("changes = %+v", rec.Changes)
	}
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(root, "calc.go"))
	if !strings.Contains(string(b), "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b\n") {
		t.Fatalf("calc.go = %q", b)
	}
}
