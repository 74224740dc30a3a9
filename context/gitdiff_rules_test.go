package codectx

import (
	"context"
	"strings"
	"testing"

	"fixplan/context/gitrepo"
	"fixplan/plan"
)

// TestGitDiffLeavesRulesOut: a changed AGENTS.md (or .cursor/rules file) is not
// shown in the recent-changes section — with the rules on it is named there and
// its text is in the rules section only (once, inside the PROJECT RULES framing);
// with the rules off its text reaches no section at all, neither in the
// uncommitted changes nor in the last commit.
func TestGitDiffLeavesRulesOut(t *testing.T) {
	repo := t.TempDir()
	commit(t, repo, map[string]string{
		"AGENTS.md":            "Use tabs.\n",
		".cursor/rules/py.mdc": "---\nalwaysApply: true\n---\nOld cursor rule.\n",
		"calc.py":              "def add(a, b):\n    return a + b\n",
	})
	writeTree(t, repo, map[string]string{
		"AGENTS.md":            "Use tabs.\nRULES-SENTINEL-AGENTS: run make check.\n",
		".cursor/rules/py.mdc": "---\nalwaysApply: true\n---\nRULES-SENTINEL-CURSOR\n",
		"calc.py":              "def add(a, b):\n    return a - b\n",
	})
	in := plan.ProblemInput{Problem: "  File \"calc.py\", line 2, in add\n"}
	count := func(got plan.Gathered) (inRules, elsewhere int, body string) {
		for _, s := range got.Sections {
			n := strings.Count(s.Body, "RULES-SENTINEL")
			if strings.HasPrefix(s.Title, RulesTitle) {
				inRules += n
			} else {
				elsewhere += n
			}
			if strings.HasPrefix(s.Title, gitrepo.ChangesTitle) || strings.HasPrefix(s.Title, "Last commit") {
				body = s.Body
			}
		}
		return
	}
	for _, committed := range []bool{false, true} {
		if committed {
			git(t, repo, "commit", "-qam", "rules and a fix")
		}
		on, err := diffGatherer(t, repo, Options{}).Base(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		inRules, elsewhere, body := count(on)
		if inRules != 2 || elsewhere != 0 {
			t.Errorf("committed=%v, rules on: the rules text is %d times in Project rules and %d times elsewhere, want 2 and 0", committed, inRules, elsewhere)
		}
		if !strings.Contains(body, "AGENTS.md: changed (a project rules file") || !strings.Contains(body, "calc.py") {
			t.Errorf("committed=%v, rules on: the changes section must name AGENTS.md as changed and show calc.py:\n%s", committed, body)
		}
		off, err := diffGatherer(t, repo, Options{NoProjectRules: true}).Base(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		inRules, elsewhere, body = count(off)
		if inRules+elsewhere != 0 {
			t.Errorf("committed=%v, rules off: the rules text reached the model %d times", committed, inRules+elsewhere)
		}
		if strings.Contains(body, "AGENTS.md") || strings.Contains(body, "py.mdc") || !strings.Contains(body, "calc.py") {
			t.Errorf("committed=%v, rules off: the changes section must leave the rules files out entirely:\n%s", committed, body)
		}
	}
}

// TestFrameWindowLeavesRulesOut: a problem text whose trace names AGENTS.md
// does not bring the rules text in as a stack-frame window (with the rules off
// it would reach the model after all; with them on, outside their framing).
func TestFrameWindowLeavesRulesOut(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"AGENTS.md": "Use tabs.\nRULES-SENTINEL\n", "calc.py": "x = 1\n"})
	in := plan.ProblemInput{Problem: "error at AGENTS.md:2:1\n  File \"AGENTS.md\", line 2, in <module>\n  File \"calc.py\", line 1, in <module>\n"}
	for _, off := range []bool{false, true} {
		got, err := newGatherer(t, root, Options{NoProjectRules: off}).Base(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range got.Sections {
			if strings.Contains(s.Body, "RULES-SENTINEL") && !strings.HasPrefix(s.Title, RulesTitle) {
				t.Errorf("rules off=%v: section %q shows the rules text", off, s.Title)
			}
		}
	}
}
