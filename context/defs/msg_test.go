package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// TestDefinitionsFromMessages: the function that writes the message a failing
// test expects is among the definitions although no name leads to it (a handler
// registered at run time); a phrase that many functions write, and the test
// files, are not taken for it.
func TestDefinitionsFromMessages(t *testing.T) {
	root := t.TempDir()
	var other strings.Builder
	other.WriteString("package cli\n\nimport \"errors\"\n")
	for i := range 4 {
		fmt.Fprintf(&other, "\nfunc open%d() error {\n\treturn errors.New(\"cannot open the file\")\n}\n", i)
	}
	testtree.Write(t, root, map[string]string{
		"go.mod": "module example.com/cli\n\ngo 1.22\n",
		"cli.go": `package cli

import "fmt"

// handlers are looked up by name at run time: no call names them.
var handlers = map[string]func(args []string) error{}

func Run(name string, args []string) error {
	h, ok := handlers[name]
	if !ok {
		return fmt.Errorf("no command %q", name)
	}
	return h(args)
}
`,
		"doc.go": "package cli\n\n// Commands is the list of commands; an unknown one gives\n// \"copy needs a source and a destination, got N arguments\".\ntype Commands struct {\n\t// Names are the commands' names (\"copy needs a source and a destination, got\").\n\tNames []string\n}\n",
		"commands.go": `package cli

import "fmt"

func init() {
	handlers["copy"] = copyFiles
}

func copyFiles(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("copy needs a source and a destination, got %d arguments", len(args))
	}
	return nil
}
`,
		"other.go": other.String(),
		"cli_test.go": `package cli

import (
	"fmt"
	"testing"
)

func TestCopyNeedsTwoArgs(t *testing.T) {
	err := Run("copy", []string{"a"})
	want := fmt.Sprintf("copy needs a source and a destination, got %d arguments", 1)
	if err == nil || err.Error() != want {
		t.Errorf("Run(copy, a) = %v, want %q", err, want)
	}
	t.Log("cannot open the file")
}
`,
	})
	problem := "--- FAIL: TestCopyNeedsTwoArgs (0.00s)\n" +
		"    cli_test.go:12: Run(copy, a) = <nil>, want \"copy needs a source and a destination, got 1 arguments\"\n" +
		"    cli_test.go:14: cannot open the file\nFAIL\nFAIL\texample.com/cli\t0.01s\n"
	got := sectionsFor(t, root, problem, Request{})
	s, ok := got.find("File commands.go lines 9-14 of 14 (definition of copyFiles")
	if !ok || !strings.Contains(s.Sec.Title, `writes "copy needs a source and a destination, got"`) {
		t.Fatalf("the function writing the expected message is not among the definitions:\n%s", got.titles())
	}
	if _, ok := got.find("definition of Commands"); ok {
		t.Errorf("a comment quoting the message was taken for the code that writes it:\n%s", got.titles())
	}
	if _, ok := got.find("definition of open"); ok {
		t.Errorf("a phrase four functions write was taken for the failure's:\n%s", got.titles())
	}
	// with no bytes left to read, the search finds nothing (and does not fail)
	saved := msgReadBudget
	msgReadBudget = 0
	none := sectionsFor(t, root, problem, Request{})
	msgReadBudget = saved
	if _, ok := none.find("writes "); ok {
		t.Errorf("the message search read past its budget:\n%s", none.titles())
	}
}

// TestMsgFragments: quoted strings are cut at escapes, format verbs and
// quotes; short pieces and single identifiers are not searched for.
func TestMsgFragments(t *testing.T) {
	text := "    x_test.go:35: Expecting to contain: \n         \"noun_aliases+=(\\\"pods\\\")\"\n" +
		"want `required flag(s) %q, %q not set` and \"Did you mean this?\\n\\ttimes\" or \"someIdentifierName\" \"short one\""
	got := msgFragments(text, map[string]bool{})
	want := []string{"noun_aliases+=(", "required flag(s)", "Did you mean this?"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("msgFragments = %q, want %q", got, want)
	}
}

// The message a JS test expects as a regular expression literal, a Python
// test in single quotes, or a Python exception prints unquoted, leads to the
// function that throws it in single quotes, though only a table of readers
// leads there by name.
func TestDefinitionsFromMessagesOfScriptLiterals(t *testing.T) {
	for _, c := range []struct{ fixture, file, name, msg string }{
		{"jsmsgregex", "lib/loader.js", "readMapping", "bad indentation of a mapping entry"},
		{"pymsgsingle", "durations/parse.py", "_units", "unknown unit in the duration"},
		{"pyexcmsg", "durations/parse.py", "_units", "unknown unit in the duration"},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			root, problem := typedFixture(t, c.fixture)
			got := sectionsFor(t, root, problem, Request{})
			if _, ok := got.find("File "+c.file, "definition of "+c.name, fmt.Sprintf("writes %q", c.msg)); !ok {
				t.Errorf("the function writing %q is not among the definitions:\n%s", c.msg, got.titles())
			}
		})
	}
}

// The string and regular expression literals of a line of a script are cut
// into fragments; Go's single quotes are runes, a division is not a regular
// expression.
func TestCodeFragments(t *testing.T) {
	for _, c := range []struct {
		lang defLang
		line string
		want []string
	}{
		{tsLang{}, `assert.throws(() => load('foo: "1" bar: "2"'), /^bad indentation of a (mapping|sequence) entry at line \d+$/);`, []string{"bad indentation of a", "entry at line"}},
		{pyLang{}, `with pytest.raises(ValueError, match=r'cannot parse the \d+ value'):`, []string{"cannot parse the"}},
		{tsLang{}, `const ratio = total / count / scale; // per the unit / second`, nil},
		{goLang{}, `if r == 'x' || s == "unexpected end of input" {`, []string{"unexpected end of input"}},
	} {
		got := codeFragments(c.lang, c.line, map[string]bool{})
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("codeFragments(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// The messages of a failure's exception lines are cut at the values in them.
func TestExceptionFragments(t *testing.T) {
	text := "E   ValueError: unknown unit 's' in the duration\n" +
		"FAILED tests/x.py::test - sqlparse.exceptions.SQLParseError: Maximum number of tokens exceeded (10000)\n" +
		"     AssertionError [ERR_ASSERTION]: Missing expected exception.\n" +
		"YAMLException: bad indentation of a mapping entry (1:10)\n" +
		"panic: runtime error: index out of range [-1]\n"
	got := exceptionFragments(text, map[string]bool{})
	want := []string{"unknown unit", "in the duration", "Maximum number of tokens exceeded", "Missing expected exception.", "bad indentation of a mapping entry"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("exceptionFragments = %q, want %q", got, want)
	}
}
