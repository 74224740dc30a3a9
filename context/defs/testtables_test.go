package defs

import (
	"strings"
	"testing"
)

// The failure names one subtest (TestRender/Quote/Nested, the case's name
// made of two constants) of the cases two table functions return: the table holding it is shown with that case only,
// saying how many cases are left out; the other table, and the fixture only
// its cases use, are left out (a warning names the table); the code under
// test is shown down to escape, where the bug is.
func TestDefinitionsGoTestTableTrimmedToFailingCase(t *testing.T) {
	root, problem := typedFixture(t, "casetables")
	got := sectionsFor(t, root, problem, Request{})
	c, ok := got.find("File render_test.go", "definition of quoteTests", "the 1 case of 4 the failure names, the other cases left out")
	if !ok {
		t.Fatalf("quoteTests not shown trimmed to the failing case; sections:\n%s", got.titles())
	}
	if !strings.Contains(c.Sec.Body, `label + nested`) || !strings.Contains(c.Sec.Body, "func quoteTests() []tc {") {
		t.Errorf("quoteTests' section lacks its head or the failing case:\n%s", c.Sec.Body)
	}
	for _, other := range []string{"/Simple", "/Unclosed", "/Twice"} {
		if strings.Contains(c.Sec.Body, other) {
			t.Errorf("quoteTests' section shows the case %s the failure does not name:\n%s", other, c.Sec.Body)
		}
	}
	if !strings.Contains(c.Sec.Body, "other case") {
		t.Errorf("quoteTests' section does not say cases were left out:\n%s", c.Sec.Body)
	}
	for _, name := range []string{"plainTests", "bigFixture"} {
		if _, ok := got.find("definition of " + name); ok {
			t.Errorf("%s shown, though only cases the failure does not name use it; sections:\n%s", name, got.titles())
		}
	}
	warned := false
	for _, w := range got.warnings {
		warned = warned || (strings.Contains(w, "tables of test cases left out") && strings.Contains(w, "plainTests"))
	}
	if !warned {
		t.Errorf("no warning names plainTests as left out: %q", got.warnings)
	}
	if _, ok := got.find("File render.go", "definition of escape"); !ok {
		t.Errorf("escape (the code under test) not shown; sections:\n%s", got.titles())
	}
}

// A table written in the failing test, no subtest named: the values the
// failing line prints ("sta?", "stagnation") pick the cases, and the
// constants only the other cases use are not looked up.
func TestDefinitionsGoInlineTableCasesFromPrintedValues(t *testing.T) {
	root, problem := typedFixture(t, "inlinecases")
	got := sectionsFor(t, root, problem, Request{})
	for _, name := range []string{"patternAll", "fixtureAll", "patternPlain", "patternSuffix"} {
		if _, ok := got.find("definition of " + name); ok {
			t.Errorf("%s shown, though only cases the failure does not name use it; sections:\n%s", name, got.titles())
		}
	}
	for _, name := range []string{"Match", "lenOk", "matchAll"} {
		if _, ok := got.find("File match.go", "definition of "+name); !ok {
			t.Errorf("%s not shown; sections:\n%s", name, got.titles())
		}
	}
}
