package verify

import (
	"strings"
)

// maxNamed bounds the tests of the problem looked up in each output.
const maxNamed = 50

// NamedTests are the failing tests the problem text names (ParseFailures of
// it), at most 50: known without running anything, they can be looked up in the
// output of any check that runs them (Request.Named).
func NamedTests(problem string) []string {
	names := ParseFailures(problem).Names
	if len(names) > maxNamed {
		names = names[:maxNamed]
	}
	return names
}

// lookupNamed finds the named tests in a command's output: failing when a
// failure in it is the same test (sameTest), passing when the output shows it
// pass (a go test "--- PASS" line or its package's "ok" line, a verbose pytest,
// unittest or cargo test line). A test found neither way is not in the output.
func lookupNamed(named, failures []string, output string) (failing, passing []string) {
	if len(named) == 0 {
		return nil, nil
	}
	var rest []string
	for _, n := range named {
		if anySame(n, failures) {
			failing = append(failing, n)
		} else {
			rest = append(rest, n)
		}
	}
	if len(rest) == 0 {
		return failing, nil
	}
	passed := parsePasses(ansiEscape.ReplaceAllString(output, ""))
	for _, n := range rest {
		if anySame(n, passed.tests) || passed.inPassingGoPackage(n) {
			passing = append(passing, n)
		}
	}
	return failing, passing
}

func anySame(n string, names []string) bool {
	for _, f := range names {
		if sameTest(n, f) {
			return true
		}
	}
	return false
}

// sameTest reports whether two names of a test from different runs are the
// same test: equal, or one ends with the other after a separator — the problem
// may have come from another folder ("/home/u/p/tests/t.py::test_y" and
// "tests/t.py::test_y") or lack the package line ("TestX" and "pkg.TestX"). A
// go subtest is not its parent's namesake: "TestA/TestX" is not "TestX".
func sameTest(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	if !strings.HasSuffix(a, b) {
		return false
	}
	switch a[len(a)-len(b)-1] {
	case '.', ':', ' ':
		return true
	case '/':
		// A path's folder: the shorter name must itself be a file's test.
		return strings.Contains(b, "::") || strings.Contains(b, ".py")
	}
	return false
}

// passes are the tests an output shows passing.
type passes struct {
	tests []string
	// goPkgs are the go packages whose tests all passed ("ok  pkg").
	goPkgs []string
}

var (
	reGoPass       = lazyRegexp(`^\s*--- PASS: (\S+) \(`)
	reGoOk         = lazyRegexp(`^ok\s+(\S+)`)
	rePyPassed     = lazyRegexp(`^(\S+\.py::.+?) PASSED(?:\s+\[\s*\d+%\])?$`)
	reUnittestOk   = lazyRegexp(`^(\w+) \(([\w.]+)\) \.\.\. ok$`)
	reCargoOk      = lazyRegexp(`^test (.+?) \.\.\. ok$`)
	reGoTestPrefix = lazyRegexp(`^(?:Test|Example|Fuzz)\w*(?:/.*)?$`)
)

// parsePasses reads the passing tests of go test (-v), pytest -v, python -m
// unittest -v and cargo test. Node and jest print passing tests without the
// names their failures get, so they are not read.
func parsePasses(output string) passes {
	var p passes
	var pending []string
	for line := range strings.Lines(output) {
		line = strings.TrimRight(line, "\r\n")
		if m := reGoPass.FindStringSubmatch(line); m != nil {
			pending = append(pending, m[1])
			continue
		}
		if m := reGoOk.FindStringSubmatch(line); m != nil {
			p.goPkgs = append(p.goPkgs, m[1])
			for _, t := range pending {
				p.tests = append(p.tests, m[1]+"."+t)
			}
			pending = pending[:0]
			continue
		}
		if m := reGoPkg.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "FAIL\t") {
			for _, t := range pending {
				p.tests = append(p.tests, m[2]+"."+t)
			}
			pending = pending[:0]
			continue
		}
		if m := rePyPassed.FindStringSubmatch(line); m != nil {
			p.tests = append(p.tests, m[1])
		} else if m := reUnittestOk.FindStringSubmatch(line); m != nil {
			id := m[2]
			if !strings.HasSuffix(id, "."+m[1]) {
				id += "." + m[1]
			}
			p.tests = append(p.tests, id)
		} else if m := reCargoOk.FindStringSubmatch(line); m != nil {
			p.tests = append(p.tests, m[1])
		}
	}
	p.tests = append(p.tests, pending...)
	return p
}

// inPassingGoPackage reports whether n is a go test ("pkg.TestX") of a package
// whose tests all passed.
func (p passes) inPassingGoPackage(n string) bool {
	for _, pkg := range p.goPkgs {
		if rest, ok := strings.CutPrefix(n, pkg+"."); ok && reGoTestPrefix.MatchString(rest) {
			return true
		}
	}
	return false
}
