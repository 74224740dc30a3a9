package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// scanBound is the most lines the block-end scanners may visit per line of a
// file (maxBlockLines and a margin; an unbounded scan visits n²/2 for n lines).
const scanBound = 400

// A generated Python module of 20,000 `def fN(` lines (no bracket ever closes)
// next to the failing file: finding its definitions visits a bounded number of
// lines per definition (it used to scan to the end of the file for each one:
// 200 million lines, minutes of work), and the definition the failing line
// calls is still found in it.
func TestDefinitionsPythonBlockScanIsBounded(t *testing.T) {
	const n = 20000
	var big strings.Builder
	for i := range n {
		fmt.Fprintf(&big, "def f%d(\n", i)
	}
	big.WriteString("def helper(x):\n    return x\n")
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"app/main.py": "def compute(x):\n    return helper(x) / x\n\ncompute(0)\n",
		"app/big.py":  big.String(),
	})
	problem := `Traceback (most recent call last):
  File "/ci/proj/app/main.py", line 4, in <module>
    compute(0)
  File "/ci/proj/app/main.py", line 2, in compute
    return helper(x) / x
ZeroDivisionError: division by zero
`
	before := defScanned.Load()
	got := sectionsFor(t, root, problem, Request{})
	scanned := defScanned.Load() - before
	lines := int64(n + 2)
	if scanned > scanBound*lines {
		t.Errorf("the block-end scan visited %d lines for a %d-line file (bound: %d per line)", scanned, lines, scanBound)
	}
	if _, ok := got.find("File app/big.py", "definition of helper"); !ok {
		t.Errorf("helper's definition not found in big.py; sections:\n%s", got.titles())
	}
}

// A 60,000-line TypeScript file of `function fN() {` lines (never closed): the
// statement-end scan is bounded per definition, and an imported function at its
// end is still shown.
func TestDefinitionsTypeScriptStmtScanIsBounded(t *testing.T) {
	old := defFileCap
	defFileCap = 4 << 20 // the file is 1.2 MB: over the default cap, which would skip it
	t.Cleanup(func() { defFileCap = old })
	const n = 60000
	var big strings.Builder
	for i := range n {
		fmt.Fprintf(&big, "function f%d() {\n", i)
	}
	big.WriteString("export function helper(x: number) { return x }\n")
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"src/main.ts": "import { helper } from './big'\n\nexport function compute(x: number) {\n  return helper(x) / x\n}\n",
		"src/big.ts":  big.String(),
	})
	problem := `TypeError: x
    at compute (/ci/proj/src/main.ts:4:10)
`
	before := defScanned.Load()
	got := sectionsFor(t, root, problem, Request{})
	scanned := defScanned.Load() - before
	lines := int64(n + 1)
	if scanned > scanBound*lines {
		t.Errorf("the statement-end scan visited %d lines for a %d-line file (bound: %d per line)", scanned, lines, scanBound)
	}
	if s, ok := got.find("File src/big.ts", "definition of helper"); !ok || !strings.Contains(s.Sec.Body, "return x") {
		t.Errorf("helper's definition not found in big.ts; sections:\n%s", got.titles())
	}
}

