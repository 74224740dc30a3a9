package codectx

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// copyFixture copies defs/testdata/defs/<name> (the definitions package's
// fixtures) into a temporary project root.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("defs", "testdata", "defs", name)
	root := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// findSection returns the first section whose title contains all of parts.
func findSection(g plan.Gathered, parts ...string) (plan.Section, bool) {
	for _, s := range g.Sections {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(s.Title, p)
		}
		if ok {
			return s, true
		}
	}
	return plan.Section{}, false
}

func titles(g plan.Gathered) string {
	var b strings.Builder
	for _, s := range g.Sections {
		b.WriteString("  " + s.Title + "\n")
	}
	return b.String()
}

// allText is every section's title and body.
func allText(g plan.Gathered) string {
	var b strings.Builder
	for _, s := range g.Sections {
		b.WriteString(s.Title + "\n" + s.Body)
	}
	return b.String()
}

func gatherBase(t *testing.T, root, problem string, opts Options) plan.Gathered {
	t.Helper()
	if opts.WindowLines == 0 {
		opts.WindowLines = 3
	}
	g := newGatherer(t, root, opts)
	got, err := g.Base(context.Background(), plan.ProblemInput{Problem: problem})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

const goDefsProblem = `go test ./... fails:
--- FAIL: TestTotal (0.00s)
    cart_test.go:10: Total = 499, want 500
FAIL
FAIL	example.com/shop	0.002s
`

func TestDefinitionsGo(t *testing.T) {
	root := copyFixture(t, "go")
	got := gatherBase(t, root, goDefsProblem, Options{})

	// the function the failing test calls, in another file of the package
	s, ok := findSection(got, "File total.go", "definition of Total", "used at cart_test.go:10")
	if !ok {
		t.Fatalf("no definition of Total; sections:\n%s", titles(got))
	}
	if !strings.Contains(s.Body, "func Total(c *Cart) int {") || !strings.Contains(s.Body, "return round.Half(sum) - 1") {
		t.Errorf("Total's section does not hold its body:\n%s", s.Body)
	}
	if strings.Contains(s.Body, "func unused") {
		t.Errorf("Total's section holds more than Total:\n%s", s.Body)
	}
	// one hop further: what Total itself uses, from the package it imports
	if s, ok := findSection(got, "File internal/round/round.go", "definition of Half", "used by Total in total.go"); !ok {
		t.Errorf("no definition of round.Half (used by Total); sections:\n%s", titles(got))
	} else if i, j := sectionIndex(got, "definition of Total"), sectionIndex(got, "definition of Half"); i > j || strings.Contains(s.Body, "func Down") {
		t.Errorf("Half ranked before Total or shown with Down:\n%s%s", titles(got), s.Body)
	}
	// the same name in another package is not it
	if _, ok := findSection(got, "report/report.go"); ok {
		t.Errorf("report.Total was shown for shop.Total:\n%s", titles(got))
	}
	if !seen(got, "total.go") {
		t.Errorf("total.go not recorded as seen: %+v", got.Seen)
	}
	// Cart and Add are in cart.go, which the base context shows whole as the
	// module under test: not repeated
	if _, ok := findSection(got, "definition of Cart"); ok {
		t.Errorf("Cart repeated although cart.go is shown:\n%s", titles(got))
	}
	if _, ok := findSection(got, "File cart.go", "module under test"); !ok {
		t.Errorf("cart.go not shown as the module under test:\n%s", titles(got))
	}

	// definitions off: Total's file is not in the base context at all
	off := gatherBase(t, root, goDefsProblem, Options{NoDefinitions: true})
	if strings.Contains(allText(off), "func Total(") {
		t.Errorf("Total shown with definitions off:\n%s", titles(off))
	}
}

func TestDefinitionsGoImportedPackage(t *testing.T) {
	root := copyFixture(t, "go")
	// a panic inside Total: its frame is the failure point, round.Half is used there
	problem := `--- FAIL: TestTotal (0.00s)
panic: boom [recovered]
goroutine 7 [running]:
example.com/shop.Total(0xc000010000)
	/home/ci/shop/total.go:11 +0x1d
example.com/shop.TestTotal(0xc0000a2000)
	/home/ci/shop/cart_test.go:8 +0x65
FAIL	example.com/shop	0.002s
`
	got := gatherBase(t, root, problem, Options{})
	s, ok := findSection(got, "File internal/round/round.go", "definition of Half", "used at total.go:11")
	if !ok {
		t.Fatalf("no definition of round.Half; sections:\n%s", titles(got))
	}
	if !strings.Contains(s.Body, "// Half rounds cents") || strings.Contains(s.Body, "func Down") {
		t.Errorf("Half's section is not Half with its doc comment:\n%s", s.Body)
	}
}

func seen(g plan.Gathered, path string) bool {
	for _, s := range g.Seen {
		if s.Path == path {
			return true
		}
	}
	return false
}

const pyDefsProblem = `pytest -q
Traceback (most recent call last):
  File "/ci/proj/tests/test_checkout.py", line 8, in test_total
    assert net * (1 + tax.rate("NL")) == 108.9
AssertionError
FAILED tests/test_checkout.py::test_total - AssertionError
`

func TestDefinitionsPython(t *testing.T) {
	root := copyFixture(t, "py")
	got := gatherBase(t, root, pyDefsProblem, Options{})

	// from app.pricing import discount: the function under test, imported
	s, ok := findSection(got, "File app/pricing.py", "definition of discount", "used at tests/test_checkout.py:8")
	if !ok {
		t.Fatalf("no definition of discount; sections:\n%s", titles(got))
	}
	if !strings.Contains(s.Body, "def discount(total, rate):") || !strings.Contains(s.Body, "return total * (1 - rate) - 1") ||
		strings.Contains(s.Body, "def unrelated") {
		t.Errorf("discount's section is not discount:\n%s", s.Body)
	}
	// from app import tax; tax.rate(...): a module import
	if _, ok := findSection(got, "File app/tax.py", "definition of rate"); !ok {
		t.Errorf("no definition of tax.rate; sections:\n%s", titles(got))
	}
	// make_order is not imported (a conftest-style global): found project-wide
	if s, ok := findSection(got, "File support/orders.py", "definition of make_order"); !ok || !strings.Contains(s.Body, "return Order(total)") {
		t.Errorf("no definition of make_order; sections:\n%s", titles(got))
	}
	// one hop further: the constant discount reads
	if _, ok := findSection(got, "File app/pricing.py", "definition of RATE_CAP", "used by discount in app/pricing.py"); !ok {
		t.Errorf("no definition of RATE_CAP (used by discount); sections:\n%s", titles(got))
	}
	// nearest first: the imported function before the project-wide one
	if i, j := sectionIndex(got, "definition of discount"), sectionIndex(got, "definition of make_order"); i > j {
		t.Errorf("discount (imported) ranked after make_order (project-wide):\n%s", titles(got))
	}
}

func sectionIndex(g plan.Gathered, part string) int {
	for i, s := range g.Sections {
		if strings.Contains(s.Title, part) {
			return i
		}
	}
	return -1
}

const tsDefsProblem = ` FAIL  test/checkout.test.ts > checkout > total
  ● checkout › total

    expect(received).toBe(expected)

    Expected: "$3.00"
    Received: "$2.99"

      at Object.<anonymous> (test/checkout.test.ts:8:39)
`

func TestDefinitionsTypeScript(t *testing.T) {
	root := copyFixture(t, "ts")
	got := gatherBase(t, root, tsDefsProblem, Options{})

	// import { cartTotal as total }: the alias is followed to the original name
	s, ok := findSection(got, "File src/cart.ts", "definition of cartTotal", "used at test/checkout.test.ts:8")
	if !ok {
		t.Fatalf("no definition of cartTotal; sections:\n%s", titles(got))
	}
	if !strings.Contains(s.Body, "export function cartTotal(items: Item[]): number {") || !strings.Contains(s.Body, "return sum - 1;") ||
		strings.Contains(s.Body, "unusedHelper") {
		t.Errorf("cartTotal's section is not cartTotal:\n%s", s.Body)
	}
	// import formatPrice from: the default export
	if s, ok := findSection(got, "File src/format.ts", "definition of formatPrice"); !ok || !strings.Contains(s.Body, "toFixed(2)") {
		t.Errorf("no definition of the default export formatPrice; sections:\n%s", titles(got))
	}
	// the interface the test names
	if _, ok := findSection(got, "File src/cart.ts", "definition of Item"); !ok {
		t.Errorf("no definition of Item; sections:\n%s", titles(got))
	}
	// vitest is a package: nothing is looked up for it
	if strings.Contains(titles(got), "definition of expect") || strings.Contains(titles(got), "definition of describe") {
		t.Errorf("a library name was looked up:\n%s", titles(got))
	}
}

// TestDefinitionsBudget: definitions that do not fit in the budget are left out
// in rank order (the farthest from the failing line first), with a warning; the
// budget is one section's, or up to two when the total budget has the room.
func TestDefinitionsBudget(t *testing.T) {
	root := t.TempDir()
	fn := func(name string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "func %s() int {\n\tx := 0\n", name)
		for i := range 20 {
			fmt.Fprintf(&b, "\tx += %d // padding padding padding\n", i)
		}
		b.WriteString("\treturn x\n}\n")
		return b.String()
	}
	writeTree(t, root, map[string]string{
		"go.mod":  "module example.com/b\n\ngo 1.22\n",
		"near.go": "package b\n\n" + fn("Near"),
		"mid.go":  "package b\n\n" + fn("Mid"),
		"far.go":  "package b\n\n" + fn("Far"),
		"b_test.go": `package b

import "testing"

func TestSum(t *testing.T) {
	c := Far()
	b := Mid()
	a := Near()
	if a+b+c != 1 {
		t.Fatal("wrong sum")
	}
}
`,
	})
	problem := "--- FAIL: TestSum (0.00s)\n    b_test.go:10: wrong sum\nFAIL\tFAIL\texample.com/b\n"
	full := gatherBase(t, root, problem, Options{})
	size := func(part string) int {
		s, ok := findSection(full, part)
		if !ok {
			t.Fatalf("no %s with the default budget:\n%s", part, titles(full))
		}
		return len(s.Title) + len(s.Body)
	}
	if n, m, f := sectionIndex(full, "definition of Near"), sectionIndex(full, "definition of Mid"), sectionIndex(full, "definition of Far"); !(n < m && m < f) {
		t.Errorf("not ranked by distance from the failing line (Near, Mid, Far):\n%s", titles(full))
	}
	budget := size("definition of Near") + size("definition of Mid") + 10
	before := 0 // the sections before the definitions
	for _, s := range full.Sections[:sectionIndex(full, "definition of ")] {
		before += len(s.Title) + len(s.Body)
	}
	// a total budget that leaves no room beyond one section for the definitions
	got := gatherBase(t, root, problem, Options{MaxResultBytes: budget, MaxTotalBytes: before + 2*budget})
	for _, name := range []string{"Near", "Mid"} {
		if _, ok := findSection(got, "definition of "+name); !ok {
			t.Errorf("%s left out with a budget that fits it:\n%s", name, titles(got))
		}
	}
	if _, ok := findSection(got, "definition of Far"); ok {
		t.Errorf("Far shown beyond the budget:\n%s", titles(got))
	}
	if !strings.Contains(strings.Join(got.Warnings, "\n"), "1 definitions left out (budget of the definitions section reached): Far") {
		t.Errorf("no warning naming Far: %q", got.Warnings)
	}
	// the same section budget with room to spare in the total: the definitions
	// may take up to two sections' worth, and Far fits
	roomy := gatherBase(t, root, problem, Options{MaxResultBytes: budget})
	if _, ok := findSection(roomy, "definition of Far"); !ok {
		t.Errorf("Far left out although the total budget has room:\n%s%q", titles(roomy), roomy.Warnings)
	}
}

