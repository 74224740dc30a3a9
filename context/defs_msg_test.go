package codectx

import (
	"fmt"
	"strings"
	"testing"
)

// TestDefinitionsFromMessages: the function that writes the message a failing
// test expects is in the base context although no name leads to it (a handler
// registered at run time); a phrase that many functions write, and the test
// files, are not taken for it.
func TestDefinitionsFromMessages(t *testing.T) {
	root := t.TempDir()
	var other strings.Builder
	other.WriteString("package cli\n\nimport \"errors\"\n")
	for i := range 4 {
		fmt.Fprintf(&other, "\nfunc open%d() error {\n\treturn errors.New(\"cannot open the file\")\n}\n", i)
	}
	writeTree(t, root, map[string]string{
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
	got := gatherBase(t, root, problem, Options{})
	s, ok := findSection(got, "File commands.go lines 9-14 of 14 (definition of copyFiles")
	if !ok || !strings.Contains(s.Title, `writes "copy needs a source and a destination, got"`) {
		t.Fatalf("the function writing the expected message is not in the base context:\n%s", titles(got))
	}
	if _, ok := findSection(got, "definition of Commands"); ok {
		t.Errorf("a comment quoting the message was taken for the code that writes it:\n%s", titles(got))
	}
	if _, ok := findSection(got, "definition of open"); ok {
		t.Errorf("a phrase four functions write was taken for the failure's:\n%s", titles(got))
	}
	// with no bytes left to read, the search finds nothing (and does not fail)
	saved := msgReadBudget
	msgReadBudget = 0
	none := gatherBase(t, root, problem, Options{})
	msgReadBudget = saved
	if _, ok := findSection(none, "writes "); ok {
		t.Errorf("the message search read past its budget:\n%s", titles(none))
	}
	off := gatherBase(t, root, problem, Options{NoDefinitions: true})
	if _, ok := findSection(off, "copyFiles"); ok {
		t.Errorf("copyFiles shown with the definitions off:\n%s", titles(off))
	}
}

// TestDefinitionsBeyondTheCapOfAWholeFile: the module under test is shown
// whole but cut at the section cap; a definition further down that file is
// still shown (the whole-file section does not count as showing lines the cap
// cut off).
func TestDefinitionsBeyondTheCapOfAWholeFile(t *testing.T) {
	root := t.TempDir()
	var calc strings.Builder
	calc.WriteString("package calc\n")
	for i := range 60 {
		fmt.Fprintf(&calc, "\nfunc pad%d() int {\n\treturn %d // padding padding padding padding\n}\n", i, i)
	}
	calc.WriteString("\nfunc Total(xs []int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn n\n}\n")
	src := calc.String()
	totalLine := strings.Count(src[:strings.Index(src, "func Total")], "\n") + 1
	writeTree(t, root, map[string]string{
		"go.mod":  "module example.com/calc\n\ngo 1.22\n",
		"calc.go": src,
		"calc_test.go": `package calc

import "testing"

func TestTotal(t *testing.T) {
	if got := Total([]int{1, 2}); got != 3 {
		t.Errorf("Total = %d, want 3", got)
	}
}
`,
	})
	problem := "--- FAIL: TestTotal (0.00s)\n    calc_test.go:7: Total = 0, want 3\nFAIL\nFAIL\texample.com/calc\t0.01s\n"
	got := gatherBase(t, root, problem, Options{MaxResultBytes: 2048})
	if _, ok := findSection(got, "module under test of calc_test.go"); !ok {
		t.Fatalf("no whole-file section of calc.go:\n%s", titles(got))
	}
	if _, ok := findSection(got, fmt.Sprintf("File calc.go lines %d-%d", totalLine, totalLine+6), "definition of Total"); !ok {
		t.Errorf("Total (line %d), past the cap of calc.go's section, is not shown:\n%s", totalLine, titles(got))
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

// TestDefinitionsFromMessagesOutputFirst: what the output quotes is searched
// before the literals of the test's lines, so a test full of strings does not
// crowd out the message that failed.
func TestDefinitionsFromMessagesOutputFirst(t *testing.T) {
	root := t.TempDir()
	var test strings.Builder
	test.WriteString("package gen\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestScript(t *testing.T) {\n\tout := Script()\n\tfor _, want := range []string{\n")
	test.WriteString("\t\t`aliases+=(\"pods\")`,\n") // farther from the failing line than the 40 below
	for i := range 40 {
		fmt.Fprintf(&test, "\t\t\"complete -F handler_%d word list\",\n", i)
	}
	test.WriteString("\t} {\n\t\tif !strings.Contains(out, want) {\n\t\t\tt.Errorf(\"Expecting to contain: %q\", want)\n\t\t}\n\t}\n}\n")
	src := test.String()
	line := strings.Count(src[:strings.Index(src, "t.Errorf")], "\n") + 1
	writeTree(t, root, map[string]string{
		"go.mod":      "module example.com/gen\n\ngo 1.22\n",
		"gen.go":      "package gen\n\nvar parts []func() string\n\nfunc Script() string {\n\ts := \"\"\n\tfor _, p := range parts {\n\t\ts += p()\n\t}\n\treturn s\n}\n",
		"aliases.go":  "package gen\n\nimport \"fmt\"\n\nfunc init() { parts = append(parts, aliases) }\n\nfunc aliases() string {\n\tout := \"\"\n\tfor _, a := range []string{\"pods\"} {\n\t\tout += fmt.Sprintf(\"aliases+=(%q)\\n\", a)\n\t}\n\treturn out\n}\n",
		"gen_test.go": src,
	})
	problem := fmt.Sprintf("--- FAIL: TestScript (0.00s)\n    gen_test.go:%d: Expecting to contain: \"aliases+=(\\\"pods\\\")\"\nFAIL\nFAIL\texample.com/gen\t0.01s\n", line)
	got := gatherBase(t, root, problem, Options{})
	if _, ok := findSection(got, "definition of aliases", `writes "aliases+=("`); !ok {
		t.Errorf("the function writing the missing line is not in the base context:\n%s", titles(got))
	}
}
