package app

import (
	"context"

	"fixplan/apply"
	"fixplan/plan"
	"fixplan/session"
)

// ApplyRequest applies exactly the ticked files and memory keys of a plan.
type ApplyRequest struct {
	PlanID     string   `json:"plan_id"`
	Paths      []string `json:"paths"`
	MemoryKeys []string `json:"memory_keys"`
	// Files narrow ticked changes to their accepted hunks or the user's own
	// content (per-hunk review and Edit; app/review.go).
	Files []apply.FileChoice `json:"files"`
}

// ApplyResult reports a transaction.
type ApplyResult struct {
	Transaction string            `json:"transaction"`
	PlanID      string            `json:"plan_id"`
	Applied     []plan.FileChange `json:"applied"`
	Memory      []string          `json:"memory"`
	Recovered   bool              `json:"recovered"`
}

func toResult(r apply.Result) ApplyResult {
	out := ApplyResult{Transaction: r.Transaction, PlanID: r.PlanID, Applied: r.Applied, Memory: r.Memory, Recovered: r.Recovered}
	if out.Applied == nil {
		out.Applied = []plan.FileChange{}
	}
	if out.Memory == nil {
		out.Memory = []string{}
	}
	return out
}

// Apply applies the selected changes as one transaction (all or nothing).
func (a *App) Apply(req ApplyRequest) (ApplyResult, error) {
	s, err := a.session()
	if err != nil {
		return ApplyResult{}, err
	}
	if len(req.Paths) == 0 && len(req.MemoryKeys) == 0 {
		return ApplyResult{}, fail(plan.Errorf(plan.ErrInvalidInput, "nothing is selected").WithHint("tick the files or memory entries to apply"))
	}
	paths := req.Paths
	if paths == nil {
		paths = []string{}
	}
	keys := req.MemoryKeys
	if keys == nil {
		keys = []string{}
	}
	r, err := s.ApplySelection(context.Background(), req.PlanID, paths, keys, req.Files)
	if err != nil {
		return ApplyResult{}, fail(err)
	}
	return toResult(r), nil
}

// Undo restores the last applied transaction.
func (a *App) Undo() (ApplyResult, error) {
	s, err := a.session()
	if err != nil {
		return ApplyResult{}, err
	}
	r, err := s.Undo(context.Background())
	if err != nil {
		return ApplyResult{}, fail(err)
	}
	return toResult(r), nil
}

// HistoryItem is one stored plan in the history list.
type HistoryItem struct {
	ID        string `json:"id"`
	CreatedAt string `json:"created_at"`
	State     string `json:"state"`
	Summary   string `json:"summary"`
	Problem   string `json:"problem"`
	Files     int    `json:"files"`
	// Foreign: not made by this user's fixplan (e.g. shipped with the project);
	// shown, never applied or run.
	Foreign bool `json:"foreign"`
	// PlanOnly: the approach was asked for without changes; ApprovedPlan: these
	// changes were written for that approved plan (docs/CONTRACT.md §3).
	PlanOnly     bool   `json:"plan_only,omitempty"`
	ApprovedPlan string `json:"approved_plan,omitempty"`
}

// History lists the project's plans, newest first.
func (a *App) History() ([]HistoryItem, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	recs, err := s.History()
	if err != nil {
		return nil, fail(err)
	}
	out := make([]HistoryItem, 0, len(recs))
	for _, r := range recs {
		prob := r.Problem
		if len(prob) > 200 {
			prob = prob[:200] + "…"
		}
		out = append(out, HistoryItem{ID: r.ID, CreatedAt: r.CreatedAt.Format("2006-01-02 15:04:05"), State: string(r.State),
			Summary: r.Summary, Problem: prob, Files: r.Files, Foreign: r.Foreign, PlanOnly: r.PlanOnly, ApprovedPlan: r.ApprovedPlan})
	}
	return out, nil // the user's own plans newest first, then foreign ones
}

// LoadPlan returns a stored plan.
func (a *App) LoadPlan(id string) (*plan.Record, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	r, err := s.Load(id)
	if err != nil {
		return nil, fail(err)
	}
	return r, nil
}