// TestDefinitionsNeverLeaveTheProject: imports, folder listings and the
// project-wide search never read a file through a link that leads out.
func TestDefinitionsNeverLeaveTheProject(t *testing.T) {
	root := copyFixture(t, "py")
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{
		"helpers.py":      "def leak():\n    return 'OUTSIDE-MARKER-1'\n",
		"pkg/__init__.py": "",
		"pkg/mod.py":      "def grab():\n    return 'OUTSIDE-MARKER-2'\n",
		"stray.py":        "def make_stray():\n    return 'OUTSIDE-MARKER-3'\n",
	})
	writeTree(t, root, map[string]string{
		"tests/helpers.py": "->" + filepath.Join(outside, "helpers.py"), // imported by name
		"tests/pkg":        "->" + filepath.Join(outside, "pkg"),        // a linked package
		"support/stray.py": "->" + filepath.Join(outside, "stray.py"),   // only found project-wide
		"tests/test_leak.py": `from helpers import leak
from pkg.mod import grab


def test_leak():
    assert leak() == grab() == make_stray()
`,
	})
	problem := "Traceback (most recent call last):\n  File \"tests/test_leak.py\", line 6, in test_leak\nAssertionError\n"
	got := gatherBase(t, root, problem, Options{})
	text := allText(got)
	if strings.Contains(text, "OUTSIDE-MARKER") {
		t.Fatalf("a file outside the project was shown:\n%s", text)
	}
	for _, s := range got.Seen {
		if strings.Contains(s.Path, "helpers") || strings.Contains(s.Path, "pkg/") || strings.Contains(s.Path, "stray") {
			t.Errorf("a linked file was recorded as seen: %+v", s)
		}
	}
}

