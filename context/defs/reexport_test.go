package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// A CommonJS package: yaml.load on the package's folder is its index.js's
// module.exports.load, which is the loader's load (followed a hop further);
// `const assert = require('assert')`, in every test file of the folder, is the
// library's and shows no definition at all.
func TestDefinitionsJSReexportsAndLibraryRequires(t *testing.T) {
	root, problem := typedFixture(t, "jsreexport")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File index.js", "definition of load"); !ok {
		t.Errorf("index.js's module.exports.load not shown; sections:\n%s", got.titles())
	}
	if s, ok := got.find("File lib/loader.js", "definition of load"); !ok || !strings.Contains(s.Sec.Body, "readValue(text)") {
		t.Errorf("the loader's load (re-exported by index.js) not shown; sections:\n%s", got.titles())
	}
	// the hop from index.js's one-line export reads that line only, not the
	// lines around it (its other exports)
	if _, ok := got.find("definition of dump", "used by load"); ok {
		t.Errorf("what the lines next to index.js's load export use shown as load's; sections:\n%s", got.titles())
	}
	if _, ok := got.find("definition of assert"); ok {
		t.Errorf("a require of the assert library shown as a definition; sections:\n%s", got.titles())
	}
}

// A Python package's __init__.py re-exports: mi.sliced is in the module
// `from .more import *` brings in, and toml.loads — toml being what the tests
// package imports the library as — in the module `from ._parser import loads`
// names.
func TestDefinitionsPythonReexports(t *testing.T) {
	root, problem := typedFixture(t, "pyreexport")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File itertoolsx/more.py", "definition of sliced"); !ok {
		t.Errorf("sliced (star-imported by the package) not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("File src/tinytoml/_parser.py", "definition of loads"); !ok {
		t.Errorf("loads (re-exported by the package, imported by the tests package) not shown; sections:\n%s", got.titles())
	}
}

// Thirty modules of a package that all star-import each other, and a name none
// of them defines: each module is looked at once per use, not once per path
// through the imports (30³ paths three deep).
func TestDefinitionsStarImportCyclesVisitEachFileOnce(t *testing.T) {
	files := map[string]string{
		"tests/test_x.py": "import pkg as p\n\n\ndef test_x():\n    assert p.missing() == 1\n",
		"pkg/__init__.py": "from .m0 import *  # noqa\n",
	}
	for i := range 30 {
		var b strings.Builder
		for j := range 30 {
			if j != i {
				fmt.Fprintf(&b, "from .m%d import *  # noqa\n", j)
			}
		}
		fmt.Fprintf(&b, "\n\ndef f%d():\n    return %d\n", i, i)
		files[fmt.Sprintf("pkg/m%d.py", i)] = b.String()
	}
	root := t.TempDir()
	testtree.Write(t, root, files)
	problem := "Traceback (most recent call last):\n  File \"tests/test_x.py\", line 5, in test_x\n    assert p.missing() == 1\nAttributeError: module 'pkg' has no attribute 'missing'\n"
	before := reexportVisits.Load()
	sectionsFor(t, root, problem, Request{})
	if n := reexportVisits.Load() - before; n > 2*maxReexportFiles {
		t.Errorf("%d module visits for one name through star imports; want each module once (at most %d per use)", n, maxReexportFiles)
	}
}
