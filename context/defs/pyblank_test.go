package defs

import (
	"slices"
	"strings"
	"testing"
)

// A docstring is prose: the classes it names are not shown as what the
// failing function uses, and its line indented less than the body does not
// end the function — the escape() called after it is shown.
func TestDefinitionsPythonDocstringIsNotCode(t *testing.T) {
	root, problem := typedFixture(t, "pydocstring")
	got := sectionsFor(t, root, problem, Request{})
	s, ok := got.find("File page/render.py", "definition of render")
	if !ok {
		t.Fatalf("render not shown; sections:\n%s", got.titles())
	}
	if !strings.Contains(s.Sec.Body, "return escape(text)") {
		t.Errorf("render is cut at its docstring's outdented line:\n%s", s.Sec.Body)
	}
	if _, ok := got.find("File page/render.py", "definition of escape"); !ok {
		t.Errorf("escape (called after the docstring) not shown; sections:\n%s", got.titles())
	}
	for _, name := range []string{"Parser", "Lexer"} {
		if _, ok := got.find("definition of " + name); ok {
			t.Errorf("%s shown though only the docstring names it; sections:\n%s", name, got.titles())
		}
	}
}

// The blanking of strings and comments, line by line through a file.
func TestPyBlankLines(t *testing.T) {
	lines := []string{
		`x = f"{a}" + rb'b\'c' # note`,
		`def f():`,
		`    """Doc (open`,
		`Parser here`,
		`    """ + g(1)`,
		`    s = '''one'''; t = "#" + u`,
		`    href = 'a"b'`,
	}
	want := []string{
		`x = ` + strings.Repeat(" ", 6) + ` + ` + strings.Repeat(" ", 8) + ` `,
		`def f():`,
		strings.Repeat(" ", 16),
		strings.Repeat(" ", 11),
		strings.Repeat(" ", 7) + ` + g(1)`,
		`    s = ` + strings.Repeat(" ", 9) + `; t = ` + strings.Repeat(" ", 3) + ` + u`,
		`    href = ` + strings.Repeat(" ", 5),
	}
	blank, inStr := pyBlankLines(lines)
	for i := range lines {
		if blank[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i+1, blank[i], want[i])
		}
	}
	if wantIn := []bool{false, false, false, true, true, false, false}; !slices.Equal(inStr, wantIn) {
		t.Errorf("inside a string: %v, want %v", inStr, wantIn)
	}
}
