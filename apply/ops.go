package apply

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"fixplan/plan"
)

// ApplyPlan applies the selected changes of a draft plan as one transaction and
// marks the plan applied (a plan is applied at most once). It refuses with
// ERR_ALREADY_APPLIED, ERR_BASE_MISMATCH (files changed since the preview, listed;
// nothing written), ERR_INVALID_INPUT (unknown or no selection), and the errors of
// Changes; a failed write is rolled back and reported as ERR_IO.
func (e *Engine) ApplyPlan(ctx context.Context, id string, sel Selection) (Result, error) {
	unlock, err := e.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	rec, err := e.LoadPlan(id)
	if err != nil {
		return Result{}, err
	}
	switch rec.State {
	case plan.StateDraft:
	case plan.StateFailed:
		return Result{}, plan.Errorf(plan.ErrNoPlan, "plan %s has no valid changes (the model's reply was invalid)", id).WithHint("re-plan")
	default:
		return Result{}, plan.Errorf(plan.ErrAlreadyApplied, "plan %s was already applied (state %s)", id, rec.State).
			WithHint("a plan is applied once; re-plan to change the files again")
	}
	stored := map[string]plan.FileChange{}
	for _, c := range rec.Changes {
		stored[c.Path] = c
	}
	want := map[string]bool{}
	if sel.Paths == nil {
		for _, c := range rec.Changes {
			want[c.Path] = true
		}
	}
	for _, p := range sel.Paths {
		if _, ok := stored[p]; !ok {
			return Result{}, plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", id, p)
		}
		want[p] = true
	}
	if len(want) == 0 && sel.ProjectMemory == nil {
		return Result{}, plan.Errorf(plan.ErrInvalidInput, "nothing is selected to apply").WithHint("tick at least one file or memory entry")
	}
	// Stale preview: the disk must still hold the bytes the preview was made from.
	var changed []string
	for p := range want {
		if cur := e.diskSum(p); cur != stored[p].BaseSHA256 && stored[p].Op != plan.OpMkdir && stored[p].Op != plan.OpRmdir {
			changed = append(changed, p)
		}
	}
	if len(changed) > 0 {
		sortStrings(changed)
		return Result{}, baseMismatch(changed)
	}
	var cs []Change
	if len(want) > 0 {
		all, err := e.Changes(&rec.Plan)
		if err != nil {
			return Result{}, err
		}
		for _, c := range all {
			if !want[c.Path] {
				continue
			}
			if pv := c.Preview(); pv.Diff != stored[c.Path].Diff || pv.BaseSHA256 != stored[c.Path].BaseSHA256 {
				return Result{}, baseMismatch([]string{c.Path})
			}
			cs = append(cs, c)
		}
		if len(cs) != len(want) {
			var gone []string
			for p := range want {
				found := false
				for _, c := range cs {
					found = found || c.Path == p
				}
				if !found {
					gone = append(gone, p)
				}
			}
			sortStrings(gone)
			return Result{}, baseMismatch(gone)
		}
	}
	res, err := e.transact(ctx, id, cs, sel)
	if err != nil {
		return res, err
	}
	now := e.opt.Now().UTC()
	rec.State, rec.Transaction, rec.AppliedAt = plan.StateApplied, res.Transaction, &now
	if err := e.SavePlan(rec); err != nil {
		return res, fmt.Errorf("files applied, but marking plan %s applied failed: %w", id, err)
	}
	return res, nil
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// diskSum is the sha256 of rel's bytes now ("" when it is missing or a folder).
func (e *Engine) diskSum(rel string) string {
	b, err := os.ReadFile(e.abs(rel))
	if err != nil {
		return ""
	}
	return sum(b)
}

func (e *Engine) transact(ctx context.Context, planID string, cs []Change, sel Selection) (Result, error) {
	ens, err := e.entries(cs, sel.ProjectMemory)
	if err != nil {
		return Result{}, err
	}
	j := &journal{ID: NewID(), PlanID: planID, Created: e.opt.Now().UTC(), Entries: ens, Memory: sel.MemoryKeys}
	if err := e.run(ctx, j); err != nil {
		return Result{}, err
	}
	res := Result{Transaction: j.ID, PlanID: planID, Applied: []plan.FileChange{}, Memory: sel.MemoryKeys}
	for _, c := range cs {
		res.Applied = append(res.Applied, c.Preview())
	}
	if res.Memory == nil {
		res.Memory = []string{}
	}
	return res, nil
}

// ApplyPatch applies a unified diff as one undoable transaction. With check it
// only computes the changes (hunk placement included) and writes nothing.
func (e *Engine) ApplyPatch(ctx context.Context, patch string, check bool) (Result, []Change, error) {
	cs, err := e.patchChanges(patch)
	if err != nil {
		return Result{}, nil, err
	}
	if err := e.checkDirDeletes(cs); err != nil {
		return Result{}, nil, err
	}
	order(cs)
	for i := range cs {
		flag(&cs[i])
	}
	if len(cs) == 0 {
		return Result{}, cs, plan.Errorf(plan.ErrInvalidInput, "the patch changes nothing (the files already look like that)")
	}
	if check {
		return Result{}, cs, nil
	}
	unlock, err := e.lock()
	if err != nil {
		return Result{}, cs, err
	}
	defer unlock()
	res, err := e.transact(ctx, "", cs, Selection{})
	return res, cs, err
}

// Undo restores the newest committed transaction. Files edited since are listed
// in ERR_UNDO_EDITED_SINCE and nothing is restored; ERR_NOTHING_TO_UNDO when
// there is nothing to undo.
func (e *Engine) Undo(ctx context.Context) (Result, error) {
	unlock, err := e.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	js, _, err := e.journals()
	if err != nil {
		return Result{}, err
	}
	var j *journal
	for _, c := range js {
		if c.State == stateCommitted {
			j = c
			break
		}
	}
	if j == nil {
		return Result{}, plan.Errorf(plan.ErrNothingToUndo, "there is no applied change to undo")
	}
	var edited []string
	for _, en := range j.Entries {
		if !en.isFile() {
			continue
		}
		cur := e.diskSum(en.Path)
		_, statErr := os.Lstat(e.abs(en.Path))
		switch {
		case en.Op == plan.OpDelete && !errors.Is(statErr, fs.ErrNotExist):
			edited = append(edited, en.Path)
		case en.Op != plan.OpDelete && cur != en.After:
			edited = append(edited, en.Path)
		}
	}
	if len(edited) > 0 {
		return Result{}, (&plan.Error{Code: plan.ErrUndoEditedSince, Msg: "edited after the change was applied: " + strings.Join(edited, ", "), Paths: edited}).
			WithHint("nothing was restored; undo those edits by hand first, or keep the files as they are")
	}
	if err := ctx.Err(); err != nil {
		return Result{}, plan.Errorf(plan.ErrCancelled, "undo was cancelled")
	}
	j.State = stateUndoing
	if err := e.writeJournal(j); err != nil {
		return Result{}, ioErr("mark the journal undoing", err)
	}
	if err := e.restore(j.ID, j.Entries); err != nil {
		return Result{}, &plan.Error{Code: plan.ErrIO, Msg: "undo could not restore every file", Err: err,
			Hint: "run fixplan again: an interrupted undo is finished at start-up; originals are in .fixplan/tx/" + j.ID}
	}
	return e.finishUndo(j, false)
}

func (e *Engine) finishUndo(j *journal, recovered bool) (Result, error) {
	j.State = stateUndone
	if err := e.writeJournal(j); err != nil {
		return Result{}, ioErr("mark the journal undone", err)
	}
	res := Result{Transaction: j.ID, PlanID: j.PlanID, Applied: []plan.FileChange{}, Memory: j.Memory, Recovered: recovered}
	if res.Memory == nil {
		res.Memory = []string{}
	}
	for _, en := range j.Entries {
		if en.Implicit || en.Path == memoryPath {
			continue
		}
		res.Applied = append(res.Applied, plan.FileChange{Path: en.Path, Op: inverse(en.Op), Diff: en.Diff, BaseSHA256: en.After})
	}
	if j.PlanID != "" {
		if rec, err := e.LoadPlan(j.PlanID); err == nil {
			rec.State = plan.StateUndone
			_ = e.SavePlan(rec)
		}
	}
	return res, nil
}

func inverse(op plan.Op) plan.Op {
	switch op {
	case plan.OpCreate:
		return plan.OpDelete
	case plan.OpDelete:
		return plan.OpCreate
	case plan.OpMkdir:
		return plan.OpRmdir
	case plan.OpRmdir:
		return plan.OpMkdir
	}
	return op
}

// Recover finishes what a crash interrupted: a transaction left applying is rolled
// back, an undo left undoing is completed, and a committed transaction whose plan
// was not yet marked applied is marked. Each rolled-back or completed journal is
// reported with Recovered set.
func (e *Engine) Recover() ([]Result, error) {
	if _, err := os.Stat(e.stateDir("tx")); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	unlock, err := e.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	js, orphans, err := e.journals()
	if err != nil {
		return nil, err
	}
	for _, o := range orphans {
		e.discard(o) // a journal never written: nothing was changed
	}
	var out []Result
	var errs []error
	for _, j := range js {
		switch j.State {
		case stateApplying:
			if err := e.restore(j.ID, j.Entries); err != nil {
				errs = append(errs, fmt.Errorf("roll back %s: %w", j.ID, err))
				continue
			}
			j.State = stateRolledBack
			if err := e.writeJournal(j); err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, Result{Transaction: j.ID, PlanID: j.PlanID, Applied: []plan.FileChange{}, Memory: []string{}, Recovered: true})
		case stateUndoing:
			if err := e.restore(j.ID, j.Entries); err != nil {
				errs = append(errs, fmt.Errorf("finish undo %s: %w", j.ID, err))
				continue
			}
			r, err := e.finishUndo(j, true)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, r)
		case stateCommitted:
			if j.PlanID != "" {
				if rec, err := e.LoadPlan(j.PlanID); err == nil && rec.State == plan.StateDraft {
					now := time.Now().UTC()
					rec.State, rec.Transaction, rec.AppliedAt = plan.StateApplied, j.ID, &now
					_ = e.SavePlan(rec)
				}
			}
		}
	}
	if len(errs) > 0 {
		return out, &plan.Error{Code: plan.ErrIO, Msg: "recovering an interrupted transaction failed", Err: errors.Join(errs...),
			Hint: "the originals are kept under .fixplan/tx/"}
	}
	return out, nil
}
