package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// Hostile and huge projects against the definitions' rules: generated code of
// thousands of functions of one signature, of one interface's
// implementations, tables of a hundred thousand cases, classes of a thousand
// bases. Each asserts a bound on the work done (a counter of limits.go), not
// the time taken, and that the definitions the failure does use are still
// found.

// hostileTree writes files into a new folder and returns it and problem with
// ROOT replaced by it.
func hostileTree(t testing.TB, files map[string]string, problem string) (string, string) {
	t.Helper()
	root := t.TempDir()
	testtree.Write(t, root, files)
	return root, strings.ReplaceAll(problem, "ROOT", root)
}

const hostileGoMod = "module example.com/m\n\ngo 1.22\n"

// 5,000 generated functions of one signature and 300 function types, each
// called through a value in the failing test: the package's functions are read
// once for all the signatures (each call went over all of them: 1.5 million
// signatures written, seconds), and the call through a Fmt value still leads
// to the three functions of its signature.
func TestDefinitionsGoFuncValuesOfManySignatures(t *testing.T) {
	const funcs, sigs = 5000, 300
	var b strings.Builder
	b.WriteString("package m\n\nimport \"io\"\n\ntype Node struct{ Kind int }\n\nvar handlers = map[int]func(w io.Writer, n Node) error{}\n\n")
	for i := range funcs {
		fmt.Fprintf(&b, "func h%d(w io.Writer, n Node) error { _, err := io.WriteString(w, \"x%d\"); return err }\n", i, i)
	}
	b.WriteString("func Dispatch(w io.Writer, n Node) error { return handlers[n.Kind](w, n) }\n\n")
	b.WriteString("// Fmt formats a number.\ntype Fmt func(x int) string\n\n")
	for _, n := range []string{"fmtA", "fmtB", "fmtC"} {
		fmt.Fprintf(&b, "func %s(x int) string { return \"%s\" }\n\n", n, n)
	}
	var tb strings.Builder
	tb.WriteString("package m\n\nimport (\n\t\"io\"\n\t\"testing\"\n)\n\n")
	for i := range sigs {
		fmt.Fprintf(&tb, "type F%d func(a [%d]int) error\n", i, i)
	}
	tb.WriteString("\nfunc TestDispatch(t *testing.T) {\n\tvar w io.Writer\n\tvar f Fmt = fmtB\n\tif err := Dispatch(w, Node{}); err != nil || f(1) != \"\" {\n\t\tt.Fatal(err)\n\t}\n")
	for i := range sigs {
		fmt.Fprintf(&tb, "\tvar f%d F%d\n\t_ = f%d([%d]int{})\n", i, i, i, i)
	}
	tb.WriteString("}\n")
	root, problem := hostileTree(t, map[string]string{"go.mod": hostileGoMod, "m.go": b.String(), "m_test.go": tb.String()},
		"--- FAIL: TestDispatch (0.00s)\n    m_test.go:8+sigs: boom\nFAIL\n")
	problem = strings.Replace(problem, "8+sigs", fmt.Sprint(sigs+13), 1)
	before := goIndexReads.Load()
	got := sectionsFor(t, root, problem, Request{})
	// each function read once per check of its package (declarations, then
	// with bodies and tests)
	if reads := goIndexReads.Load() - before; reads > 2*(funcs+10) {
		t.Errorf("the calls through %d function types read %d functions of a package of %d", sigs+2, reads, funcs)
	}
	if _, ok := got.find("File m.go", "definition of fmtA"); !ok {
		t.Errorf("fmtA (of the Fmt value's signature) not shown; sections:\n%s", got.titles())
	}
}

