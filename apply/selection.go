package apply

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"fixplan/edit"
	"fixplan/plan"
)

// maxUserContent caps the content a user may write in place of a proposal.
const maxUserContent = 4 << 20

// MaxUserContent is maxUserContent for callers that read the user's content
// (`fixplan apply --edit`): reading one byte more is enough to be refused.
const MaxUserContent = maxUserContent

// FileChoice refines one ticked change of a plan: apply only some of its hunks,
// or apply the user's own content instead of the proposal.
type FileChoice struct {
	Path string `json:"path"`
	// Hunks are the accepted hunks, numbered from 1 as the preview diff shows
	// them; nil accepts every hunk, an empty list none (the file is left out).
	Hunks []int `json:"hunks"`
	// Content, when not nil, is the whole new content the user wrote in place of
	// the proposal. It is checked like the model's content (text, UTF-8, size,
	// no [REDACTED] mark written over a secret) and previewed again.
	Content *string `json:"content"`
}

// refine narrows the ticked changes cs of rec (want: the ticked paths) to the
// user's choices, and describes what the user did as a plan.Review. Changes
// with no accepted hunk, or edited back to the file as it is, are dropped.
// Errors are *plan.Error (ERR_INVALID_INPUT, ERR_BINARY_CONTENT, ERR_NON_UTF8_FILE).
func refine(rec *plan.Record, want map[string]bool, cs []Change, files []FileChoice) ([]Change, *plan.Review, error) {
	stored := map[string]plan.FileChange{}
	for _, c := range rec.Changes {
		stored[c.Path] = c
	}
	choice := map[string]FileChoice{}
	for _, f := range files {
		if _, ok := stored[f.Path]; !ok {
			return nil, nil, plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", rec.ID, f.Path)
		}
		if !want[f.Path] {
			return nil, nil, plan.Errorf(plan.ErrInvalidInput, "%s is not ticked, so its hunks or edits cannot be applied", f.Path).
				WithHint("tick the file (in the CLI: list it with --only too), or leave out its hunks or edit")
		}
		if _, dup := choice[f.Path]; dup {
			return nil, nil, plan.Errorf(plan.ErrInvalidInput, "%s is selected twice", f.Path).WithHint("give each file one hunk selection or one edit")
		}
		if f.Hunks != nil && f.Content != nil {
			return nil, nil, plan.Errorf(plan.ErrInvalidInput, "%s has both a hunk selection and an edited content", f.Path).
				WithHint("an edit replaces the whole proposal: choose hunks or edit, not both")
		}
		choice[f.Path] = f
	}
	rv := &plan.Review{Files: []plan.FileReview{}}
	for _, sc := range rec.Changes {
		hs, _ := edit.ParseHunks(sc.Diff)
		fr := plan.FileReview{Path: sc.Path, Hunks: len(hs)}
		if !want[sc.Path] {
			fr.Unticked = true
		}
		rv.Files = append(rv.Files, fr)
	}
	review := func(p string) *plan.FileReview {
		for i := range rv.Files {
			if rv.Files[i].Path == p {
				return &rv.Files[i]
			}
		}
		return nil
	}
	out := cs[:0:0]
	for _, c := range cs {
		f, ok := choice[c.Path]
		if !ok {
			out = append(out, c)
			continue
		}
		fr := review(c.Path)
		var keep bool
		var err error
		switch {
		case f.Content != nil:
			keep, err = editChange(&c, *f.Content, fr)
		case f.Hunks != nil:
			keep, err = hunkChange(&c, f.Hunks, fr)
		default:
			keep = true
		}
		if err != nil {
			return nil, nil, err
		}
		if keep {
			out = append(out, c)
		}
	}
	return out, rv, nil
}

