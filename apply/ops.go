package apply

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"fixplan/edit"
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
	if rec.Foreign {
		return Result{}, foreignPlan(id)
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
			if pv := c.Preview(); !edit.SameDiff(stored[c.Path].Diff, pv.Diff) || pv.BaseSHA256 != stored[c.Path].BaseSHA256 {
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
	// The user's hunk choices and hand edits (selection.go), previewed again.
	cs, review, err := refine(rec, want, cs, sel.Files)
	if err != nil {
		return Result{}, err
	}
	if err := e.refuseSelected(cs, sel); err != nil {
		return Result{}, err
	}
	res, err := e.transact(ctx, id, cs, sel)
	if err != nil {
		return res, err
	}
	now := e.opt.Now().UTC()
	rec.State, rec.Transaction, rec.AppliedAt = plan.StateApplied, res.Transaction, &now
	if !review.Empty() {
		rec.Review = review
	}
	if err := e.SavePlan(rec); err != nil {
		return res, fmt.Errorf("files applied, but marking plan %s applied failed: %w", id, err)
	}
	return res, nil
}

// refuseSelected is what ApplyPlan refuses once the selected changes are known
// (DryRun refuses the same): nothing left to write, a [REDACTED] mark written
// over a secret, a path changed twice in one transaction.
func (e *Engine) refuseSelected(cs []Change, sel Selection) error {
	if len(cs) == 0 && sel.ProjectMemory == nil {
		return plan.Errorf(plan.ErrInvalidInput, "nothing is left to apply: every hunk of the ticked files is rejected").
			WithHint("accept at least one hunk, or untick the files")
	}
	var marked []string
	for _, c := range cs {
		if writesRedacted(c) {
			marked = append(marked, c.Path)
		}
	}
	if len(marked) > 0 {
		return (&plan.Error{Code: plan.ErrInvalidInput, Msg: "would write the [REDACTED] mark over a secret: " + strings.Join(marked, ", "), Paths: marked}).
			WithHint("nothing was written; untick those files, or make the change by hand")
	}
	ens, err := e.entries(cs, sel.ProjectMemory)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, en := range ens {
		if seen[en.Path] {
			return (&plan.Error{Code: plan.ErrActionConflict, Msg: en.Path + " is changed twice in one transaction; nothing was written", Paths: []string{en.Path}}).
				WithHint("re-plan: each file may be changed once")
		}
		seen[en.Path] = true
	}
	return nil
}

// DryRun previews what ApplyPlan(id, sel) would write, like PreviewSelection,
// and refuses everything ApplyPlan would refuse before writing (a dry run that
// shows a clean diff must not hide a refusal). Nothing is written.
func (e *Engine) DryRun(id string, sel Selection) ([]plan.FileChange, error) {
	cs, err := e.SelectedChanges(id, sel)
	if err != nil {
		return nil, err
	}
	if err := e.refuseSelected(cs, sel); err != nil {
		return nil, err
	}
	out := make([]plan.FileChange, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Preview())
	}
	return out, nil
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
	b, err := readIn(e.r, name(rel))
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
	// A journal lists each path once (recovery refuses any other): never start one that would not.
	seen := map[string]bool{}
	for _, en := range ens {
		if seen[en.Path] {
			return Result{}, (&plan.Error{Code: plan.ErrActionConflict, Msg: en.Path + " is changed twice in one transaction; nothing was written", Paths: []string{en.Path}}).
				WithHint("re-plan: each file may be changed once")
		}
		seen[en.Path] = true
	}
	j := &journal{ID: NewID(), PlanID: planID, Created: e.opt.Now().UTC(), Entries: ens, Memory: sel.MemoryKeys}
	if err := e.run(ctx, j); err != nil {
		return Result{}, err
	}
	res := Result{Transaction: j.ID, PlanID: planID, Applied: []plan.FileChange{}, Memory: sel.MemoryKeys}
	for _, c := range cs {
		if planID == "" {
			// fixplan patch: the patch is the diff; none is computed for the result.
			res.Applied = append(res.Applied, plan.FileChange{Path: c.Path, Op: c.Op, BaseSHA256: c.BeforeSHA256, Placement: c.Placement, Flags: c.Flags})
			continue
		}
		res.Applied = append(res.Applied, c.Preview())
	}
	if res.Memory == nil {
		res.Memory = []string{}
	}
	return res, nil
}

// ApplyPatch applies a unified diff as one undoable transaction. With check it
// only computes the changes (hunk placement included) and writes nothing. No
// preview diff is computed (the patch is the diff): Result.Applied carries each
// file's path, op, base hash, placement and flags, without a diff.
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
		flag(&cs[i]) // no preview diff: the patch is the diff (flag computes one only for a possibly large change)
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

func foreignPlan(id string) error {
	return plan.ForeignPlan(id, " (it is not sealed with your key; it may have come with the project)",
		"fixplan never applies such a plan; make your own with fixplan plan (re-plan)")
}