// An interface of 1,000 implementations whose five methods the failing test
// calls 250 times: the package's types are read once for the interface, not
// once for each call.
func TestDefinitionsGoInterfaceCallsReadTypesOnce(t *testing.T) {
	const impls, calls = 1000, 250
	var b strings.Builder
	b.WriteString("package m\n\ntype Shape interface {\n\tA() int\n\tB() int\n\tC() int\n\tD() int\n\tE() int\n}\n\n")
	for i := range impls {
		fmt.Fprintf(&b, "type S%d struct{}\n\n", i)
		for _, m := range "ABCDE" {
			fmt.Fprintf(&b, "func (S%d) %c() int { return %d }\n", i, m, i)
		}
		b.WriteString("\n")
	}
	b.WriteString("// Area is the broken function.\nfunc Area(s Shape) int { return s.A() * s.B() }\n")
	var tb strings.Builder
	tb.WriteString("package m\n\nimport \"testing\"\n\nfunc TestArea(t *testing.T) {\n\tvar s Shape = S7{}\n\tif Area(s) != 1 {\n\t\tt.Fatal(\"boom\")\n\t}\n")
	for i := range calls {
		fmt.Fprintf(&tb, "\t_ = s.%c()\n", "ABCDE"[i%5])
	}
	tb.WriteString("}\n")
	root, problem := hostileTree(t, map[string]string{"go.mod": hostileGoMod, "m.go": b.String(), "m_test.go": tb.String()},
		"--- FAIL: TestArea (0.00s)\n    m_test.go:8: boom\nFAIL\n")
	before := goIndexReads.Load()
	got := sectionsFor(t, root, problem, Request{})
	if reads := goIndexReads.Load() - before; reads > 2*(impls+10) {
		t.Errorf("%d calls of an interface's methods read %d types of a package of %d", calls, reads, impls)
	}
	if _, ok := got.find("File m.go", "definition of Area"); !ok {
		t.Errorf("Area not shown; sections:\n%s", got.titles())
	}
}

// An interface of 5,000 generated implementations, each of whose methods
// calls the interface again (a tree of nodes rendering their children): each
// definition of the hops that calls it adds at most maxTargetHits of them
// (all 5,000 were added for each, a million hits over the hops), and the
// implementation the test builds is still shown.
func TestDefinitionsGoInterfaceOfThousandsBoundedHits(t *testing.T) {
	const impls = 5000
	var b strings.Builder
	b.WriteString("package m\n\nimport \"io\"\n\ntype Node interface{ Render(w io.Writer) error }\n\n")
	for i := range impls {
		fmt.Fprintf(&b, "type T%d struct{ kid Node }\n\nfunc (t T%d) Render(w io.Writer) error { io.WriteString(w, \"t%d\"); return t.kid.Render(w) }\n\n", i, i, i)
	}
	tb := "package m\n\nimport (\n\t\"io\"\n\t\"testing\"\n)\n\nfunc TestRender(t *testing.T) {\n\tvar w io.Writer\n\tvar n Node = T4321{}\n\t_ = n.Render(w)\n\tt.Fatal(\"boom\")\n}\n"
	root, problem := hostileTree(t, map[string]string{"go.mod": hostileGoMod, "m.go": b.String(), "m_test.go": tb},
		"--- FAIL: TestRender (0.00s)\n    m_test.go:12: boom\nFAIL\n")
	before := targetHits.Load()
	got := sectionsFor(t, root, problem, Request{})
	bound := int64(maxTargetHits * (maxDefPoints + maxHops*maxParents))
	if hits := targetHits.Load() - before; hits > bound {
		t.Errorf("the uses of an interface of %d implementations added %d definitions (bound: %d)", impls, hits, bound)
	}
	if !got.shows("m.go", "func (t T4321) Render(") {
		t.Errorf("the Render of T4321, the node the test builds, not shown; sections:\n%s", got.titles())
	}
}

