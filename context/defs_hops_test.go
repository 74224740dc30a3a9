package codectx

import (
	"fmt"
	"strings"
	"testing"
)

// TestDefinitionsFollowDeepCalls: the broken function is seven calls below
// the test (a test → public API → layers of internal functions, as in a
// command library's Execute → execute → validate); with room in the budget
// the chain is followed to it, nearer calls ranked first.
func TestDefinitionsFollowDeepCalls(t *testing.T) {
	root := t.TempDir()
	var src strings.Builder
	src.WriteString("// Package deep is a deep chain of calls.\n")
	for range 40 {
		src.WriteString("// (a long package comment, so that the file is cut at the section cap)\n")
	}
	src.WriteString("package deep\n\n// Run is the public API.\nfunc Run(s string) int {\n\treturn step1(s)\n}\n")
	for i := 1; i < 7; i++ {
		fmt.Fprintf(&src, "\nfunc step%d(s string) int {\n\treturn step%d(s) + 0\n}\n", i, i+1)
	}
	src.WriteString("\nfunc step7(s string) int {\n\treturn len(s) * 0 // the bug\n}\n")
	writeTree(t, root, map[string]string{
		"go.mod":  "module example.com/deep\n\ngo 1.22\n",
		"deep.go": src.String(),
		"deep_test.go": `package deep

import "testing"

func TestRun(t *testing.T) {
	if Run("abc") != 3 {
		t.Error("Run(abc) is wrong")
	}
}
`,
	})
	problem := "--- FAIL: TestRun (0.00s)\n    deep_test.go:7: Run(abc) is wrong\nFAIL\nFAIL\texample.com/deep\t0.01s\n"
	// a section cap below deep.go's size, so the file is not shown whole
	got := gatherBase(t, root, problem, Options{MaxResultBytes: 1500})
	s, ok := findSection(got, "definition of step7", "used by step6")
	if !ok || !strings.Contains(s.Body, "the bug") {
		t.Fatalf("step7, seven calls below the test, is not in the base context:\n%s%q", titles(got), got.Warnings)
	}
	if !(sectionIndex(got, "definition of step2") < sectionIndex(got, "definition of step7")) {
		t.Errorf("a farther call ranked before a nearer one:\n%s", titles(got))
	}
}