// Undo restores the newest committed transaction. Everything is checked before the
// first write: files edited since are listed in ERR_UNDO_EDITED_SINCE and nothing
// is restored; created folders that now hold other files are kept (Result.Kept).
// If a write fails half-way, the files already restored are put back as the
// transaction left them, so a failed undo changes nothing. ERR_NOTHING_TO_UNDO
// when there is nothing to undo.
func (e *Engine) Undo(ctx context.Context) (Result, error) {
	unlock, err := e.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	j, err := e.newestCommitted()
	if err != nil {
		return Result{}, err
	}
	if j == nil {
		return Result{}, plan.Errorf(plan.ErrNothingToUndo, "there is no applied change to undo")
	}
	steps, edited, err := e.inspectRevert(j)
	if err != nil {
		return Result{}, ioErr("inspect the files to undo", err)
	}
	// A file the transaction left as it was (same bytes) but that now differs is
	// also an edit; inspectRevert only sees what is not the transaction's.
	if len(edited) > 0 {
		return Result{}, (&plan.Error{Code: plan.ErrUndoEditedSince, Msg: "edited after the change was applied: " + strings.Join(edited, ", "), Paths: edited}).
			WithHint("nothing was restored; undo those edits by hand first, or keep the files as they are")
	}
	if err := ctx.Err(); err != nil {
		return Result{}, plan.Errorf(plan.ErrCancelled, "undo was cancelled")
	}
	j.State = stateUndoing
	if err := e.writeJournal(j); err != nil {
		j.State = stateCommitted // the file may already say undoing: put it back
		_ = e.writeJournal(j)
		return Result{}, ioErr("mark the journal undoing", err)
	}
	done, kept, err := e.execRevert(j, steps)
	if err != nil {
		if ferr := e.rollForward(j, steps, done, kept); ferr != nil {
			j.State, j.Problem = stateHeld, "undo failed half-way and could not be reverted: "+errors.Join(err, ferr).Error()
			_ = e.writeJournal(j)
			return Result{}, &plan.Error{Code: plan.ErrIO, Msg: "undo failed half-way and the files it had restored could not all be put back", Err: errors.Join(err, ferr),
				Hint: "the transaction is set aside: see fixplan journals show " + j.ID + " (originals are in .fixplan/tx/" + j.ID + ")"}
		}
		j.State = stateCommitted
		if werr := e.writeJournal(j); werr != nil {
			return Result{}, &plan.Error{Code: plan.ErrIO, Msg: "undo failed; the files are as before the undo, but the journal could not be reset", Err: errors.Join(err, werr),
				Hint: "run fixplan again: the interrupted undo is finished at start-up"}
		}
		return Result{}, &plan.Error{Code: plan.ErrIO, Msg: "undo failed; nothing was changed", Err: err, Hint: "check permissions and free space, then undo again"}
	}
	res, err := e.finishUndo(j, false)
	e.undoDiffs(j, steps, &res)
	if err != nil {
		return Result{}, &plan.Error{Code: plan.ErrIO, Msg: "the files were restored, but the journal could not be marked undone", Err: err,
			Hint: "run fixplan again: the undo is finished at start-up"}
	}
	res.Kept = kept
	return res, nil
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
		if rec, err := e.LoadPlan(j.PlanID); err == nil && !rec.Foreign {
			rec.State = plan.StateUndone
			_ = e.SavePlan(rec)
		}
	}
	return res, nil
}

