package defs

import (
	"testing"

	"fixplan/internal/testtree"
)

// The message search and the project-wide name search of one gather read the
// tree in one walk, and each finds what it found alone: check_total (whose
// text the failure shows, called by no one the failing lines name) and
// make_report (called by the failing test, defined where no import leads).
func TestDefinitionsOneWalkOfTheTree(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"lib/checks.py":        "def check_total(total):\n    if total < 0:\n        raise ValueError(\"total must be positive, got a negative\")\n    return total\n",
		"lib/reports.py":       "def make_report(rows):\n    return sum(rows)\n",
		"tests/test_report.py": "from helpers import rows\n\n\ndef test_report():\n    assert make_report(rows()) == 3\n",
	})
	problem := "Traceback (most recent call last):\n" +
		"  File \"/ci/proj/tests/test_report.py\", line 5, in test_report\n" +
		"    assert make_report(rows()) == 3\n" +
		"ValueError: \"total must be positive, got a negative\"\n"
	before := defWalks.Load()
	got := sectionsFor(t, root, problem, Request{})
	if walks := defWalks.Load() - before; walks != 1 {
		t.Errorf("the tree walked %d times for one gather", walks)
	}
	for _, parts := range [][]string{
		{"File lib/checks.py", "definition of check_total"},
		{"File lib/reports.py", "definition of make_report"},
	} {
		if _, ok := got.find(parts...); !ok {
			t.Errorf("no section %q; sections:\n%s", parts, got.titles())
		}
	}
}