// writersTree is a Go package of 5,000 implementations of one interface in
// five files, each writing ten strings, and a failure of a megabyte of output
// (a pasted log) that shows what one of them writes.
func writersTree(t testing.TB) (root, problem string) {
	files := map[string]string{"go.mod": hostileGoMod,
		"node.go":   "package m\n\nimport \"io\"\n\ntype Node interface{ Render(w io.Writer) error }\n",
		"m_test.go": "package m\n\nimport (\n\t\"io\"\n\t\"testing\"\n)\n\nfunc TestRender(t *testing.T) {\n\tvar w io.Writer\n\tvar n Node\n\t_ = n.Render(w)\n\tt.Fatal(\"boom\")\n}\n"}
	for f := range 5 {
		var b strings.Builder
		b.WriteString("package m\n\nimport \"io\"\n\n")
		for i := f * 1000; i < (f+1)*1000; i++ {
			fmt.Fprintf(&b, "type T%d struct{}\n\nfunc (T%d) Render(w io.Writer) error {\n", i, i)
			for j := range 10 {
				fmt.Fprintf(&b, "\tio.WriteString(w, \"<t%d-%d x>\")\n", i, j)
			}
			b.WriteString("\treturn nil\n}\n\n")
		}
		files[fmt.Sprintf("m%d.go", f)] = b.String()
	}
	return hostileTree(t, files, "--- FAIL: TestRender (0.00s)\n    m_test.go:12: boom "+strings.Repeat("abcdefghij klmnopq ", 50000)+
		"<t4321-3 x>\nFAIL\n")
}

// Of 5,000 implementations of the interface a failing line calls, the one
// that writes what a megabyte of output shows is found, each piece of each
// implementation's strings looked up in a suffix array of the output (each
// searched the megabyte again: 50,000 searches, over a second).
func TestDefinitionsGoWritersInAMegabyteOfOutput(t *testing.T) {
	root, problem := writersTree(t)
	got := sectionsFor(t, root, problem, Request{})
	if !got.shows("m4.go", "func (T4321) Render(") {
		t.Errorf("the Render of T4321, which writes what the output shows, not shown; sections:\n%.3000s", got.titles())
	}
}

// elseIfTree is a Go function of an if-else chain of n branches that
// assign a variable it returns, which the failing test checks.
func elseIfTree(t testing.TB, n int) (root, problem string) {
	var b strings.Builder
	b.WriteString("package m\n\nfunc helper(x int) int { return x }\n\n// Classify classifies.\nfunc Classify(x int) int {\n\ty := 0\n\tif x == -1 {\n\t\ty = helper(x)\n")
	for i := range n {
		fmt.Fprintf(&b, "\t} else if x == %d {\n\t\ty = %d\n", i, i)
	}
	b.WriteString("\t}\n\treturn y\n}\n")
	return hostileTree(t, map[string]string{"go.mod": hostileGoMod, "m.go": b.String(),
		"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestClassify(t *testing.T) {\n\tgot := Classify(3)\n\tif got != 4 {\n\t\tt.Errorf(\"got %d\", got)\n\t}\n}\n"},
		"--- FAIL: TestClassify (0.00s)\n    m_test.go:8: got 3\nFAIL\n")
}

// A function of 20,000 else-ifs on the value's path: which ifs hold a
// return is read in one walk (each if walked the rest of the chain: 51 s),
// and the body, nested 40,000 scopes deep, is not type-checked (go/types
// looked each name up through every scope around it: seconds); Classify is
// shown.
func TestDefinitionsGoElseIfChainOnTheValuesPath(t *testing.T) {
	root, problem := elseIfTree(t, 20000)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File m.go", "definition of Classify"); !ok {
		t.Errorf("Classify not shown; sections:\n%s", got.titles())
	}
}