// TestDefinitionsFollowCalls: the broken function is three calls away from the
// failing line (test → helper → API → internal function); a test file's table
// of cases shows no more than the case the failure names.
func TestDefinitionsFollowCalls(t *testing.T) {
	root := t.TempDir()
	var table strings.Builder
	table.WriteString("var cases = []string{\n")
	for i := range 30 {
		fmt.Fprintf(&table, "\t\"case-%d\",\n", i)
	}
	table.WriteString("}\n")
	writeTree(t, root, map[string]string{
		"go.mod":   "module example.com/p\n\ngo 1.22\n",
		"parse.go": "package p\n\n// Parse parses s.\nfunc Parse(s string) int {\n\treturn scan(s) + 1\n}\n",
		"scan.go":  "package p\n\nfunc scan(s string) int {\n\treturn len(s) * 0 // the bug\n}\n",
		"helpers_test.go": `package p

import "testing"

func check(t *testing.T, s string) {
	if Parse(s) != len(s)+1 {
		t.Errorf("Parse(%q) is wrong", s)
	}
}
`,
		"p_test.go": "package p\n\nimport \"testing\"\n\n" + table.String() + `
func TestParse(t *testing.T) {
	for _, c := range cases {
		check(t, c)
	}
}
`,
	})
	problem := "--- FAIL: TestParse (0.00s)\n    helpers_test.go:7: Parse(\"case-1\") is wrong\nFAIL\nFAIL\texample.com/p\t0.01s\n"
	got := gatherBase(t, root, problem, Options{})
	s, ok := findSection(got, "File scan.go", "definition of scan", "used by Parse in parse.go")
	if !ok || !strings.Contains(s.Body, "return len(s) * 0 // the bug") {
		t.Fatalf("the broken function scan is not in the base context; sections:\n%s", titles(got))
	}
	// the table of cases shows at most the case the failure names, not the 29 others
	if c, ok := findSection(got, "definition of cases"); ok && (strings.Contains(c.Body, `"case-2"`) || !strings.Contains(c.Body, `"case-1"`)) {
		t.Errorf("the test's table of cases was shown beyond the case the failure names:\n%s", c.Body)
	}
	if !(sectionIndex(got, "definition of Parse") < sectionIndex(got, "definition of scan")) {
		t.Errorf("scan (two calls away) ranked before Parse (one call away):\n%s", titles(got))
	}
}

