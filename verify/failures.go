package verify

import (
	"strings"
)

// maxFailureNames bounds the names read from one output.
const maxFailureNames = 500

// Failures are the failing tests named in a command's output.
type Failures struct {
	// Formats lists the test runners recognised in the output, in the order
	// first seen: "go", "pytest", "unittest", "node", "jest", "cargo". Empty means
	// no known format: only the exit code can be compared.
	Formats []string `json:"formats,omitempty"`
	// Names are the failing tests, once each, in the order they appear:
	// "pkg.TestX/sub" (go), "tests/test_x.py::test_y" (pytest),
	// "mod.Class.test_y" (unittest), "suite > test" (node), "file › Suite › test"
	// (jest), "tests::name" (cargo). A failure without a test (a package that does
	// not build, a test file that does not load) is named after what failed.
	Names []string `json:"names,omitempty"`
}

var ansiEscape = lazyRegexp(`\x1b\[[0-9;?]*[A-Za-z]`)

// ParseFailures reads the names of the failing tests from the output of go
// test, pytest, python -m unittest, node --test (TAP and spec reporters), jest
// (and vitest's summary) and cargo test. Colours are ignored. Output in no
// known format gives empty Failures.
func ParseFailures(output string) Failures {
	output = ansiEscape.ReplaceAllString(output, "")
	ps := []failureParser{&goParser{}, &pytestParser{}, &unittestParser{}, &tapParser{}, &specParser{}, &jestParser{}, &cargoParser{}}
	var f Failures
	seen := map[string]bool{}
	add := func(format, name string) {
		if name == "" || seen[name] || len(f.Names) >= maxFailureNames {
			return
		}
		seen[name] = true
		f.Names = append(f.Names, name)
		for _, x := range f.Formats {
			if x == format {
				return
			}
		}
		f.Formats = append(f.Formats, format)
	}
	for line := range strings.Lines(output) {
		line = strings.TrimRight(line, "\r\n")
		for _, p := range ps {
			p.line(line, add)
		}
	}
	for _, p := range ps {
		p.end(add)
	}
	return f
}

type failureParser interface {
	line(s string, add func(format, name string))
	end(add func(format, name string))
}

// goParser: "--- FAIL: TestX (0.00s)" (indented for subtests), then the
// package's "FAIL\tpkg\t0.01s" or "FAIL\tpkg [build failed]".
type goParser struct{ pending []string }

var (
	reGoTest = lazyRegexp(`^\s*--- FAIL: (\S+) \(`)
	reGoPkg  = lazyRegexp(`^(FAIL|ok )\s+(\S+)(.*)$`)
)

func (p *goParser) line(s string, add func(string, string)) {
	if m := reGoTest.FindStringSubmatch(s); m != nil {
		p.pending = append(p.pending, m[1])
		return
	}
	m := reGoPkg.FindStringSubmatch(s)
	if m == nil || (m[1] == "FAIL" && !strings.HasPrefix(s, "FAIL\t")) {
		return
	}
	if m[1] == "FAIL" {
		if len(p.pending) == 0 {
			name := m[2]
			if i := strings.Index(m[3], "["); i >= 0 {
				name += " " + strings.TrimSpace(m[3][i:])
			}
			add("go", name)
		}
		for _, t := range p.pending {
			add("go", m[2]+"."+t)
		}
	}
	p.pending = p.pending[:0]
}

func (p *goParser) end(add func(string, string)) {
	for _, t := range p.pending {
		add("go", t)
	}
}

// pytestParser: the short summary ("FAILED tests/t.py::test_y - msg", "ERROR
// tests/t.py - ImportError") and verbose lines ("tests/t.py::test_y FAILED").
type pytestParser struct{}

var (
	rePyShort   = lazyRegexp(`^(?:FAILED|ERROR) (\S.*?)(?: - .*)?$`)
	rePyVerbose = lazyRegexp(`^(\S+\.py::.+?) (?:FAILED|ERROR)(?:\s+\[\s*\d+%\])?$`)
)

func (pytestParser) line(s string, add func(string, string)) {
	if m := rePyShort.FindStringSubmatch(s); m != nil {
		if id := m[1]; strings.Contains(id, ".py::") || strings.HasSuffix(id, ".py") {
			add("pytest", id)
		}
		return
	}
	if m := rePyVerbose.FindStringSubmatch(s); m != nil {
		add("pytest", m[1])
	}
}

func (pytestParser) end(func(string, string)) {}

// unittestParser: "FAIL: test_y (test_x.TestX.test_y)" (3.11+) or
// "ERROR: test_y (test_x.TestX)" (older).
type unittestParser struct{}

var reUnittest = lazyRegexp(`^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)`)

func (unittestParser) line(s string, add func(string, string)) {
	m := reUnittest.FindStringSubmatch(s)
	if m == nil {
		return
	}
	id := m[2]
	if !strings.HasSuffix(id, "."+m[1]) {
		id += "." + m[1]
	}
	add("unittest", id)
}

func (unittestParser) end(func(string, string)) {}

// tapParser: node --test's TAP reporter, "not ok 1 - name", nested four spaces
// per level under "# Subtest: parent" lines. TODO and SKIP results do not fail.
type tapParser struct{ stack []string }

