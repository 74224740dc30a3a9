package app

import (
	"fixplan/apply"
	"fixplan/edit"
	"fixplan/plan"
	"fixplan/session"
)

// ReviewRequest is what the user ticked (Paths), rejected or edited (Files) in
// the draft being re-planned, as in ApplyRequest.
type ReviewRequest struct {
	Paths []string           `json:"paths"`
	Files []apply.FileChoice `json:"files"`
}

// reviewOf turns a re-plan's review of its Previous draft into what the model
// is told: nil when there is none, the user took everything as proposed, or it
// cannot be computed any more (the files changed since the preview — re-planning
// is the remedy then, and must not be refused for it).
func reviewOf(s *session.Session, req PlanRequest) *plan.Review {
	if req.Review == nil || req.Previous == "" {
		return nil
	}
	paths := req.Review.Paths
	if paths == nil {
		paths = []string{}
	}
	rv, err := s.ReviewOf(req.Previous, paths, req.Review.Files)
	if err != nil {
		return nil
	}
	return rv
}

// Proposed is the text of one proposed file change, for editing it by hand:
// the file as it is now (empty for a new file) and as the plan proposes it.
type Proposed struct {
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// PreviewSelection previews what Apply(req) would write, without writing: the
// ticked changes narrowed to their accepted hunks (req.Files[].Hunks, numbered
// as the preview diff shows them) or replaced by the user's own content
// (req.Files[].Content), with recomputed diffs and flags. A change with no
// accepted hunk is left out of the list.
func (a *App) PreviewSelection(req ApplyRequest) ([]plan.FileChange, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	out, err := s.PreviewSelection(req.PlanID, req.Paths, req.Files)
	if err != nil {
		return nil, fail(err)
	}
	if out == nil {
		out = []plan.FileChange{}
	}
	return out, nil
}

// ProposedText returns a proposed change's text to edit by hand (the user's
// click on Edit): with accept, only those hunks of the proposal (what the user
// accepted so far; nil: all). The edited text goes back in ApplyRequest.Files.
func (a *App) ProposedText(planID, path string, accept []int) (Proposed, error) {
	s, err := a.session()
	if err != nil {
		return Proposed{}, err
	}
	before, after, err := s.Proposal(planID, path)
	if err == nil && accept != nil {
		var b []byte
		if b, err = edit.SelectHunks([]byte(before), []byte(after), accept); err == nil {
			after = string(b)
		}
	}
	if err != nil {
		return Proposed{}, fail(err)
	}
	return Proposed{Path: path, Before: before, After: after}, nil
}

// VerifySelection verifies a draft in a scratch copy as the user chose it — the
// ticked files narrowed to their accepted hunks or replaced by the user's text
// (req) — with the approved checks and approve (approved now and remembered),
// like VerifyPlan. The project itself is never touched; CancelPlan stops it.
func (a *App) VerifySelection(planID string, approve []string, req ApplyRequest) (*plan.Record, error) {
	s, err := a.session()
	if err != nil {
		return nil, err
	}
	ctx, done, err := a.beginRun("a plan is being made or verified")
	if err != nil {
		return nil, err
	}
	defer done()
	paths := req.Paths
	if paths == nil {
		paths = []string{}
	}
	rec, err := s.VerifySelection(ctx, planID, approve, paths, req.Files)
	if err != nil {
		return nil, fail(err)
	}
	return rec, nil
}