// A generated file whose header names 100,000 source files as its
// generator: at most maxGeneratorNames of them are looked up (each was: a
// file system lookup each, seconds), and the definition the test uses is
// shown.
func TestDefinitionsGoGeneratedHeaderOfThousandsOfNames(t *testing.T) {
	var h strings.Builder
	h.WriteString("// Code generated by")
	for i := 0; h.Len() < 900<<10; i++ {
		fmt.Fprintf(&h, " gen/g%d.go", i)
	}
	h.WriteString(". DO NOT EDIT.\n\npackage m\n\nvar table = map[string]int{\"a\": 1}\n\nfunc Lookup(s string) int { return table[s] }\n")
	root, problem := hostileTree(t, map[string]string{"go.mod": hostileGoMod, "m.go": h.String(),
		"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestLookup(t *testing.T) {\n\tgot := Lookup(\"a\")\n\tif got != 2 {\n\t\tt.Errorf(\"got %d\", got)\n\t}\n}\n"},
		"--- FAIL: TestLookup (0.00s)\n    m_test.go:8: got 1\nFAIL\n")
	before := generatorTries.Load()
	got := sectionsFor(t, root, problem, Request{})
	// two paths for each name, for each hit of the file
	if tries := generatorTries.Load() - before; tries > 2*maxGeneratorNames*maxGenerators {
		t.Errorf("%d files looked up as the generator (bound: %d)", tries, 2*maxGeneratorNames*maxGenerators)
	}
	if _, ok := got.find("File m.go", "definition of Lookup"); !ok {
		t.Errorf("Lookup not shown; sections:\n%s", got.titles())
	}
}

// hugeTableTree is a test whose cases() returns a table of n cases (name: a
// field, so each case's line holds a use) and the output of every other case
// failing, up to ~1 MB of it.
func hugeTableTree(t testing.TB, n int) (root, problem string) {
	var tb strings.Builder
	tb.WriteString("package m\n\nimport \"testing\"\n\ntype tc struct{ name string }\n\nfunc TestTable(t *testing.T) {\n\tfor _, c := range cases() {\n\t\tt.Run(c.name, func(t *testing.T) { Check(t, c.name) })\n\t}\n}\n\nfunc cases() []tc {\n\treturn []tc{\n")
	for i := range n {
		fmt.Fprintf(&tb, "\t\t{name: \"c%d\"},\n", i)
	}
	tb.WriteString("\t}\n}\n")
	var p strings.Builder
	p.WriteString("--- FAIL: TestTable (0.00s)\n")
	for i := 0; i < n && p.Len() < 1000<<10; i += 2 {
		fmt.Fprintf(&p, "    --- FAIL: TestTable/c%d (0.00s)\n", i)
	}
	p.WriteString("FAIL\n")
	root = t.TempDir()
	testtree.Write(t, root, map[string]string{"go.mod": hostileGoMod, "m_test.go": tb.String(),
		"m.go": "package m\n\nimport \"testing\"\n\n// Check fails.\nfunc Check(t *testing.T, s string) { t.Fatal(s) }\n"})
	return root, p.String()
}

// A table of 50,000 cases, every other one failing: the 25,000 ranges of other
// cases are asked by a binary search for each name of the table's uses and
// each line of its section (each was compared with all of them: billions of
// comparisons), and the function the test calls is shown.
func TestDefinitionsGoHugeTestTable(t *testing.T) {
	root, problem := hugeTableTree(t, 50000)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File m.go", "definition of Check"); !ok {
		t.Errorf("Check not shown; sections:\n%s", got.titles())
	}
	for _, c := range got.sections {
		if strings.Contains(c.Sec.Title, "definition of cases") && strings.Contains(c.Sec.Body, `"c1"`) {
			t.Errorf("the table's section shows c1, a case that passed:\n%.2000s", c.Sec.Body)
		}
	}
}

// registryTree is a Python project whose build() constructs n classes (of
// four modules) into one list on one line and whose run_all() calls m methods
// on each item of it (each class defining them all), or with calls, calls
// of as many other methods on one line.
func registryTree(t testing.TB, n, m int) (root, problem string) {
	return registryCallsTree(t, n, m, 0)
}

