package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/context/section"
	"fixplan/internal/testtree"
	"fixplan/plan"
)

// The module under test is shown whole but cut at the section cap; the test
// calls Execute (another file), which calls setup (in the module, above the
// cut) and twenty-five long helpers of its own file; setup calls check, below the
// cut. check — the code under test the hops reach — is shown whole, before
// Execute's helpers fill the definitions' room.
func TestDefinitionsOfACutModuleRankAfterTheirCaller(t *testing.T) {
	var mod strings.Builder
	mod.WriteString("package app\n\n// setup prepares the arguments.\nfunc setup(args []string) []string {\n\treturn check(args)\n}\n")
	for i := range 40 { // 40 functions of ~900 bytes: the module is over the 24 KB cap before check
		fmt.Fprintf(&mod, "\n// unused%d is not called by the test.\nfunc unused%d(n int) int {\n", i, i)
		for j := range 20 {
			fmt.Fprintf(&mod, "\tn += %d * %d // padding\n", i, j)
		}
		mod.WriteString("\treturn n\n}\n")
	}
	mod.WriteString("\n// check drops the arguments it does not know.\nfunc check(args []string) []string {\n\tout := args[:0]\n")
	for j := range 60 {
		fmt.Fprintf(&mod, "\tif len(args) > %d && args[%d] != \"x\" {\n\t\tout = append(out, args[%d])\n\t}\n", j, j, j)
	}
	mod.WriteString("\treturn out\n}\n")
	var run strings.Builder
	run.WriteString("package app\n\n// Execute runs the command line.\nfunc Execute(args []string) []string {\n\targs = setup(args)\n")
	for i := range 25 {
		fmt.Fprintf(&run, "\thelper%d(len(args))\n", i)
	}
	run.WriteString("\treturn args\n}\n")
	for i := range 25 { // twenty-five helpers of ~2.7 KB: more than the definitions' room
		fmt.Fprintf(&run, "\n// helper%d is one step of Execute.\nfunc helper%d(n int) int {\n", i, i)
		for j := range 90 {
			fmt.Fprintf(&run, "\tn += %d * %d // step\n", i, j)
		}
		run.WriteString("\treturn n\n}\n")
	}
	src := mod.String()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.22\n",
		"app.go": src,
		"run.go": run.String(),
		"app_test.go": `package app

import "testing"

func TestExecute(t *testing.T) {
	if got := Execute([]string{"a", "x"}); len(got) != 2 {
		t.Fatalf("Execute = %q", got)
	}
}
`,
	})
	problem := "--- FAIL: TestExecute (0.00s)\n    app_test.go:7: Execute = [\"a\"]\nFAIL\nFAIL\texample.com/app\t0.002s\n"
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	whole := section.Numbered(lines, 1, len(lines))
	if len(whole) <= 24*1024 {
		t.Fatalf("the module is %d bytes, not over the section cap", len(whole))
	}
	got := sectionsFor(t, root, problem, Request{Have: []section.Candidate{{
		Sec:  plan.Section{Title: fmt.Sprintf("File app.go lines 1-%d of %d (module under test of app_test.go)", len(lines), len(lines)), Body: whole},
		Seen: &plan.SeenFile{Path: "app.go", Whole: true},
	}}})
	s, ok := got.find("File app.go", "definition of check", "used by setup")
	if !ok {
		t.Fatalf("check, below the module's cut, is not shown; sections:\n%s", got.titles())
	}
	if strings.Contains(s.Sec.Title, "lines of") || strings.Contains(s.Sec.Body, "left out") {
		t.Errorf("check is not shown whole: %s", s.Sec.Title)
	}
	if len(got.warnings) == 0 || !strings.Contains(strings.Join(got.warnings, "\n"), "helper") {
		t.Errorf("the helpers did not fill the room (the test tests nothing): %q", got.warnings)
	}
}
