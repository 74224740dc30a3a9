package codectx

import (
	"context"
	"strings"
	"testing"

	"fixplan/plan"
)

// TestBaseRules: the rules section comes right after the stack frames, lists
// the files used in its title, follows the nearest AGENTS.md of the failing
// frame's file, and is left out when the user switched project rules off.
func TestBaseRules(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"AGENTS.md":          "Root: run pytest -q.\n",
		"app/AGENTS.md":      "App: amounts are Decimal.\n",
		"app/calc.py":        "def add(a, b):\n    return a - b\n",
		".cursorrules":       "Cursor: short answers.\n",
		"docs/AGENTS.md":     "Docs: not in play.\n",
		"tests/test_calc.py": "def test_add():\n    assert add(2, 3) == 5\n",
	})
	problem := "Traceback (most recent call last):\n  File \"app/calc.py\", line 2, in add\nAssertionError\n"
	for _, off := range []bool{false, true} {
		g := newGatherer(t, root, Options{NoProjectRules: off})
		got, err := g.Base(context.Background(), plan.ProblemInput{Problem: problem})
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		rules := -1
		for i, s := range got.Sections {
			titles = append(titles, s.Title)
			if strings.HasPrefix(s.Title, RulesTitle) {
				rules = i
			}
		}
		if off {
			if rules >= 0 {
				t.Errorf("project rules switched off, yet sent: %q", titles)
			}
			continue
		}
		if rules < 1 || titles[rules-1] != "Stack frames" {
			t.Fatalf("rules section not right after the stack frames: %q", titles)
		}
		if want := "Project rules (app/AGENTS.md, AGENTS.md, .cursorrules)"; titles[rules] != want {
			t.Errorf("title = %q, want %q", titles[rules], want)
		}
		body := got.Sections[rules].Body
		if strings.Index(body, "App: amounts") > strings.Index(body, "Root: run") || strings.Contains(body, "Docs:") {
			t.Errorf("nearest AGENTS.md must come first and others' be left out:\n%s", body)
		}
	}
}
