package defs

import (
	"strings"
	"testing"
)

// run calls apply on each of its steps, which build_steps registers (Python:
// steps.append(Lower()), TS: steps.push(new Lower())):
// Lower's and Trim's apply are shown as what run calls, before Unused's (an
// apply nothing registers, found by its name only), and the classes are
// not what run uses.
func TestDefinitionsRegistry(t *testing.T) {
	for _, c := range []struct{ name, lower, trim, unused string }{
		{"pyregistry", "lower()", "rstrip", "[::-1]"},
		{"tsregistry", "toLowerCase()", "replace(", "reverse()"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, problem := typedFixture(t, c.name)
			got := sectionsFor(t, root, problem, Request{})
			var order []string
			for _, s := range got.sections {
				if !strings.Contains(s.Sec.Title, "definition of apply") {
					continue
				}
				switch {
				case strings.Contains(s.Sec.Body, c.lower):
					order = append(order, "Lower")
				case strings.Contains(s.Sec.Body, c.trim):
					order = append(order, "Trim")
				case strings.Contains(s.Sec.Body, c.unused):
					order = append(order, "Unused")
				}
				if !strings.Contains(s.Sec.Title, "used by run") && !strings.Contains(s.Sec.Body, c.unused) {
					t.Errorf("a registered step's apply is not shown as run's: %s", s.Sec.Title)
				}
			}
			if len(order) < 2 || order[0] == "Unused" || order[1] == "Unused" {
				t.Errorf("the applies shown, in order: %v, want Lower's and Trim's first; sections:\n%s", order, got.titles())
			}
		})
	}
}
