package defs

import "testing"

// The help text a test expects is a constant an error type's Usage method
// returns: the lexer function that builds that error value, and the method it
// hands it to (which sets the wrong line), are shown, though only a table of
// states filled at init leads to them by name.
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
	if _, ok := got.find("definition of lexComment"); ok {
		t.Errorf("a state function that builds no error value is shown; sections:\n%s", got.titles())
	}
}