// A Go package of 60 big generated files: the files past the definitions' read
// budget are neither read nor parsed, a file over the per-file cap is skipped,
// and warnings name them; the definition in the first files is still shown.
// (The caps are lowered so the test writes 2.4 MB instead of 240 MB.)
func TestDefinitionsGoReadBudget(t *testing.T) {
	oldCap, oldBudget := defFileCap, defReadBudget
	defFileCap, defReadBudget = 64<<10, 256<<10
	t.Cleanup(func() { defFileCap, defReadBudget = oldCap, oldBudget })

	files := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"pkg/main.go": "package pkg\n\nfunc Compute(x int) int {\n\treturn Nowhere(x) + Other(x)/x\n}\n",
		// over the per-file cap
		"pkg/huge.go": "package pkg\n\n// Huge is generated.\nvar Huge = `" + strings.Repeat("x", 100<<10) + "`\n",
	}
	pad := "// " + strings.Repeat("p", 76) + "\n"
	for i := range 60 {
		var b strings.Builder
		fmt.Fprintf(&b, "package pkg\n\n")
		if i == 0 {
			b.WriteString("// Other is what Compute adds.\nfunc Other(x int) int { return x + 1 }\n\n")
		}
		fmt.Fprintf(&b, "func gen%d() int { return %d }\n\n", i, i)
		for b.Len() < 40<<10 {
			b.WriteString(pad)
		}
		files[fmt.Sprintf("pkg/gen%02d.go", i)] = b.String()
	}
	root := t.TempDir()
	testtree.Write(t, root, files)
	problem := `panic: runtime error: integer divide by zero

goroutine 1 [running]:
example.com/m/pkg.Compute(0x0)
	/ci/m/pkg/main.go:4 +0x1d
`
	before := defParsed.Load()
	got := sectionsFor(t, root, problem, Request{})
	parsed := defParsed.Load() - before
	// 256 KiB holds main.go and six 40 KiB files; each file is parsed at most
	// twice (its definitions, then its uses when it is a failure point or a
	// hop's definition)
	if parsed > 2*8 {
		t.Errorf("%d Go files parsed with a read budget for 7 of them", parsed)
	}
	if s, ok := got.find("File pkg/gen00.go", "definition of Other"); !ok || !strings.Contains(s.Sec.Body, "// Other is what Compute adds.") {
		t.Errorf("Other (in the first file of the package) not shown with its doc comment; sections:\n%s", got.titles())
	}
	warn := strings.Join(got.warnings, "\n")
	if !strings.Contains(warn, "files not read for definitions (the definitions' read budget of 256 KiB was reached): pkg/gen") ||
		!strings.Contains(warn, "more") {
		t.Errorf("no warning naming the files past the read budget: %q", got.warnings)
	}
	if !strings.Contains(warn, "1 files over 64 KiB not read for definitions: pkg/huge.go") {
		t.Errorf("no warning naming the file over the per-file cap: %q", got.warnings)
	}
}

// docStart finds the doc comment above a declaration without the parser's
// comment list: `//` lines and a `/* … */` block that end right above it.
func TestDocStart(t *testing.T) {
	lines := strings.Split("package p\n\n// A does a.\n// More.\nfunc A() {}\n\n/*\nB is b.\n*/\nfunc B() {}\n\nfunc C() {}\n// stray\n\nfunc D() {}", "\n")
	for _, c := range []struct{ decl, want int }{{5, 3}, {10, 7}, {12, 12}, {15, 15}} {
		if got := docStart(lines, c.decl); got != c.want {
			t.Errorf("docStart(line %d) = %d, want %d", c.decl, got, c.want)
		}
	}
}

// Files of twenty thousand class lines or `module.exports = {` lines that
// never close: the class bodies' and the export objects' ends are found in one
// pass per file, not a scan to the end of the file for each of them.
func TestDefinitionsUnclosedClassesAndExportsAreLinear(t *testing.T) {
	const n = 20000
	for _, c := range []struct{ name, line, big, main, problem string }{
		{"python class", "class A%d(\n", "app/big.py", "import big\n\n\ndef compute(x):\n    return big.helper(x) / x\n",
			"Traceback (most recent call last):\n  File \"/ci/proj/app/main.py\", line 5, in compute\n    return big.helper(x) / x\nZeroDivisionError: division by zero\n"},
		{"js class", "class A%d {\n", "app/big.js", "const big = require('./big');\n\nfunction compute(x) {\n  return big.helper(x) / x;\n}\n",
			"TypeError: x\n    at compute (/ci/proj/app/main.js:4:14)\n"},
		{"js exports", "module.exports%d = {\n", "app/big.js", "const big = require('./big');\n\nfunction compute(x) {\n  return big.helper(x) / x;\n}\n",
			"TypeError: x\n    at compute (/ci/proj/app/main.js:4:14)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var big strings.Builder
			for i := range n {
				line := fmt.Sprintf(c.line, i)
				if c.name == "js exports" {
					line = "module.exports = {\n"
				}
				big.WriteString(line)
			}
			root := t.TempDir()
			main := "app/main.py"
			if strings.HasSuffix(c.big, ".js") {
				main = "app/main.js"
			}
			testtree.Write(t, root, map[string]string{main: c.main, c.big: big.String()})
			before := defScanned.Load()
			sectionsFor(t, root, c.problem, Request{})
			if scanned := defScanned.Load() - before; scanned > scanBound*n {
				t.Errorf("the block-end scans visited %d lines for a %d-line file (bound: %d per line)", scanned, n, scanBound)
			}
		})
	}
}
