package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// The failing line uses the test file's own tables of cases (large functions
// returning data) and the code under test: the tables get only a share of the
// definitions' room in rank order, so the code under test and what it calls are
// shown although the tables rank first and would fill the room.
func TestDefinitionsTestTablesDoNotCrowdOutTheCode(t *testing.T) {
	var tables strings.Builder
	var calls []string
	for k := range 30 {
		name := fmt.Sprintf("cases%02d", k)
		calls = append(calls, name+"()")
		fmt.Fprintf(&tables, "\nfunc %s() []tcase {\n\treturn []tcase{\n", name)
		for i := range 6 {
			fmt.Fprintf(&tables, "\t\t{in: %d, want: %d, name: \"%s %d\"},\n", i, i*2, name, i)
		}
		tables.WriteString("\t}\n}\n")
	}
	var body strings.Builder
	for i := range 30 {
		fmt.Fprintf(&body, "\t// step %d of the doubling, kept apart for the reader of this example\n", i)
	}
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod": "module example.com/calc\n\ngo 1.22\n",
		"calc.go": `package calc

// Double doubles n.
func Double(n int) int {
` + body.String() + `	return scale(n, 2)
}

func scale(n, by int) int {
	return n * by - 1
}
`,
		"calc_test.go": `package calc

import (
	"slices"
	"testing"
)

type tcase struct {
	in, want int
	name     string
}

func TestDouble(t *testing.T) {
	for _, c := range slices.Concat(` + strings.Join(calls, ", ") + `) {
		if got := Double(c.in); got != c.want {
			t.Errorf("%s: Double(%d) = %d, want %d", c.name, c.in, got, c.want)
		}
	}
}
` + tables.String(),
	})
	problem := "--- FAIL: TestDouble (0.00s)\n    calc_test.go:15: cases00 0: Double(0) = -1, want 0\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	got := sectionsFor(t, root, problem, Request{MaxResultBytes: 6000, MaxTotalBytes: 12000})
	for _, name := range []string{"Double", "scale"} {
		if _, ok := got.find("File calc.go", "definition of "+name); !ok {
			t.Errorf("%s (the code under test) not shown; sections:\n%s\nwarnings: %v", name, got.titles(), got.warnings)
		}
	}
}