// CommandOutput is one chunk of a running command's output.
type CommandOutput struct {
	Command string `json:"command"`
	Chunk   string `json:"chunk"`
}

// RunCommand runs one of the plan's commands_to_run; the user's click on its Run
// button is the approval. Commands not in the plan, and those of a plan this
// user's fixplan did not make, are refused (Session.RunPlanCommand).
func (a *App) RunCommand(planID, command string) (session.CommandResult, error) {
	s, err := a.session()
	if err != nil {
		return session.CommandResult{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.mu.Lock()
	if a.cmdStop != nil {
		a.mu.Unlock()
		cancel()
		return session.CommandResult{}, fail(plan.Errorf(plan.ErrInvalidInput, "a command is already running").WithHint("wait for it or press Stop"))
	}
	a.cmdStop = cancel
	rt := a.d.Runtime
	a.mu.Unlock()
	defer func() {
		cancel()
		a.mu.Lock()
		a.cmdStop = nil
		a.mu.Unlock()
	}()
	res, err := s.RunPlanCommand(ctx, planID, command, session.Consent{Confirmed: true}, func(chunk string) {
		rt.Emit(EventCommandOutput, CommandOutput{Command: command, Chunk: chunk})
	})
	if err != nil {
		return res, fail(err)
	}
	rt.Emit(EventCommandDone, res)
	return res, nil
}

// StopCommand stops the running command, if any.
func (a *App) StopCommand() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cmdStop != nil {
		a.cmdStop()
	}
	return nil
}

// Journals lists the project's transactions (undo history, held ones) and the
// folders a recovery set aside (state not written by this user's fixplan).
func (a *App) Journals() ([]apply.JournalInfo, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	js, err := s.Journals()
	if err != nil {
		return nil, fail(err)
	}
	return js, nil
}

// DiscardJournal deletes a held, finished or set-aside journal (the user's click
// on Discard). The undo history of applied changes is refused.
func (a *App) DiscardJournal(id string) error {
	s, err := a.session()
	if err != nil {
		return err
	}
	if err := s.DiscardJournal(id); err != nil {
		return fail(err)
	}
	return nil
}

// PlanChecks lists the commands that could verify a plan and whether each is
// approved for this project.
func (a *App) PlanChecks(planID string) ([]session.Check, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	checks, err := s.PlanChecks(planID)
	if err != nil {
		return nil, fail(err)
	}
	return checks, nil
}

// VerifyPlan verifies a plan in a scratch copy of the project: approve are the
// commands the user ticked (approved now and remembered for this project). The
// project itself is never touched. Progress arrives as plan:progress events;
// CancelPlan stops it.
func (a *App) VerifyPlan(planID string, approve []string) (*plan.Record, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	ctx, done, err := a.beginRun("a plan is being made or verified")
	if err != nil {
		return nil, err
	}
	defer done()
	rec, err := s.VerifyPlan(ctx, planID, approve)
	if err != nil {
		return nil, fail(err)
	}
	return rec, nil
}

// ApprovedChecks lists the check commands approved for this project (Settings).
func (a *App) ApprovedChecks() ([]string, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	out := s.ApprovedChecks()
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// RevokeCheck withdraws the approval of a check command for this project.
func (a *App) RevokeCheck(command string) error {
	s, err := a.session()
	if err != nil {
		return err
	}
	if err := s.RevokeCheck(command); err != nil {
		return fail(err)
	}
	return nil
}

// WriteChanges asks the model, in apply mode, for the file changes of the
// approved plan planID (one without changes, e.g. made with Plan only) and
// returns the new plan to review; progress arrives as plan:progress events and
// CancelPlan stops it. With verification before review on, it is verified too.
func (a *App) WriteChanges(planID string) (*plan.Record, error) {
	s, ctx, done, st, err := a.beginModelRun()
	if err != nil {
		return nil, err
	}
	defer done()
	rec, err := s.WriteChangesVerified(ctx, planID, st.VerifyBeforeReview, nil)
	if err != nil {
		return nil, fail(err)
	}
	return rec, nil
}
