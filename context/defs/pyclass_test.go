package defs

import (
	"strings"
	"testing"
)

// Money is a long class: `==` on two of them runs its __eq__, which is
// shown; the class's section shows its head and __init__ (what constructing
// runs), not to_json, which nothing on the path calls.
func TestDefinitionsPythonLongClassInPlay(t *testing.T) {
	root, problem := typedFixture(t, "pyprotocol")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File bank/money.py", "definition of __eq__"); !ok {
		t.Errorf("Money.__eq__ not shown; sections:\n%s", got.titles())
	}
	s, ok := got.find("File bank/money.py", "definition of Money")
	if !ok {
		t.Fatalf("Money not shown; sections:\n%s", got.titles())
	}
	if !strings.Contains(s.Sec.Body, "self.currency = currency") {
		t.Errorf("Money's section does not show its __init__:\n%s", s.Sec.Body)
	}
	for _, sec := range got.sections {
		if strings.Contains(sec.Sec.Body, "currency_code") {
			t.Errorf("to_json, which nothing calls, is shown: %s", sec.Sec.Title)
		}
	}
}
