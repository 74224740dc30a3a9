package session

import (
	"fmt"
	"strings"

	"fixplan/plan"
)

// The edit format (docs/CONTRACT.md §4.1): how the prompt asks the model to write
// changes to existing files. Published results show it matters as much as the
// model: a model that handles whole files may garble search/replace diffs, and
// code carried inside JSON breaks more often the bigger it is.

// The values of Settings.EditFormat.
const (
	EditAuto          = "auto"           // by file size and by what the model handled before
	EditWhole         = "whole"          // UPDATE_FILE with the whole new content
	EditSearchReplace = "search_replace" // EDIT_FILE with {search, replace} pairs
	EditDiff          = "diff"           // a unified diff in proposed_changes.patch
)

// EditFormats lists the edit formats, auto first.
var EditFormats = []string{EditAuto, EditWhole, EditSearchReplace, EditDiff}

// AutoLargeFile is the number of lines above which auto asks for targeted edits
// instead of the whole file.
const AutoLargeFile = 200

// Notes the loop writes into a record's warnings when a plan's file changes did
// not apply; auto reads them back to learn which formats a model struggles with.
const (
	noteChangesRepaired = "the first proposed changes did not apply; the model was asked to correct them"
	noteChangesDropped  = "the proposed changes were left out because they cannot be applied"
)

// ParseEditFormat checks an edit format given by a person (a flag, the settings
// file). It fails with ERR_CONFIG listing the values.
func ParseEditFormat(s string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, "-", "_")))
	switch v {
	case "":
		return EditAuto, nil
	case "whole_file", "whole":
		return EditWhole, nil
	case "searchreplace", "search_replace", "edit":
		return EditSearchReplace, nil
	case "unified_diff", "udiff", "patch", "diff":
		return EditDiff, nil
	case EditAuto:
		return EditAuto, nil
	}
	return "", plan.Errorf(plan.ErrConfig, "unknown edit format %q", s).
		WithHint("use one of: " + strings.Join(EditFormats, ", "))
}

// editChoice is the resolved format: for files up to AutoLargeFile lines and for
// longer ones, and why (for auto).
type editChoice struct {
	small, large string
	why          string
}

// formatUsed classifies how a stored plan wrote its changes to existing files
// ("" when it changed none).
func formatUsed(p *plan.Plan) string {
	if p.EffectivePatch() != "" {
		return EditDiff
	}
	for _, a := range p.Actions() {
		switch a.Kind {
		case plan.EditFile:
			return EditSearchReplace
		case plan.UpdateFile:
			return EditWhole
		}
	}
	return ""
}

// resolveEditFormat turns the setting into the formats to ask for. For auto it
// reads the model's newest 20 plans in this project that changed existing files
// (history is newest first, as Engine.Plans lists it; foreign plans are ignored): a format whose
// changes failed to apply in at least 2 of them, and in at least half of the
// plans that used it, is not asked for again — search/replace falls back to a
// unified diff, a diff to whole files.
func resolveEditFormat(setting, model string, history []plan.Record) editChoice {
	switch setting {
	case EditWhole, EditSearchReplace, EditDiff:
		return editChoice{small: setting, large: setting}
	}
	uses, fails := map[string]int{}, map[string]int{}
	seen := 0
	for i := 0; i < len(history) && seen < 20; i++ {
		r := &history[i]
		if r.Foreign || !madeBy(r, model) {
			continue
		}
		f := formatUsed(&r.Plan)
		if f == "" {
			continue
		}
		seen++
		uses[f]++
		for _, w := range r.Warnings {
			if strings.HasPrefix(w, noteChangesRepaired) || strings.HasPrefix(w, noteChangesDropped) {
				fails[f]++
				break
			}
		}
	}
	struggles := func(f string) bool { return fails[f] >= 2 && fails[f]*2 >= uses[f] }
	c := editChoice{small: EditWhole, large: EditSearchReplace}
	if struggles(EditSearchReplace) {
		c.large, c.why = EditDiff, fmt.Sprintf("search/replace edits of %s failed in %d of %d earlier plans", model, fails[EditSearchReplace], uses[EditSearchReplace])
		if struggles(EditDiff) {
			c.large, c.why = EditWhole, c.why+fmt.Sprintf(", and unified diffs in %d of %d", fails[EditDiff], uses[EditDiff])
		}
	}
	return c
}

// madeBy reports a record whose model calls went to model (records without calls
// count for any model).
func madeBy(r *plan.Record, model string) bool {
	if len(r.Calls) == 0 || model == "" {
		return true
	}
	for _, c := range r.Calls {
		if c.Model == model {
			return true
		}
	}
	return false
}

var formatText = map[string]string{
	EditWhole: `UPDATE_FILE with the whole new file content (edits null)`,
	EditSearchReplace: `EDIT_FILE with "edits": [{"search", "replace"}] and content null — search: whole current lines copied exactly from the file ` +
		`(same indentation), just enough of them to occur once; replace: the lines that take their place (empty deletes them); ` +
		`one pair per place, in any order, never two pairs touching the same lines`,
	EditDiff: `a unified diff in proposed_changes.patch (--- a/PATH, +++ b/PATH, @@ -l,n +l,n @@ hunks whose context lines are copied exactly)`,
}

// editFormatNote is the EDIT FORMAT part of the system message.
func editFormatNote(c editChoice) string {
	var b strings.Builder
	b.WriteString("EDIT FORMAT: ")
	if c.small == c.large {
		fmt.Fprintf(&b, "change an existing file with %s.", formatText[c.small])
	} else {
		fmt.Fprintf(&b, "change an existing file of up to %d lines with %s; a longer one with %s.", AutoLargeFile, formatText[c.small], formatText[c.large])
	}
	b.WriteString(" Create a new file with CREATE_FILE. Keep code inside the JSON as small as the format allows.\n")
	return b.String()
}

// editFormatNote resolves the session's edit format setting; auto reads the
// project's plan records (a damaged or unreadable history counts as none).
func (s *Session) editFormatNote() string {
	var hist []plan.Record
	if s.st.EditFormat == EditAuto || s.st.EditFormat == "" {
		// Only the newest plans count (resolveEditFormat reads 20 of this model's);
		// loading the whole history cost ~17% of a plan's CPU on a long-used project.
		hist, _ = s.eng.RecentPlans(60)
	}
	return editFormatNote(resolveEditFormat(s.st.EditFormat, s.st.Model, hist))
}
