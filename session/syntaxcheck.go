package session

import (
	"fmt"
	"strings"

	"fixplan/plan"
	"fixplan/syntax"
)

// syntaxFeedback lists, for the one correction request of docs/CONTRACT.md §4.3,
// the syntax errors the previewed changes introduce (engineAdapter fills
// FileChange.SyntaxIssues through package syntax). Changes about to be dropped
// (unseen) are skipped. For a file whose lines the model may not read, only the
// file and the language are named: a parser message can quote the file's text.
func (r *run) syntaxFeedback(changes []plan.FileChange, skip []string) []string {
	drop := map[string]bool{}
	for _, p := range skip {
		drop[cleanPath(p)] = true
	}
	var out []string
	for _, c := range changes {
		if len(c.SyntaxIssues) == 0 || drop[cleanPath(c.Path)] {
			continue
		}
		lang := syntax.Language(c.Path)
		if c.Op == plan.OpUpdate && r.p.cfg.Gatherer.MayQuote(c.Path) != nil { // a new file is all the model's own text
			out = append(out, fmt.Sprintf("/proposed_changes: %s: the change introduces a %s syntax error the file did not have (details not shown: the model may not read this file)", c.Path, lang))
			continue
		}
		out = append(out, fmt.Sprintf("/proposed_changes: %s: the change introduces %s syntax error(s) the file did not have: %s",
			c.Path, lang, strings.Join(c.SyntaxIssues, "; ")))
	}
	if len(out) > 0 {
		out = append(out, "/proposed_changes: correct the changes so every file parses, and send the complete JSON object again")
	}
	return out
}