var (
	reTapSubtest = lazyRegexp(`^(\s*)# Subtest: (.*)$`)
	reTapNotOk   = lazyRegexp(`^(\s*)not ok \d+(?: - (.*?))?(\s+#\s*(?i:SKIP|TODO)\b.*)?$`)
)

func (p *tapParser) line(s string, add func(string, string)) {
	if m := reTapSubtest.FindStringSubmatch(s); m != nil {
		p.stack = setLevel(p.stack, len(m[1])/4, tapUnescape(m[2]))
		return
	}
	m := reTapNotOk.FindStringSubmatch(s)
	if m == nil || m[3] != "" {
		return
	}
	level := len(m[1]) / 4
	add("node", joinLevel(p.stack, level, tapUnescape(m[2]), " > "))
}

func (p *tapParser) end(func(string, string)) {}

func tapUnescape(s string) string {
	return strings.NewReplacer(`\#`, `#`, `\\`, `\`).Replace(s)
}

// specParser: node --test's spec reporter, "✖ name (1.2ms)" nested two spaces
// per level under "▶ parent" lines. The "✖ failing tests:" recap repeats the
// failures without their parents and is not read.
type specParser struct {
	stack []string
	done  bool
}

var (
	reSpecSuite = lazyRegexp(`^(\s*)▶ (.*)$`)
	reSpecFail  = lazyRegexp(`^(\s*)✖ (.*?)(?: \(\d+(?:\.\d+)?m?s\))?$`)
)

func (p *specParser) line(s string, add func(string, string)) {
	if p.done {
		return
	}
	if strings.TrimSpace(s) == "✖ failing tests:" {
		p.done = true
		return
	}
	if m := reSpecSuite.FindStringSubmatch(s); m != nil {
		p.stack = setLevel(p.stack, len(m[1])/2, m[2])
		return
	}
	if m := reSpecFail.FindStringSubmatch(s); m != nil && !strings.Contains(m[2], " # TODO") {
		add("node", joinLevel(p.stack, len(m[1])/2, m[2], " > "))
	}
}

func (p *specParser) end(func(string, string)) {}

func setLevel(stack []string, level int, name string) []string {
	for len(stack) < level {
		stack = append(stack, "")
	}
	return append(stack[:level], name)
}

func joinLevel(stack []string, level int, name, sep string) string {
	parts := make([]string, 0, level+1)
	for i := 0; i < level && i < len(stack); i++ {
		if stack[i] != "" {
			parts = append(parts, stack[i])
		}
	}
	return strings.Join(append(parts, name), sep)
}

// jestParser: "FAIL src/x.test.js" then "● Suite › test" blocks (the summary
// repeats them); vitest's "FAIL  src/x.test.ts > Suite > test" too.
type jestParser struct{ file string }

var (
	reJestFile   = lazyRegexp(`^\s*(FAIL|PASS) +(\S+)\s*(?:\(.*\))?$`)
	reJestTest   = lazyRegexp(`^\s*● (.+)$`)
	reVitestFail = lazyRegexp(`^\s*FAIL +(\S+) > (.+?)(?: \[.*\])?$`)
)

func (p *jestParser) line(s string, add func(string, string)) {
	if m := reVitestFail.FindStringSubmatch(s); m != nil {
		add("jest", m[1]+" › "+strings.ReplaceAll(m[2], " > ", " › "))
		return
	}
	if m := reJestFile.FindStringSubmatch(s); m != nil && !strings.HasPrefix(s, "FAIL\t") {
		p.file = ""
		if m[1] == "FAIL" {
			p.file = m[2]
		}
		return
	}
	m := reJestTest.FindStringSubmatch(s)
	if m == nil {
		return
	}
	name := strings.TrimSpace(m[1])
	if name == "Console" || strings.HasPrefix(name, "Console ") {
		return
	}
	if p.file != "" {
		name = p.file + " › " + name
	}
	add("jest", name)
}

func (p *jestParser) end(func(string, string)) {}

// cargoParser: "test tests::name ... FAILED", "---- tests::name stdout ----",
// and a crate that does not compile.
type cargoParser struct{}

var (
	reCargoTest    = lazyRegexp(`^test (.+?) \.\.\. FAILED$`)
	reCargoStdout  = lazyRegexp(`^---- (.+?) stdout ----$`)
	reCargoCompile = lazyRegexp("^error: could not compile `([^`]+)`")
)

func (cargoParser) line(s string, add func(string, string)) {
	if m := reCargoTest.FindStringSubmatch(s); m != nil {
		add("cargo", m[1])
	} else if m := reCargoStdout.FindStringSubmatch(s); m != nil {
		add("cargo", m[1])
	} else if m := reCargoCompile.FindStringSubmatch(s); m != nil {
		add("cargo", "could not compile "+m[1])
	}
}

func (cargoParser) end(func(string, string)) {}

// newFailures returns the names in after that are not in before.
func newFailures(after, before []string) []string {
	old := make(map[string]bool, len(before))
	for _, n := range before {
		old[n] = true
	}
	var out []string
	for _, n := range after {
		if !old[n] {
			out = append(out, n)
		}
	}
	return out
}
