package defs

import (
	"strings"
	"testing"
)

// The types total's signature names (Cart, Money) run no code when total
// does: they rank after its chain (deep, two calls down).
func TestDefinitionsPythonSignatureTypes(t *testing.T) {
	root, problem := typedFixture(t, "pyannot")
	got := sectionsFor(t, root, problem, Request{})
	titles := got.titles()
	deep := strings.Index(titles, "definition of deep,")
	if deep < 0 {
		t.Fatalf("deep not shown; sections:\n%s", titles)
	}
	for _, name := range []string{"Cart", "Money"} {
		if i := strings.Index(titles, "definition of "+name+","); i >= 0 && i < deep {
			t.Errorf("%s (a type total's signature names) ranks before deep; sections:\n%s", name, titles)
		}
	}
}
