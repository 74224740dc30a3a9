package verify

import (
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// FocusedCommand derives, from the problem text the user pasted, a command that
// runs only the failing test, when the text comes from a test runner it knows:
//
//	go test     "--- FAIL: TestX (…)" + "FAIL\tmod/pkg" or "x_test.go:12:"  → go test -run '^TestX$' ./pkg
//	pytest      "FAILED tests/test_x.py::test_y", or a test_*.py frame     → python3 -m pytest tests/test_x.py::test_y
//	unittest    "FAIL: test_y (test_x.TestX.test_y)"                         → python3 -m unittest test_x.TestX.test_y
//	node --test "✖ name" / "not ok 1 - name" + a test file path              → node --test test/x.test.js
//	jest        "● Suite › name" + "FAIL path"                               → npx jest path -t '^Suite name$'
//	cargo test  "---- tests::name stdout ----"                               → cargo test tests::name -- --exact
//
// Only the problem text is read, never the project's files. files reports
// whether a slash-separated path relative to the project exists (file or
// folder); every path put in the command is one it confirmed, found as the
// longest suffix of a path in the text (absolute paths of another machine
// work). Arguments are quoted for a POSIX shell (single quotes) unless they
// are made only of safe characters. ok is false when nothing is recognised.
func FocusedCommand(problem string, files func(rel string) bool) (cmd string, ok bool) {
	problem = strings.ReplaceAll(ansiEscape.ReplaceAllString(problem, ""), "\r", "")
	for _, f := range []func(string, func(string) bool) (string, bool){
		focusGo, focusCargo, focusPytest, focusUnittest, focusJest, focusNode, focusPythonTraceback,
	} {
		if cmd, ok := f(problem, files); ok {
			return cmd, true
		}
	}
	return "", false
}

var (
	reFGoTest  = lazyRegexp(`^\s*--- FAIL: ([A-Za-z_][A-Za-z0-9_]*)(?:/\S*)? \(`)
	reFGoPkg   = lazyRegexp(`^FAIL\s+([^\s\[]+)(?:\s+\[(?:build|setup) failed\]|\s+\d+(?:\.\d+)?s)?\s*$`)
	reFGoFrame = lazyRegexp(`^\s+([^\s:]*_test\.go):\d+:`)
	reFGoOk    = lazyRegexp(`^ok\s+\S+`)
)

type goGroup struct {
	pkg    string
	tests  []string
	frames []string
}

func focusGo(text string, files func(string) bool) (string, bool) {
	var groups []goGroup
	cur := goGroup{}
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		if m := reFGoTest.FindStringSubmatch(line); m != nil {
			if !contains(cur.tests, m[1]) {
				cur.tests = append(cur.tests, m[1])
			}
		} else if m := reFGoFrame.FindStringSubmatch(line); m != nil {
			cur.frames = append(cur.frames, m[1])
		} else if m := reFGoPkg.FindStringSubmatch(line); m != nil && len(cur.tests) > 0 {
			cur.pkg = m[1]
			groups = append(groups, cur)
			cur = goGroup{}
		} else if reFGoOk.MatchString(line) {
			cur = goGroup{} // a passing package's logs are no frames of ours
		}
	}
	if len(cur.tests) > 0 {
		groups = append(groups, cur)
	}
	if len(groups) == 0 {
		return "", false
	}
	g := groups[0]
	tests := g.tests
	if len(tests) > 5 {
		tests = tests[:5]
	}
	re := "^" + tests[0] + "$"
	if len(tests) > 1 {
		re = "^(" + strings.Join(tests, "|") + ")$"
	}
	return "go test -run " + ShellQuote(re) + " " + goPackageArg(g, files), true
}