func registryCallsTree(t testing.TB, n, m, calls int) (root, problem string) {
	files := map[string]string{"app/__init__.py": ""}
	var b strings.Builder
	b.WriteString("from app.c0 import *\nfrom app.c1 import *\nfrom app.c2 import *\nfrom app.c3 import *\n\n\ndef build():\n    procs = []\n    procs.extend([")
	for f := range 4 {
		var c strings.Builder
		for i := range n / 4 {
			fmt.Fprintf(&c, "class P%d_%d:\n", f, i)
			for j := range m {
				fmt.Fprintf(&c, "    def m%d(s, x): return x\n", j)
			}
			c.WriteString("\n")
			fmt.Fprintf(&b, "P%d_%d(), ", f, i)
		}
		files[fmt.Sprintf("app/c%d.py", f)] = c.String()
	}
	b.WriteString("])\n    return procs\n\n\ndef run_all(procs, x):\n    for p in procs:\n")
	for j := range m {
		fmt.Fprintf(&b, "        x = p.m%d(x)\n", j)
	}
	if calls > 0 {
		b.WriteString("        x = ")
		for j := range calls {
			fmt.Fprintf(&b, "p.n%d(", j)
		}
		b.WriteString("x" + strings.Repeat(")", calls) + "\n")
	}
	b.WriteString("    return x\n")
	files["app/procs.py"] = b.String()
	files["tests/test_app.py"] = "from app.procs import build, run_all\n\n\ndef test_run():\n    procs = build()\n    assert run_all(procs, 1) == 2\n"
	return hostileTree(t, files, "Traceback (most recent call last):\n  File \"ROOT/tests/test_app.py\", line 6, in test_run\n    assert run_all(procs, 1) == 2\nAssertionError\n")
}

// One line constructing 4,000 classes into a list that a loop calls twenty
// methods on: the registry pairs at most maxRegPairs of the classes' methods
// with the calls (all 80,000 were definitions, hundreds of MB and 10 s),
// and each class is found by name through an index of its file's
// definitions, not a scan of the 80,000.
func TestDefinitionsPyRegistryOfThousands(t *testing.T) {
	root, problem := registryTree(t, 4000, 20)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File app/c0.py", "definition of m0", "used by run_all"); !ok {
		t.Errorf("the first registered class's m0 not shown as run_all's; sections:\n%s", got.titles())
	}
	var left int
	for _, w := range got.warnings {
		if _, err := fmt.Sscanf(w, "%d definitions left out", &left); err == nil {
			if len(w) > 500 { // (it named all 4,000: a warning of 40 KB in the run's record)
				t.Errorf("the warning of the definitions left out is %d bytes: %.300s…", len(w), w)
			}
			break
		}
	}
	// the classes constructed, and the methods paired
	if n, bound := left+len(got.sections), 4000+maxRegPairs+100; n > bound {
		t.Errorf("%d definitions found for a registry of 4,000 classes (bound: %d)", n, bound)
	}
}

// A driver whose loop over a registry of 4,000 classes calls 30,000 methods
// on one line: its calls are gathered once each (each was compared with all
// the others: 5 s), and once the registry has paired maxRegPairs methods it
// pairs no more (each class was still tried with each call: 120 million
// tries, 7 s).
func TestDefinitionsPyRegistryDriverOfThousandsOfCalls(t *testing.T) {
	root, problem := registryCallsTree(t, 4000, 2, 30000)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File app/c0.py", "definition of m0", "used by run_all"); !ok {
		t.Errorf("the first registered class's m0 not shown as run_all's; sections:\n%.3000s", got.titles())
	}
	var left int
	for _, w := range got.warnings {
		if _, err := fmt.Sscanf(w, "%d definitions left out", &left); err == nil {
			break
		}
	}
	if n, bound := left+len(got.sections), 4000+maxRegPairs+100; n > bound {
		t.Errorf("%d definitions found for a registry of 4,000 classes (bound: %d)", n, bound)
	}
}

