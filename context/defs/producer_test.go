package defs

import (
	"strings"
	"testing"
)

// The help text a test expects is a constant an error type's Usage method
// returns: the lexer function that builds that error value, and the method it
// hands it to (which sets the wrong line), are shown, the builder ranked with
// the message before the lexer's other state functions (which the call of a
// state function value leads to as well).
func TestDefinitionsGoProducerOfAMessagesValue(t *testing.T) {
	root, problem := typedFixture(t, "producermsg")
	got := sectionsFor(t, root, problem, Request{})
	for _, parts := range [][]string{
		{"File lex.go", "definition of lexEscape", "builds the errBadEscape"},
		{"File lex.go", "definition of fail", "used by lexEscape"},
	} {
		if _, ok := got.find(parts...); !ok {
			t.Errorf("no section %q; sections:\n%s", parts, got.titles())
		}
	}
	at := func(name string) int {
		for i, c := range got.sections {
			if strings.Contains(c.Sec.Title, "definition of "+name+",") {
				return i
			}
		}
		return len(got.sections)
	}
	if at("lexComment") < at("lexEscape") {
		t.Errorf("a state function that builds no error value ranks before the one that builds it; sections:\n%s", got.titles())
	}
}
