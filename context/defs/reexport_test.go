package defs

import (
	"strings"
	"testing"
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
