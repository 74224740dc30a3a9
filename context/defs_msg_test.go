package codectx

import (
	"fmt"
	"strings"
	"testing"
)

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

// TestDefinitionsOffLeaveMessagesOut: with the definitions switched off, the
// function that writes the message a failing test expects is not looked up
// either (defs tests the message search itself).
func TestDefinitionsOffLeaveMessagesOut(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":      "module example.com/cli\n\ngo 1.22\n",
		"cli.go":      "package cli\n\nvar handlers = map[string]func(args []string) error{}\n\nfunc Run(name string, args []string) error { return handlers[name](args) }\n",
		"commands.go": "package cli\n\nimport \"fmt\"\n\nfunc init() { handlers[\"copy\"] = copyFiles }\n\nfunc copyFiles(args []string) error {\n\treturn fmt.Errorf(\"copy needs a source and a destination, got %d arguments\", len(args))\n}\n",
		"cli_test.go": "package cli\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\nfunc TestCopy(t *testing.T) {\n\twant := fmt.Sprintf(\"copy needs a source and a destination, got %d arguments\", 1)\n\tif err := Run(\"copy\", []string{\"a\"}); err == nil || err.Error() != want {\n\t\tt.Errorf(\"Run = %v, want %q\", err, want)\n\t}\n}\n",
	})
	problem := "--- FAIL: TestCopy (0.00s)\n    cli_test.go:11: Run = <nil>, want \"copy needs a source and a destination, got 1 arguments\"\nFAIL\nFAIL\texample.com/cli\t0.01s\n"
	if on := gatherBase(t, root, problem, Options{}); !strings.Contains(titles(on), "definition of copyFiles") {
		t.Fatalf("copyFiles not shown with the definitions on:\n%s", titles(on))
	}
	off := gatherBase(t, root, problem, Options{NoDefinitions: true})
	if _, ok := findSection(off, "copyFiles"); ok {
		t.Errorf("copyFiles shown with the definitions off:\n%s", titles(off))
	}
}
