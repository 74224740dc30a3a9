package defs

import (
	"strings"
	"testing"
)

// build's branches on options: the test sets upper, so shout (its branch)
// ranks with the chain the test runs, and strip (behind strip or trim,
// options the test does not name) after all of it — after pad, three calls
// down.
func TestDefinitionsPythonOptionBranches(t *testing.T) {
	root, problem := typedFixture(t, "pyoptions")
	got := sectionsFor(t, root, problem, Request{})
	titles := got.titles()
	at := func(name string) int {
		return strings.Index(titles, "definition of "+name+",")
	}
	for _, name := range []string{"build", "shout", "finish", "pad"} {
		if at(name) < 0 {
			t.Fatalf("%s not shown; sections:\n%s", name, titles)
		}
	}
	if at("shout") > at("pad") {
		t.Errorf("shout (the option the test sets) ranks after pad; sections:\n%s", titles)
	}
	if s := at("strip"); s >= 0 && s < at("pad") {
		t.Errorf("strip (an option the test does not set) ranks before pad; sections:\n%s", titles)
	}
}
