package defs

import "testing"

// build's branches on options: the test sets upper, so shout (its branch)
// ranks with the chain the test runs, and strip (behind strip or trim,
// options the test does not name) after all of it — after pad, three calls
// down.
func TestDefinitionsPythonOptionBranches(t *testing.T) {
	root, problem := typedFixture(t, "pyoptions")
	got := sectionsFor(t, root, problem, Request{})
	for _, name := range []string{"build", "shout", "finish", "pad"} {
		if got.rank(name) < 0 {
			t.Fatalf("%s not shown; sections:\n%s", name, got.titles())
		}
	}
	if got.rank("shout") > got.rank("pad") {
		t.Errorf("shout (the option the test sets) ranks after pad; sections:\n%s", got.titles())
	}
	if s := got.rank("strip"); s >= 0 && s < got.rank("pad") {
		t.Errorf("strip (an option the test does not set) ranks before pad; sections:\n%s", got.titles())
	}
}

// The types total's signature names (Cart, Money) run no code when total
// does: they rank after its chain (deep, two calls down).
func TestDefinitionsPythonSignatureTypes(t *testing.T) {
	root, problem := typedFixture(t, "pyannot")
	got := sectionsFor(t, root, problem, Request{})
	deep := got.rank("deep")
	if deep < 0 {
		t.Fatalf("deep not shown; sections:\n%s", got.titles())
	}
	for _, name := range []string{"Cart", "Money"} {
		if i := got.rank(name); i >= 0 && i < deep {
			t.Errorf("%s (a type total's signature names) ranks before deep; sections:\n%s", name, got.titles())
		}
	}
}