// goPackageArg finds the package folder of a group: from a test frame with a
// folder, from the base name of a frame under a suffix of the import path, or
// from the import path alone; "./..." when none is confirmed.
func goPackageArg(g goGroup, files func(string) bool) string {
	pkgComps := strings.Split(g.pkg, "/")
	for _, fr := range g.frames {
		if strings.ContainsAny(fr, `/\`) {
			if p, ok := findPath(fr, files); ok {
				return dirArg(path.Dir(p))
			}
			continue
		}
		if g.pkg != "" {
			for i := range pkgComps {
				if dir, ok := localJoin(pkgComps[i:]...); ok && files(dir+"/"+fr) {
					return dirArg(dir)
				}
			}
		}
		if files(fr) {
			return "."
		}
	}
	if g.pkg != "" {
		for i := range pkgComps {
			if dir, ok := localJoin(pkgComps[i:]...); ok && files(dir) {
				return dirArg(dir)
			}
		}
	}
	return "./..."
}

func dirArg(dir string) string {
	if dir == "." || dir == "" {
		return "."
	}
	return ShellQuote("./" + dir)
}

var (
	reFCargo     = lazyRegexp(`(?m)^(?:---- (\S+) stdout ----|test (\S+) \.\.\. FAILED)$`)
	reCargoIdent = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*$`)
)

func focusCargo(text string, _ func(string) bool) (string, bool) {
	for _, m := range reFCargo.FindAllStringSubmatch(text, -1) {
		name := m[1] + m[2]
		if reCargoIdent.MatchString(name) {
			return "cargo test " + name + " -- --exact", true
		}
	}
	return "", false
}

var (
	reFPyNode    = lazyRegexp(`(?m)^(?:FAILED|ERROR) (\S+?\.py)::(\S+)`)
	reFPyVerbose = lazyRegexp(`(?m)^(\S+?\.py)::(\S+) (?:FAILED|ERROR)`)
	reFPyHeader  = lazyRegexp(`^_{3,} ([A-Za-z_][\w.]*(?:\[[^\]\n]*\])?) _{3,}$`)
	reFPyFrame   = lazyRegexp(`^(\S+\.py):\d+: `)
	reFPyRun     = lazyRegexp(`(?m)(?:^|\$ |> )((?:python3?|py) -m pytest|pytest|py\.test|uv run pytest|poetry run pytest)(?:\s|$)`)
	rePyTestFile = lazyRegexp(`(?:^|/)(?:test_[^/]*|[^/]*_test)\.py$`)
	rePyIdent    = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// pytestRun is how pytest is started: as the text shows it, or python3 -m
// pytest (python on Windows).
func pytestRun(text string) string {
	if m := reFPyRun.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	if runtime.GOOS == "windows" {
		return "python -m pytest"
	}
	return "python3 -m pytest"
}

func focusPytest(text string, files func(string) bool) (string, bool) {
	var ids []string
	add := func(file, test string) {
		p, ok := findPath(file, files)
		if !ok || hasControl(test) {
			return
		}
		id := pathArg(p) + "::" + test
		if !contains(ids, id) && len(ids) < 5 {
			ids = append(ids, id)
		}
	}
	for _, m := range reFPyNode.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	for _, m := range reFPyVerbose.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	if len(ids) == 0 {
		// Long tracebacks: "____ TestC.test_y ____" then "tests/test_x.py:12: …".
		var test string
		for line := range strings.Lines(text) {
			line = strings.TrimRight(line, "\n")
			if m := reFPyHeader.FindStringSubmatch(line); m != nil {
				test = m[1]
			} else if m := reFPyFrame.FindStringSubmatch(line); m != nil && test != "" && rePyTestFile.MatchString(filepath.ToSlash(m[1])) {
				add(m[1], strings.Replace(test, ".", "::", 1))
				test = ""
			}
		}
	}
	if len(ids) == 0 {
		return "", false
	}
	args := make([]string, len(ids))
	for i, id := range ids {
		args[i] = ShellQuote(id)
	}
	return pytestRun(text) + " " + strings.Join(args, " "), true
}

var reFUnittest = lazyRegexp(`(?m)^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)`)

func focusUnittest(text string, files func(string) bool) (string, bool) {
	var ids []string
	for _, m := range reFUnittest.FindAllStringSubmatch(text, -1) {
		id := m[2]
		if !strings.HasSuffix(id, "."+m[1]) {
			id += "." + m[1]
		}
		comps := strings.Split(id, ".")
		found := false
		for n := len(comps) - 1; n >= 1 && !found; n-- {
			mod := strings.Join(comps[:n], "/")
			found = files(mod+".py") || files(mod+"/__init__.py")
		}
		if found && !contains(ids, id) && len(ids) < 5 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "", false
	}
	py := "python3"
	if runtime.GOOS == "windows" {
		py = "python"
	}
	return py + " -m unittest " + strings.Join(ids, " "), true
}

var reFPyTraceback = lazyRegexp(`(?m)^\s*File "([^"\n]+\.py)", line \d+, in (\w+)$`)

// focusPythonTraceback: a plain traceback whose frame is a test function in a
// test file; the class is unknown, so pytest selects by name (-k).
func focusPythonTraceback(text string, files func(string) bool) (string, bool) {
	for _, m := range reFPyTraceback.FindAllStringSubmatch(text, -1) {
		if !strings.HasPrefix(m[2], "test") || !rePyIdent.MatchString(m[2]) || !rePyTestFile.MatchString(filepath.ToSlash(m[1])) {
			continue
		}
		if p, ok := findPath(m[1], files); ok {
			return pytestRun(text) + " " + ShellQuote(pathArg(p)) + " -k " + m[2], true
		}
	}
	return "", false
}

var (
	reFJestFile = lazyRegexp(`^\s*FAIL +(\S+\.[cm]?[jt]sx?)\b`)
	reFJestTest = lazyRegexp(`^\s*● (.+)$`)
)

func focusJest(text string, files func(string) bool) (string, bool) {
	var file string
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		if m := reFJestFile.FindStringSubmatch(line); m != nil {
			file = ""
			if p, ok := findPath(m[1], files); ok {
				file = p
			}
			continue
		}
		m := reFJestTest.FindStringSubmatch(line)
		if m == nil || file == "" {
			continue
		}
		title := strings.TrimSpace(m[1])
		switch {
		case title == "Console" || hasControl(title):
			continue
		case title == "Test suite failed to run":
			return "npx jest " + ShellQuote(pathArg(file)), true
		}
		full := strings.Join(strings.Split(title, " › "), " ")
		return "npx jest " + ShellQuote(pathArg(file)) + " -t " + ShellQuote("^"+regexp.QuoteMeta(full)+"$"), true
	}
	return "", false
}

var (
	reFNodeFail  = lazyRegexp(`(?m)^\s*(?:✖ .+|not ok \d+ - .+)$`)
	reFNodeFiles = []*lazyRE{
		lazyRegexp(`test at (\S+?):\d+:\d+`),
		lazyRegexp(`location: '([^'\n]+?):\d+:\d+'`),
		lazyRegexp(`\(((?:file://)?[^()\s]+?\.[cm]?[jt]s):\d+:\d+\)`),
		lazyRegexp(`(?m)^\s*(?:not ok \d+ - |# Subtest: )(\S+\.[cm]?[jt]s)$`),
	}
	reNodeTestFile = lazyRegexp(`(?:^|/)(?:test[-_.][^/]*|[^/]*[-_.]test|[^/]*\.spec|test)\.[cm]?[jt]s$|(?:^|/)tests?/[^/]+\.[cm]?[jt]s$`)
)

func focusNode(text string, files func(string) bool) (string, bool) {
	if !reFNodeFail.MatchString(text) {
		return "", false
	}
	for _, re := range reFNodeFiles {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			f := strings.TrimPrefix(m[1], "file://")
			if !reNodeTestFile.MatchString(filepath.ToSlash(f)) {
				continue
			}
			if p, ok := findPath(f, files); ok {
				return "node --test " + ShellQuote(pathArg(p)), true
			}
		}
	}
	return "", false
}