// undoDiffs fills in the diffs an undo reports (each entry's change as it was
// applied, as before journals left them out): recomputed from the saved original
// and the bytes the undo found on disk (steps), or kept from an older journal.
func (e *Engine) undoDiffs(j *journal, steps []revertStep, res *Result) {
	found := map[string][]byte{}
	for _, st := range steps {
		if en := j.Entries[st.i]; en.isFile() && st.existed {
			found[en.Path] = st.cur
		}
	}
	byPath := map[string]entry{}
	for _, en := range j.Entries {
		byPath[en.Path] = en
	}
	for i := range res.Applied {
		fc := &res.Applied[i]
		en := byPath[fc.Path]
		if fc.Diff != "" {
			continue
		}
		c := Change{Path: en.Path, Op: en.Op, BeforeSHA256: en.Before, BeforeMode: en.Mode, Existed: en.Existed, Mode: en.AfterMode, After: found[en.Path]}
		if en.Blob != "" {
			b, err := e.r.ReadFile(txName(j.ID, en.Blob))
			if err != nil {
				continue
			}
			c.Before = b
		}
		fc.Diff = c.preview().Diff
	}
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

// Notice kinds reported by Recover.
const (
	NoticeRolledBack  = "rolled_back"   // an interrupted apply was rolled back
	NoticeUndone      = "undo_finished" // an interrupted undo was finished
	NoticeHeld        = "held"          // recovery could not finish; set aside
	NoticeQuarantined = "quarantined"   // state not written by this user, or malformed; set aside
)

// Notice is one thing Recover did or found, worded for people.
type Notice struct {
	Kind        string `json:"kind"`
	Transaction string `json:"transaction"`
	PlanID      string `json:"plan_id,omitempty"`
	Message     string `json:"message"`
	// Kept are files left as they are because they were edited after the crash,
	// or created folders that hold other files.
	Kept []string `json:"kept,omitempty"`
}

// Recover finishes what a crash interrupted, for this user's journals only: an
// apply left applying is rolled back, an undo left undoing is finished (both
// conflict-aware: a file edited since the crash is kept and reported), and a
// committed transaction whose plan was not yet marked applied is marked. A
// journal that cannot be recovered is held (set aside, blocking nothing); a folder
// that is not this user's valid journal is moved to .fixplan/quarantine/. One
// recovery looks at the newest maxLook folders and reads at most maxTxRead of
// journals without a header; it says how many it left, and the next one goes
// on. Only a lock held by another fixplan is an error.
func (e *Engine) Recover() ([]Notice, error) {
	if _, err := e.r.Lstat(stateName("tx")); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	unlock, err := e.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	names, err := e.txFolders()
	if err != nil {
		return []Notice{{Kind: NoticeHeld, Message: "could not list .fixplan/tx: " + err.Error()}}, nil
	}
	var out []Notice
	var aside []refused
	left := max(len(names)-maxLook, 0)
	names = names[:len(names)-left]
	b := newTxBudget()
	seenCommitted := false
	for _, n := range names {
		// This user's finished journals need nothing, except the newest committed
		// one: a crash between its commit and marking its plan applied leaves the
		// plan a draft (only the newest can be: both happen under the lock, and
		// every later apply or undo starts with this recovery).
		if st, ok := e.headState(n); ok && finished(st) && (st != stateCommitted || seenCommitted) {
			continue
		}
		j, err := e.loadJournal(n, b)
		if errors.Is(err, errNotRead) {
			left++
			continue
		}
		if err != nil {
			aside = append(aside, refused{n, err})
			continue
		}
		switch j.State {
		case stateApplying, stateUndoing:
			out = append(out, e.recoverOne(j))
		case stateHeld:
			out = append(out, Notice{Kind: NoticeHeld, Transaction: j.ID, PlanID: j.PlanID,
				Message: fmt.Sprintf("transaction %s is set aside (%s); inspect it with fixplan journals show %s or discard it with fixplan journals discard %s", j.ID, j.Problem, j.ID, j.ID)})
		case stateCommitted:
			if seenCommitted {
				continue
			}
			seenCommitted = true
			// A plan whose file already says it is past draft needs no loading (plan
			// files are large: their whole base context).
			if st := e.peekPlanState(j.PlanID); j.PlanID != "" && (st == "" || st == plan.StateDraft) {
				if rec, err := e.LoadPlan(j.PlanID); err == nil && rec.State == plan.StateDraft && !rec.Foreign {
					now := time.Now().UTC()
					rec.State, rec.Transaction, rec.AppliedAt = plan.StateApplied, j.ID, &now
					_ = e.SavePlan(rec)
				}
			}
		}
	}
	return append(out, e.setAside(aside, left)...), nil
}

// recoverOne reverts an interrupted apply or finishes an interrupted undo.
func (e *Engine) recoverOne(j *journal) Notice {
	undo := j.State == stateUndoing
	what, subject := "applying", "transaction "+j.ID
	if undo {
		what = "undoing"
	}
	if j.PlanID != "" {
		subject = fmt.Sprintf("plan %s (transaction %s)", j.PlanID, j.ID)
	}
	hold := func(err error) Notice {
		j.Interrupted, j.State, j.Problem = j.State, stateHeld, err.Error()
		_ = e.writeJournal(j)
		return Notice{Kind: NoticeHeld, Transaction: j.ID, PlanID: j.PlanID,
			Message: fmt.Sprintf("%s %s was interrupted and could not be finished (%v); it is set aside and blocks nothing: inspect it with fixplan journals show %s, discard it with fixplan journals discard %s",
				what, subject, err, j.ID, j.ID)}
	}
	e.dropTemps(j) // a staged apply or undo that stopped leaves temp files beside its paths
	steps, conflicts, err := e.inspectRevert(j)
	if err != nil {
		return hold(err)
	}
	_, keptDirs, err := e.execRevert(j, steps)
	if err != nil {
		return hold(err)
	}
	j.Kept = conflicts
	j.Interrupted = j.State
	n := Notice{Kind: NoticeRolledBack, Transaction: j.ID, PlanID: j.PlanID, Kept: append(append([]string{}, conflicts...), keptDirs...)}
	if undo {
		if _, err := e.finishUndo(j, true); err != nil {
			return hold(err)
		}
		n.Kind = NoticeUndone
		n.Message = fmt.Sprintf("undoing %s was interrupted; the undo has been finished", subject)
	} else {
		j.State = stateRolledBack
		if err := e.writeJournal(j); err != nil {
			return hold(err)
		}
		n.Message = fmt.Sprintf("applying %s was interrupted; it has been rolled back and the files are as before", subject)
	}
	if len(conflicts) > 0 {
		n.Message += fmt.Sprintf("; kept as they are because they were edited after the crash: %s (their originals are in .fixplan/tx/%s/)", strings.Join(conflicts, ", "), j.ID)
	}
	if len(keptDirs) > 0 {
		n.Message += "; folders kept because they hold other files: " + strings.Join(keptDirs, ", ")
	}
	return n
}