// oneLineRegistryTree is a Python builder whose one line registers a
// class n times (procs.append(P()); …) and a driver calling run on the items.
func oneLineRegistryTree(t testing.TB, n int) (root, problem string) {
	var b strings.Builder
	b.WriteString("class P:\n    def run(self, x):\n        return x\n\n\ndef build():\n    procs = []\n    ")
	for range n {
		b.WriteString("procs.append(P()); ")
	}
	b.WriteString("\n    return procs\n\n\ndef run_all(procs, x):\n    for p in procs:\n        x = p.run(x)\n    return x\n")
	return hostileTree(t, map[string]string{"app/__init__.py": "", "app/procs.py": b.String(),
		"tests/test_app.py": "from app.procs import build, run_all\n\n\ndef test_run():\n    procs = build()\n    assert run_all(procs, 1) == 2\n"},
		"Traceback (most recent call last):\n  File \"ROOT/tests/test_app.py\", line 6, in test_run\n    assert run_all(procs, 1) == 2\nAssertionError\n")
}

// One line of 30,000 registering calls: each call's arguments are read over
// at most maxRegBytes and a definition's first maxRegCalls calls are read
// (each call read its constructors over the rest of the line: over ten
// minutes), and the registered class's run is still paired with the
// driver's call.
func TestDefinitionsPyRegistryOfOneLine(t *testing.T) {
	root, problem := oneLineRegistryTree(t, 30000)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File app/procs.py", "definition of run,", "used by run_all"); !ok {
		t.Errorf("P's run not shown as run_all's; sections:\n%s", got.titles())
	}
}

// tsLoopsTree is a minified JS function of n forEach loops on one line, each
// calling run on its item, which the failing test calls.
func tsLoopsTree(t testing.TB, n int) (root, problem string) {
	var b strings.Builder
	b.WriteString("export class P {\n  run(x) {\n    return x\n  }\n}\n\nexport function build() { const procs = []; procs.push(new P()); return procs }\n\nexport function runAll(procs, x) {\n  ")
	for i := range n {
		fmt.Fprintf(&b, "procs.forEach((p%d) => p%d.run(x)); ", i, i)
	}
	b.WriteString("\n  return x\n}\n")
	return hostileTree(t, map[string]string{"src/procs.js": b.String(),
		"test/procs.test.js": "const { build, runAll } = require('../src/procs');\n\ndescribe('x', () => {\n  it('works', () => {\n    runAll(build(), 1);\n  });\n});\n"},
		"TypeError: boom\n    at Context.<anonymous> (ROOT/test/procs.test.js:5:5)\n")
}

// A minified line of 20,000 forEach loops: the line's calls on a name are
// read once for all the loops (each loop read the 800 KB line again: over
// four minutes), and the driver's run is paired with the registered class's.
func TestDefinitionsTSLoopsOfOneLine(t *testing.T) {
	root, problem := tsLoopsTree(t, 20000)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File src/procs.js", "definition of run,"); !ok {
		t.Errorf("P's run not shown; sections:\n%s", got.titles())
	}
}

// A failing test whose name is 40,000 words long calls a library method of
// a class deriving from the library's: at most maxNameWords of the name's
// words pick the callbacks (each word was compared with all the others
// kept: 800 million comparisons), and the callback is shown.
func TestDefinitionsPyCallbacksOfALongTestName(t *testing.T) {
	var name strings.Builder
	name.WriteString("test")
	for i := range 40000 {
		fmt.Fprintf(&name, "_w%d", i)
	}
	root, problem := hostileTree(t, map[string]string{"app/__init__.py": "",
		"app/ext.py":        "import html.parser\n\n\nclass Ext(html.parser.HTMLParser):\n    def handle_data(self, data):\n        self.seen = data\n",
		"tests/test_app.py": "from app.ext import Ext\n\n\ndef " + name.String() + "():\n    e = Ext()\n    e.feed('y')\n    assert e.seen == 'x'\n"},
		"Traceback (most recent call last):\n  File \"ROOT/tests/test_app.py\", line 7, in "+name.String()+"\n    assert e.seen == 'x'\nAssertionError\n"+
			"FAILED tests/test_app.py::"+name.String()+" - AssertionError\n")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File app/ext.py", "definition of handle_data"); !ok {
		t.Errorf("Ext's handle_data (the callback feed runs) not shown; sections:\n%s", got.titles())
	}
}