// TestDefinitionsGoImportsStayInside: a Go import of a linked folder that leads
// out of the project, or an import path that climbs out, is never read.
func TestDefinitionsGoImportsStayInside(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{
		"leak.go": "package linked\n\n// Leak is outside.\nfunc Leak() string { return \"OUTSIDE-MARKER-GO\" }\n",
	})
	writeTree(t, root, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"linked": "->" + outside,
		"m_test.go": `package m

import (
	"testing"

	"example.com/m/linked"
	up "example.com/m/../` + filepath.Base(outside) + `"
)

func TestLeak(t *testing.T) {
	if linked.Leak() != up.Leak() {
		t.Fatal("different")
	}
}
`,
	})
	problem := "--- FAIL: TestLeak (0.00s)\n    m_test.go:12: different\nFAIL\nFAIL\texample.com/m\t0.01s\n"
	got := gatherBase(t, root, problem, Options{})
	if text := allText(got); strings.Contains(text, "OUTSIDE-MARKER-GO") {
		t.Fatalf("a file outside the project was shown:\n%s", text)
	}
}

// TestDefinitionsBeforeFartherWindows: when the frames span several files, the
// definitions the first failing lines use come before the other files' windows,
// so a failure across many test files does not push them out of the budget.
func TestDefinitionsBeforeFartherWindows(t *testing.T) {
	root := copyFixture(t, "go")
	writeTree(t, root, map[string]string{
		"more_test.go": "package shop\n\nimport \"testing\"\n\nfunc TestMore(t *testing.T) {\n\tt.Error(\"also fails\")\n}\n",
	})
	problem := goDefsProblem + "--- FAIL: TestMore (0.00s)\n    more_test.go:6: also fails\n"
	got := gatherBase(t, root, problem, Options{})
	def, first, second := sectionIndex(got, "definition of Total"), sectionIndex(got, "File cart_test.go lines"), sectionIndex(got, "File more_test.go lines")
	if def < 0 || first < 0 || second < 0 || !(first < def && def < second) {
		t.Errorf("want cart_test.go's window, Total's definition, then more_test.go's window:\n%s", titles(got))
	}
}
