package defs

import (
	"strings"
	"testing"
)

// render passes each of its patterns, indexed, to _apply, which calls the
// pattern's handle: the handle of Code and of Strong (the patterns
// build_patterns appends) are shown as what render calls; Shout's handle,
// a class nothing registers, is not.
func TestDefinitionsPythonRegistryItemPassedToCallee(t *testing.T) {
	root, problem := typedFixture(t, "pyitems")
	got := sectionsFor(t, root, problem, Request{})
	for _, want := range []string{`"<b>"`, `"<code>"`} {
		if !got.shows("render/patterns.py", want) {
			t.Errorf("the handle returning %s (a registered pattern's) not shown; sections:\n%s", want, got.titles())
		}
	}
	for _, s := range got.sections {
		if strings.Contains(s.Sec.Title, "render/patterns.py") && strings.Contains(s.Sec.Title, "definition of handle") &&
			!strings.Contains(s.Sec.Title, "used by render") {
			t.Errorf("a registered pattern's handle is not shown as render's: %s", s.Sec.Title)
		}
	}
	if _, ok := got.find("File render/shout.py"); ok {
		t.Errorf("Shout's handle shown though nothing registers a Shout; sections:\n%s", got.titles())
	}
}