// Eight definitions the failing line calls, each a line of a megabyte: the
// hops read the uses of those within defHopBudget only (each megabyte of a
// hop's lines took a second of the new rules' reading), and say which they
// left.
func TestDefinitionsHopsReadBudget(t *testing.T) {
	files := map[string]string{"app/__init__.py": ""}
	var imports, calls strings.Builder
	for k := range 8 {
		var b strings.Builder
		fmt.Fprintf(&b, "def f%d(x):\n    return [", k)
		for i := 0; b.Len() < (1<<20)-200; i++ {
			fmt.Fprintf(&b, "g%d(x), ", i%1000)
		}
		b.WriteString("]\n")
		files[fmt.Sprintf("app/m%d.py", k)] = b.String()
		fmt.Fprintf(&imports, "from app.m%d import f%d\n", k, k)
		fmt.Fprintf(&calls, "f%d(1) + ", k)
	}
	files["tests/test_app.py"] = imports.String() + "\n\ndef test_run():\n    assert " + calls.String() + "0 == 2\n"
	root, problem := hostileTree(t, files, "Traceback (most recent call last):\n  File \"ROOT/tests/test_app.py\", line 12, in test_run\n    assert "+
		calls.String()+"0 == 2\nAssertionError\n")
	got := sectionsFor(t, root, problem, Request{})
	if !strings.Contains(strings.Join(got.warnings, "\n"), "the uses of 7 definitions not looked up (the hops' budget of 1 MiB of definitions' lines was reached)") {
		t.Errorf("no warning that the uses of 7 of the 8 definitions were not looked up: %q", got.warnings)
	}
}

// wideBasesTree is a Python class deriving from n project classes and a
// library's (html.parser.HTMLParser), whose feed the failing test calls.
func wideBasesTree(t testing.TB, n int) (root, problem string) {
	var b strings.Builder
	b.WriteString("import html.parser\n\n")
	for i := range n {
		fmt.Fprintf(&b, "class C%d:\n    def m%d(self): pass\n", i, i)
	}
	b.WriteString("class Wide(")
	for i := range n {
		fmt.Fprintf(&b, "C%d, ", i)
	}
	b.WriteString("html.parser.HTMLParser):\n    def handle_data(self, data):\n        self.seen = data\n\n")
	return hostileTree(t, map[string]string{"app/__init__.py": "", "app/cls.py": b.String(),
		"tests/test_app.py": "from app.cls import Wide\n\n\ndef test_run():\n    w = Wide()\n    w.feed('y')\n    assert w.seen == 'x'\n"},
		"Traceback (most recent call last):\n  File \"ROOT/tests/test_app.py\", line 7, in test_run\n    assert w.seen == 'x'\nAssertionError\n")
}

// A class of 8,000 project bases and a library's: the call of the library's
// feed adds the class's callbacks (its handle_data), read over at most
// maxCallbackClasses of the class and its bases (each of the 8,000 went over
// every definition of their file, with an expression compiled for each).
func TestDefinitionsPyCallbacksOfThousandsOfBases(t *testing.T) {
	root, problem := wideBasesTree(t, 8000)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File app/cls.py", "definition of handle_data", "used at tests/test_app.py:7"); !ok {
		t.Errorf("Wide's handle_data (the callback feed runs) not shown; sections:\n%s", got.titles())
	}
	callbacks := 0 // the methods of cls.py the test's lines lead to
	for _, c := range got.sections {
		if strings.HasPrefix(c.Sec.Title, "File app/cls.py") && strings.Contains(c.Sec.Title, "used at tests/test_app.py:7") {
			callbacks++
		}
	}
	if callbacks > maxCallbacks+1 { // (and Wide)
		t.Errorf("%d callbacks shown for feed (bound: %d)", callbacks, maxCallbacks)
	}
}

