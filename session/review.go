package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"fixplan/apply"
	"fixplan/edit"
	"fixplan/plan"
)

// Apply applies the selected files and memory keys of a draft plan as one
// transaction; paths nil means every change (see ApplySelection).
func (s *Session) Apply(ctx context.Context, id string, paths []string, memoryKeys []string) (apply.Result, error) {
	return s.ApplySelection(ctx, id, paths, memoryKeys, nil)
}

// PreviewSelection previews what applying the ticked paths (nil: every change)
// narrowed by files (accepted hunks, the user's own content) would write, with
// the recomputed diffs; nothing is written. It refuses like Apply.
func (s *Session) PreviewSelection(id string, paths []string, files []apply.FileChoice) ([]plan.FileChange, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.PreviewSelection(id, apply.Selection{Paths: paths, Files: files})
}

// DryRun is PreviewSelection that also refuses what Apply would refuse before
// writing (`fixplan apply --dry-run`).
func (s *Session) DryRun(id string, paths []string, files []apply.FileChoice) ([]plan.FileChange, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.DryRun(id, apply.Selection{Paths: paths, Files: files})
}

// Caps of the review section of a re-plan request: each quoted hunk or edit,
// and the whole section.
const (
	reviewQuoteBytes = 4 << 10
	reviewBytes      = 24 << 10
)

// reviewSection describes to the model what the operator did with the previous
// plan's changes: the hunks rejected (quoted), the files left out, and the hand
// edits (a diff from the model's proposal to the operator's version), so the
// next plan does not propose them again. "" when the operator took everything.
// The text is redacted with the rest of the message when it is sent.
func reviewSection(prev *plan.Record, draft *plan.Review) string {
	if prev == nil {
		return ""
	}
	review := prev.Review
	if prev.State == plan.StateDraft && draft != nil {
		review = draft // chosen in the window, not applied
	}
	if review.Empty() {
		return ""
	}
	diffs := map[string]string{}
	for _, c := range prev.Changes {
		diffs[c.Path] = c.Diff
	}
	var b strings.Builder
	verb, kept := "applied", "applied"
	if prev.State != plan.StateApplied {
		verb, kept = "reviewed, not applied", "accepted"
	}
	fmt.Fprintf(&b, "\nOPERATOR REVIEW OF THE EARLIER PLAN (%s): the operator did not take all of your earlier changes as proposed. Do not propose a rejected change again unless the problem now requires it and you say why; keep the operator's own edits (they are in the files when the plan was applied).\n", verb)
	if prev.Plan.Summary != "" {
		fmt.Fprintf(&b, "Earlier summary (quoted, indented):\n%s", quoteText(prev.Plan.Summary))
	}
	for _, f := range review.Files {
		switch {
		case f.Unticked:
			fmt.Fprintf(&b, "- %s: the operator rejected your whole change to this file (not applied):\n%s", f.Path, quote(diffs[f.Path]))
		case f.Edited:
			fmt.Fprintf(&b, "- %s: the operator changed your proposed content to their own version; diff from your proposal to the operator's:\n%s", f.Path, quote(f.EditDiff))
		case len(f.Rejected) > 0:
			hs, _ := edit.ParseHunks(diffs[f.Path])
			for _, n := range f.Rejected {
				if n < 1 || n > len(hs) {
					continue
				}
				fmt.Fprintf(&b, "- %s: the operator rejected this hunk (%d of %d) of your change; it was not applied:\n%s", f.Path, n, f.Hunks, quote(hs[n-1].Text))
			}
			if accepted := f.Hunks - len(f.Rejected); accepted > 0 {
				fmt.Fprintf(&b, "  (the other %d hunk(s) of %s were %s)\n", accepted, f.Path, kept)
			}
		}
		if b.Len() > reviewBytes {
			b.WriteString("…[the rest of the review is left out]\n")
			break
		}
	}
	return b.String()
}

// quote indents a diff, escapes its control and separator characters and clips
// it to reviewQuoteBytes.
func quote(diff string) string {
	if diff == "" {
		return ""
	}
	if len(diff) > reviewQuoteBytes {
		cut := strings.LastIndexByte(diff[:reviewQuoteBytes], '\n')
		if cut < 0 {
			cut = reviewQuoteBytes
		}
		diff = diff[:cut] + "\n…[truncated]\n"
	}
	diff = escapeControls(diff) // a U+2028 in a hand edit would start an unindented line
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(diff, "\n"), "\n") {
		b.WriteString("    ")
		b.WriteString(l)
	}
	b.WriteByte('\n')
	return b.String()
}

// ReviewOf describes what the user ticked, rejected or edited in draft plan id
// (as ApplySelection would take it) without applying anything: a re-plan of the
// draft tells the model (ProblemInput.Review).
func (s *Session) ReviewOf(id string, paths []string, files []apply.FileChoice) (*plan.Review, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.ReviewOf(id, apply.Selection{Paths: paths, Files: files})
}

// VerifySelection verifies draft plan id as the user chose it — the ticked
// paths (nil: all) narrowed to their accepted hunks or replaced by the user's
// text — in a scratch copy, like VerifyPlan; the verdict, saved with the plan,
// says it is about those choices.
func (s *Session) VerifySelection(ctx context.Context, id string, approve []string, paths []string, files []apply.FileChoice) (*plan.Record, error) {
	return s.verifyPlan(ctx, id, approve, &apply.Selection{Paths: paths, Files: files})
}

// covers describes what a verification of rec with sel (nil: as proposed)
// checks: every change as proposed, or the ticked files in the plan's order with
// the accepted hunks or the user's text (by its SHA-256) of those narrowed.
func covers(rec *plan.Record, sel *apply.Selection) *plan.VerifiedSelection {
	if sel == nil {
		return &plan.VerifiedSelection{Scope: plan.CoversProposed, Paths: []string{}, Files: []plan.VerifiedFile{}}
	}
	ticked := map[string]bool{}
	for _, p := range sel.Paths {
		ticked[p] = true
	}
	choice := map[string]apply.FileChoice{}
	for _, f := range sel.Files {
		if f.Hunks != nil || f.Content != nil {
			choice[f.Path] = f
		}
	}
	out := &plan.VerifiedSelection{Scope: plan.CoversSelection, Paths: []string{}, Files: []plan.VerifiedFile{}}
	for _, c := range rec.Changes {
		if sel.Paths != nil && !ticked[c.Path] {
			continue
		}
		out.Paths = append(out.Paths, c.Path)
		f, ok := choice[c.Path]
		if !ok {
			continue
		}
		vf := plan.VerifiedFile{Path: c.Path, Hunks: slices.Clone(f.Hunks)}
		if f.Content != nil {
			sum := sha256.Sum256([]byte(*f.Content))
			vf.ContentSHA256 = hex.EncodeToString(sum[:])
		}
		out.Files = append(out.Files, vf)
	}
	if len(out.Paths) == len(rec.Changes) && len(out.Files) == 0 {
		return &plan.VerifiedSelection{Scope: plan.CoversProposed, Paths: []string{}, Files: []plan.VerifiedFile{}}
	}
	return out
}

// Proposal returns the text path has now and the text draft plan id proposes
// for it, for the user to edit by hand (see apply.Engine.Proposal).
func (s *Session) Proposal(id, path string) (before, after string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.Proposal(id, path)
}