// findPath returns the longest suffix of p (a path from the text: relative,
// absolute, of another machine, with either separator) that is a clean
// relative path files confirms.
func findPath(p string, files func(string) bool) (string, bool) {
	if hasControl(p) {
		return "", false
	}
	var comps []string
	for _, c := range splitPath(p) {
		if c != "." {
			comps = append(comps, c)
		}
	}
	for i := range comps {
		if cand, ok := localJoin(comps[i:]...); ok && files(cand) {
			return cand, true
		}
	}
	return "", false
}

// localJoin joins components into a slash path when it is clean and local.
func localJoin(comps ...string) (string, bool) {
	if len(comps) == 0 {
		return "", false
	}
	for _, c := range comps {
		if c == "" || c == ".." || strings.Contains(c, ":") {
			return "", false
		}
	}
	p := strings.Join(comps, "/")
	return p, filepath.IsLocal(filepath.FromSlash(p))
}

// pathArg keeps a path from being read as an option.
func pathArg(p string) string {
	if strings.HasPrefix(p, "-") {
		return "./" + p
	}
	return p
}

var safeShell = lazyRegexp(`^[A-Za-z0-9_./:=@%+,-]+$`)

// ShellQuote quotes s as one argument for a POSIX shell: as is when made of
// safe characters, otherwise in single quotes, where a quote inside is written
// as a closing quote, a backslash-escaped quote and an opening quote.
func ShellQuote(s string) string {
	if safeShell.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