// nestedCallsTree is a Python function returning one line of n nested
// calls, f0(f1(f2(…(x)…))), which the failing test calls.
func nestedCallsTree(t testing.TB, n int) (root, problem string) {
	var b strings.Builder
	b.WriteString("def drive(x):\n    return ")
	for i := range n {
		fmt.Fprintf(&b, "f%d(", i)
	}
	b.WriteString("x" + strings.Repeat(")", n) + "\n")
	return hostileTree(t, map[string]string{"app/__init__.py": "", "app/nest.py": b.String(),
		"tests/test_app.py": "from app.nest import drive\n\n\ndef test_run():\n    assert drive(1) == 2\n"},
		"Traceback (most recent call last):\n  File \"ROOT/tests/test_app.py\", line 5, in test_run\n    assert drive(1) == 2\nAssertionError\n")
}

// A line of 20,000 nested calls in a definition a hop reads: the arguments
// of every call (an item passed to a callee, pyDispatched) are read in one
// pass over the line, not from each call's bracket to its end (4 s; minutes
// for a megabyte), and the definition is found.
func TestDefinitionsPyNestedCallsLine(t *testing.T) {
	root, problem := nestedCallsTree(t, 20000)
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("definition of drive"); !ok && !strings.Contains(strings.Join(got.warnings, "\n"), ": drive") {
		t.Errorf("drive neither shown nor left out for the budget; sections:\n%s\nwarnings: %q", got.titles(), got.warnings)
	}
}

// longCallerTree is a Python function of 300 lines calling 6,000 project
// functions, 20 a line, which the failing test calls.
func longCallerTree(t testing.TB) (root, problem string) {
	var b strings.Builder
	const n = 6000
	for i := range n {
		fmt.Fprintf(&b, "def f%d(x): return x\n", i)
	}
	b.WriteString("\n\ndef drive(x):\n")
	for i := 0; i < n; i += 20 {
		b.WriteString("    x = ")
		for j := i; j < i+20; j++ {
			fmt.Fprintf(&b, "f%d(", j)
		}
		b.WriteString("x" + strings.Repeat(")", 20) + "\n")
	}
	b.WriteString("    return x\n")
	return hostileTree(t, map[string]string{"app/__init__.py": "", "app/long.py": b.String(),
		"tests/test_app.py": "from app.long import drive\n\n\ndef test_run():\n    assert drive(1) == 2\n"},
		"Traceback (most recent call last):\n  File \"ROOT/tests/test_app.py\", line 5, in test_run\n    assert drive(1) == 2\nAssertionError\n")
}

// A long function calling 6,000 functions shows its head and the lines that
// call what is shown below it (its lines are asked for the 6,000 names in one
// pass each, not an expression per name), and the first functions it calls.
func TestDefinitionsPyLongCallerOfThousands(t *testing.T) {
	root, problem := longCallerTree(t)
	got := sectionsFor(t, root, problem, Request{})
	c, ok := got.find("File app/long.py", "definition of drive", "the head and the lines that matter")
	if !ok || !strings.Contains(c.Sec.Body, "x = f0(f1(") {
		t.Errorf("drive not shown as its head and the lines that matter; sections:\n%s", got.titles())
	}
	if _, ok := got.find("File app/long.py", "definition of f0,"); !ok {
		t.Errorf("f0 not shown; sections:\n%s", got.titles())
	}
}