// hunkChange keeps only the accepted hunks of c; false when none is accepted.
func hunkChange(c *Change, accept []int, fr *plan.FileReview) (bool, error) {
	hs, err := edit.ParseHunks(c.Preview().Diff)
	if err != nil {
		return false, err
	}
	ok := map[int]bool{}
	for _, n := range accept {
		if n < 1 || n > len(hs) {
			return false, (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("%s has %d hunk(s); hunk %d does not exist", c.Path, len(hs), n), Paths: []string{c.Path}}).
				WithHint("number hunks from 1 as the preview shows them (fixplan apply --plan ID --show-hunks)")
		}
		ok[n] = true
	}
	for _, h := range hs {
		if !ok[h.N] {
			fr.Rejected = append(fr.Rejected, h.N)
		}
	}
	switch {
	case len(ok) == 0:
		return false, nil
	case len(ok) == len(hs):
		return true, nil
	case c.Op != plan.OpUpdate:
		// Only a changed file has more than one hunk; be strict anyway.
		return false, (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("%s is %sd whole: its change cannot be split into hunks", c.Path, c.Op), Paths: []string{c.Path}}).
			WithHint("tick or untick the whole file")
	}
	var sel []int
	for n := range ok {
		sel = append(sel, n)
	}
	sort.Ints(sel)
	after, err := edit.SelectHunks(c.Before, c.After, sel)
	if err != nil {
		return false, err
	}
	c.After = after
	repreview(c)
	return true, nil
}

// editChange puts the user's content in place of c's proposal, checked like
// the model's; false when the result leaves the file as it is.
func editChange(c *Change, content string, fr *plan.FileReview) (bool, error) {
	if c.Op != plan.OpCreate && c.Op != plan.OpUpdate {
		return false, (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("%s is not created or changed by the plan (%s), so it has no content to edit", c.Path, c.Op), Paths: []string{c.Path}}).
			WithHint("tick or untick the whole change")
	}
	b := []byte(content)
	if len(b) > maxUserContent {
		return false, (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the edited content of %s is %d bytes; at most %d are accepted", c.Path, len(b), maxUserContent), Paths: []string{c.Path}}).
			WithHint("edit the file in your own editor instead")
	}
	if edit.IsBinary(b) {
		return false, (&plan.Error{Code: plan.ErrBinaryContent, Msg: "the edited content of " + c.Path + " looks binary (NUL bytes or control characters)", Paths: []string{c.Path}}).
			WithHint("fixplan only writes text files")
	}
	if !utf8.Valid(b) {
		return false, (&plan.Error{Code: plan.ErrNonUTF8File, Msg: "the edited content of " + c.Path + " is not UTF-8 text", Paths: []string{c.Path}}).
			WithHint("fixplan writes UTF-8 text only")
	}
	if c.Op == plan.OpUpdate {
		b = edit.Adapt(c.Before, b)
	}
	proposed := c.After
	fr.Edited = true
	// One file in two versions, titled by its path on both sides (not a rename).
	fr.EditDiff = edit.Unified(c.Path, c.Path, proposed, b)
	if c.shown != nil { // kept in the record: the user's text is shown redacted too
		fr.EditDiff = c.shown.diff(c.Path, fr.EditDiff, proposed, b, true)
	}
	if c.Op == plan.OpUpdate && string(b) == string(c.Before) {
		return false, nil
	}
	c.After = b
	repreview(c)
	return true, nil
}

// repreview recomputes the diff and the flags of a change whose new bytes changed.
func repreview(c *Change) {
	c.pv = nil
	c.Flags = nil
	c.memo()
	flag(c)
}

// PreviewSelection previews what applying sel to draft plan id would write: the
// ticked changes narrowed to their accepted hunks or replaced by the user's
// content, with their recomputed diffs and flags (a change with no accepted
// hunk is left out). Nothing is written. It refuses like ApplyPlan: a foreign or
// non-draft plan, ERR_BASE_MISMATCH when the files changed since the preview,
// ERR_INVALID_INPUT for an unknown path or hunk, and the content checks.
func (e *Engine) PreviewSelection(id string, sel Selection) ([]plan.FileChange, error) {
	cs, err := e.SelectedChanges(id, sel)
	if err != nil {
		return nil, err
	}
	out := make([]plan.FileChange, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Preview())
	}
	return out, nil
}

