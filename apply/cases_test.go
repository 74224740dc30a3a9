package apply

import (
	"path/filepath"
	"testing"
	"time"

	"fixplan/internal/editcase"
	"fixplan/plan"
)

// TestCasesThroughTheEngine runs every edit-placement case of package edit
// (edit/testdata/cases, the ported suites of other tools among them) the way
// fixplan really applies it: the files written to a folder, the patch applied
// with ApplyPatch (what `fixplan patch` does) or the search/replace pairs as a
// plan's EDIT_FILE actions previewed, saved and applied, and the folder
// compared with the case's files after, byte for byte, or the refusal with the
// case's (nothing written). Placement notes are package edit's to check.
func TestCasesThroughTheEngine(t *testing.T) {
	cases, err := editcase.Load(filepath.Join("..", "edit", "testdata", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			files := map[string]string{}
			for p, b := range c.Files {
				files[p] = string(b)
			}
			root := tree(t, files)
			before := snapshot(t, root)
			e := open(t, root, nil)
			defer e.Close()
			var err error
			if c.Patch != "" {
				_, _, err = e.ApplyPatch(bg, c.Patch, false)
			} else {
				err = applyEdits(e, c.Pairs)
			}
			after := map[string][]byte{}
			for p, st := range snapshot(t, root) {
				if !st.dir {
					after[p] = []byte(st.data)
				}
			}
			if err != nil {
				if d := diffSnap(before, snapshot(t, root)); d != "" {
					t.Errorf("refused (%v), but the files changed:\n%s", err, d)
				}
			}
			for _, p := range c.Check(after, nil, err) {
				t.Error(p)
			}
		})
	}
}

// applyEdits applies search/replace pairs as the EDIT_FILE actions of a plan:
// previewed, saved as a draft and applied, as the session applies a plan.
func applyEdits(e *Engine, pairs []editcase.FilePairs) error {
	var actions []plan.Action
	for _, p := range pairs {
		actions = append(actions, plan.Action{Kind: plan.EditFile, Path: p.Path, Edits: p.Edits})
	}
	p := planOf(actions...)
	cs, err := e.Changes(&p)
	if err != nil {
		return err
	}
	rec := &plan.Record{ID: NewID(), CreatedAt: time.Now(), State: plan.StateDraft, Plan: p}
	for _, c := range cs {
		rec.Changes = append(rec.Changes, c.Preview())
	}
	if err := e.SavePlan(rec); err != nil {
		return err
	}
	_, err = e.ApplyPlan(bg, rec.ID, Selection{})
	return err
}