// SelectedChanges are the changes applying sel to draft plan id would write, with
// their new bytes (what PreviewSelection shows; a verification of the user's
// choices writes them into its scratch copy). Refusals as PreviewSelection.
func (e *Engine) SelectedChanges(id string, sel Selection) ([]Change, error) {
	cs, _, err := e.refined(id, sel)
	if err != nil {
		return nil, err
	}
	return cs, nil
}

// ReviewOf describes what sel does with draft plan id — the hunks rejected, the
// files left out, the edits — without writing anything, for a re-plan of a
// draft the user reviewed but did not apply. Refusals as PreviewSelection; nil
// when sel takes everything as proposed.
func (e *Engine) ReviewOf(id string, sel Selection) (*plan.Review, error) {
	_, rv, err := e.refined(id, sel)
	if err != nil || rv.Empty() {
		return nil, err
	}
	return rv, nil
}

// refined recomputes the changes sel ticks of draft plan id against the disk
// and narrows them to the user's choices (refine).
func (e *Engine) refined(id string, sel Selection) ([]Change, *plan.Review, error) {
	rec, err := e.reviewable(id)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for _, c := range rec.Changes {
		want[c.Path] = sel.Paths == nil
	}
	for _, p := range sel.Paths {
		if _, ok := want[p]; !ok {
			return nil, nil, plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", id, p)
		}
		want[p] = true
	}
	cs, err := e.current(rec, want)
	if err != nil {
		return nil, nil, err
	}
	return refine(rec, want, cs, sel.Files)
}

// Proposal returns the text path has now ("" for a new file) and the text draft
// plan id proposes for it: what the user starts from to edit the proposal by
// hand. Refusals as PreviewSelection; a deletion or a folder has no text
// (ERR_INVALID_INPUT).
func (e *Engine) Proposal(id, path string) (before, after string, err error) {
	rec, err := e.reviewable(id)
	if err != nil {
		return "", "", err
	}
	want := map[string]bool{}
	for _, c := range rec.Changes {
		if c.Path == path {
			want[path] = true
		}
	}
	if !want[path] {
		return "", "", plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", id, path)
	}
	cs, err := e.current(rec, want)
	if err != nil {
		return "", "", err
	}
	if len(cs) != 1 || (cs[0].Op != plan.OpCreate && cs[0].Op != plan.OpUpdate) {
		return "", "", (&plan.Error{Code: plan.ErrInvalidInput, Msg: path + " is not created or changed by the plan, so it has no text to edit", Paths: []string{path}}).
			WithHint("tick or untick the whole change")
	}
	return string(cs[0].Before), string(cs[0].After), nil
}

// reviewable loads a draft plan of this user's for review.
func (e *Engine) reviewable(id string) (*plan.Record, error) {
	rec, err := e.LoadPlan(id)
	if err != nil {
		return nil, err
	}
	if rec.Foreign {
		return nil, foreignPlan(id)
	}
	if rec.State != plan.StateDraft {
		return nil, plan.Errorf(plan.ErrAlreadyApplied, "plan %s is %s, not a draft", id, rec.State).WithHint("re-plan to change the files again")
	}
	return rec, nil
}

// current recomputes the wanted changes of rec against the disk; a change whose
// diff is no longer the one previewed is ERR_BASE_MISMATCH.
func (e *Engine) current(rec *plan.Record, want map[string]bool) ([]Change, error) {
	stored := map[string]plan.FileChange{}
	for _, c := range rec.Changes {
		stored[c.Path] = c
	}
	all, err := e.Changes(&rec.Plan)
	if err != nil {
		return nil, err
	}
	var cs []Change
	found := map[string]bool{}
	for _, c := range all {
		if !want[c.Path] {
			continue
		}
		if pv := c.Preview(); !edit.SameDiff(stored[c.Path].Diff, pv.Diff) || pv.BaseSHA256 != stored[c.Path].BaseSHA256 {
			return nil, baseMismatch([]string{c.Path})
		}
		found[c.Path] = true
		cs = append(cs, c)
	}
	var gone []string
	for p, w := range want {
		if w && !found[p] {
			gone = append(gone, p)
		}
	}
	if len(gone) > 0 {
		sortStrings(gone)
		return nil, baseMismatch(gone)
	}
	return cs, nil
}
