package main

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The miner scans a repository's history for fix commits that change both
// non-test code and its tests, rebuilds each one's pre-fix tree, and keeps it as
// a case only when the fix's regression tests fail there and pass at the fix.

// A commit the miner considers, with its files' numbers of changed lines.
type candidate struct {
	fix, parent, subject string
	files                map[string][2]int // path → lines added, removed
}

// maxFixedFuncs is the most functions a fix may change.
const maxFixedFuncs = 5

// fixRe is a subject that says it fixes something.
var fixRe = regexp.MustCompile(`(?i)\b(fix(e[sd])?|bug|issue|panic|crash|wrong|incorrect(ly)?|correct(ly|s|ed)?|regression|broken|handle[sd]?|prevent|avoid|should|fail(s|ed|ure)?|error)\b`)

// skipRe is a subject of a commit that is not a fix.
var skipRe = regexp.MustCompile(`(?i)^(revert|merge|bump|release|v?\d+\.\d+)`)

// featRe is a subject that announces something new or a change of shape: the
// commit is taken only when its subject also names a bug (bugRe).
var featRe = regexp.MustCompile(`(?i)^(\W*(toml 1\.1|add(s|ed)?|support(s|ed)?|implement(s|ed)?|introduce[sd]?|feat|feature|enable[sd]?|new|update[sd]?|upgrade[sd]?|refactor|rename[sd]?|move[sd]?|improve[sd]?|optimi[sz]e[sd]?|speed|perf|docs?|tests?|chore|style|lint|ci|build)\b)`)

// fixSubject reports whether a commit of srcLines changed lines of code with
// this subject is taken as a fix: a subject that announces a feature must name
// a bug; another must read like a fix, or the code change be at most 30 lines.
func fixSubject(subject string, srcLines int) bool {
	if skipRe.MatchString(subject) {
		return false
	}
	if featRe.MatchString(subject) {
		return bugRe.MatchString(subject)
	}
	return fixRe.MatchString(subject) || srcLines <= 30
}

// bugRe is a subject that names a bug outright (a feature's subject may say
// "fixed" or "error" of something else).
var bugRe = regexp.MustCompile(`(?i)\b(fix(es)?|bug(fix)?|panic|crash|wrong|incorrect(ly)?|regression|broken)\b`)

// A language's files: which are tests (the regression tests and their data,
// taken from the fix commit), which are code whose functions a fix changes.
type langSpec struct {
	isTest   func(p string) bool
	isSource func(p string) bool
	// pathspec limits the history scan to the files that can matter (a
	// mirror may lack a large binary some commit added).
	pathspec []string
}

var langs = map[string]langSpec{
	"go": {
		isTest: func(p string) bool { return strings.HasSuffix(p, "_test.go") || hasDir(p, "testdata") },
		isSource: func(p string) bool {
			return strings.HasSuffix(p, ".go") && !hasDir(p, "vendor") && !hasDir(p, "_examples")
		},
		pathspec: []string{"**/*.go", "**/testdata/**"},
	},
	"python": {
		isTest: func(p string) bool {
			b := path.Base(p)
			return hasDir(p, "tests") || hasDir(p, "test") || hasDir(p, "testing") || strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py") || b == "conftest.py"
		},
		isSource: func(p string) bool {
			return strings.HasSuffix(p, ".py") && !hasDir(p, "docs") && !hasDir(p, "doc") && !hasDir(p, "examples") && path.Base(p) != "setup.py"
		},
		pathspec: []string{"**/*.py", "**/tests/**", "**/test/**", "**/testing/**"},
	},
	"js": {isTest: jsIsTest, isSource: jsIsSource, pathspec: jsPathspec},
	"ts": {isTest: jsIsTest, isSource: jsIsSource, pathspec: jsPathspec},
}

var jsPathspec = []string{"**/*.js", "**/*.mjs", "**/*.cjs", "**/*.ts", "**/*.mts", "**/*.cts", "**/*.tsx", "**/*.jsx",
	"**/test/**", "**/tests/**", "**/__tests__/**", "**/spec/**"}

func jsIsTest(p string) bool {
	b := path.Base(p)
	return hasDir(p, "test") || hasDir(p, "tests") || hasDir(p, "__tests__") || hasDir(p, "spec") ||
		strings.Contains(b, ".test.") || strings.Contains(b, ".spec.")
}

func jsIsSource(p string) bool {
	for _, d := range []string{"dist", "build", "node_modules", "coverage", "benchmark", "benchmarks", "bench", "docs", "examples", "example", "support", "scripts"} {
		if hasDir(p, d) {
			return false
		}
	}
	if strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".min.js") {
		return false
	}
	switch path.Ext(p) {
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx":
		return true
	}
	return false
}

// hasDir reports whether a folder of p (not its base name) is named d.
func hasDir(p, d string) bool {
	return strings.HasPrefix(p, d+"/") || strings.Contains(p, "/"+d+"/")
}

// A repoConf says how a Python or JavaScript repository's tests run (Go
// repositories need none): the setup that installs the test runner, which
// changed test files are test scripts, and the command for the tests chosen
// (pytest node ids or test files).
type repoConf struct {
	lang       string
	setup      [][]string
	testScript func(p string) bool
	cmd        func(sel []string) []string
}

func pytest(sel []string) []string {
	return append([]string{"python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"}, sel...)
}

func isPyTestFile(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".py") && (strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py") || strings.HasPrefix(b, "test") && hasDir(p, "tests"))
}

// npmInstall installs a test runner's packages into the folder above the
// tree (node resolves packages up the folders, so the tests find them; the
// project's own package.json and dependencies stay out of it, and the base
// context never sees them). runCmd shows that folder's node_modules as the
// tree's own in the recorded output, where a developer's would be.
func npmInstall(pkgs ...string) []string {
	return append([]string{"npm", "install", "--prefix", "..", "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"}, pkgs...)
}

var jsYAMLTest = regexp.MustCompile(`^test/(issues/)?[^/]+\.js$`)

var repoConfs = map[string]repoConf{
	// js-yaml: mocha; each issue's regression test is its own test/issues/NNNN.js.
	"nodeca/js-yaml": {
		lang:       "js",
		setup:      [][]string{npmInstall("mocha@10")},
		testScript: jsYAMLTest.MatchString,
		cmd:        func(sel []string) []string { return append([]string{"../node_modules/.bin/mocha"}, sel...) },
	},
	// ufo: vitest, one test/<topic>.test.ts per topic.
	"unjs/ufo": {
		lang:       "ts",
		setup:      [][]string{npmInstall("vitest@3")},
		testScript: func(p string) bool { return strings.HasPrefix(p, "test/") && strings.HasSuffix(p, ".test.ts") },
		cmd: func(sel []string) []string {
			return append([]string{"../node_modules/.bin/vitest", "run", "--reporter=default"}, sel...)
		},
	},
}

func confFor(repo, lang string) (repoConf, error) {
	if c, ok := repoConfs[repo]; ok {
		return c, nil
	}
	switch lang {
	case "go":
		return repoConf{lang: "go"}, nil
	case "python":
		return repoConf{lang: "python", testScript: isPyTestFile, cmd: pytest}, nil
	}
	return repoConf{}, fmt.Errorf("%s: no test command known for this %s repository (add it to repoConfs in mine.go)", repo, lang)
}

type miner struct {
	repos    *repos
	work     string // trees are written here and removed after each candidate
	out      string // the cases folder
	tsModule string
	verbose  bool
	maxLines int // the most non-test lines a fix may change
}

// candidates lists the repository's commits (first parents of HEAD back, no
// merges) that change test files and code of lang, newest first.
func (m *miner) candidates(gitDir, lang string) ([]candidate, error) {
	spec := langs[lang]
	args := []string{"log", "--no-merges", "--no-renames", "--numstat", "--format=%x00%H %P%x09%s", "HEAD", "--"}
	for _, p := range spec.pathspec {
		args = append(args, ":(glob)"+p)
	}
	out, err := git(gitDir, args...)
	if err != nil {
		return nil, err
	}
	var cs []candidate
	for _, rec := range bytes.Split(out, []byte{0}) {
		lines := strings.Split(strings.TrimSpace(string(rec)), "\n")
		if len(lines) < 2 {
			continue
		}
		head, subject, _ := strings.Cut(lines[0], "\t")
		hs := strings.Fields(head)
		if len(hs) != 2 { // a root commit or a merge
			continue
		}
		c := candidate{fix: hs[0], parent: hs[1], subject: subject, files: map[string][2]int{}}
		var tests, src, srcLines int
		for _, l := range lines[1:] {
			f := strings.SplitN(l, "\t", 3)
			if len(f) != 3 {
				continue
			}
			add, _ := strconv.Atoi(f[0])
			del, _ := strconv.Atoi(f[1])
			c.files[f[2]] = [2]int{add, del}
			switch {
			case spec.isTest(f[2]):
				if add > 0 {
					tests++
				}
			case spec.isSource(f[2]):
				src++
				srcLines += add + del
			}
		}
		if tests == 0 || src == 0 || src > 5 || srcLines > m.maxLines || !fixSubject(subject, srcLines) {
			continue
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// mine verifies the candidates of repo until max cases of it exist (counting
// those already in the cases folder) or tries candidates were tried.
func (m *miner) mine(repo, lang string, max, tries int) error {
	gitDir, err := m.repos.gitDir(repo)
	if err != nil {
		return err
	}
	conf, err := confFor(repo, lang)
	if err != nil {
		return err
	}
	cs, err := m.candidates(gitDir, lang)
	if err != nil {
		return err
	}
	have, _ := loadCases(m.out)
	done := map[string]bool{}
	n := 0
	for _, c := range have {
		done[c.Fix] = true
		if c.Repo == repo {
			n++
		}
	}
	rejected := loadRejected(m.out, repo)
	fmt.Fprintf(os.Stderr, "%s: %d candidates, %d cases already\n", repo, len(cs), n)
	tried := 0
	for _, cand := range cs {
		if n >= max || tried >= tries {
			break
		}
		if done[cand.fix] || rejected[cand.fix] != "" {
			continue
		}
		tried++
		t0 := time.Now()
		c, why := m.verify(gitDir, repo, lang, conf, cand)
		if c == nil {
			fmt.Fprintf(os.Stderr, "  %.10s %s: no (%s, %.0fs)\n", cand.fix, trunc(cand.subject, 60), why, time.Since(t0).Seconds())
			if !strings.HasPrefix(why, "checkout:") && !strings.HasPrefix(why, "tool:") { // this machine's trouble, not the commit's
				saveRejected(m.out, repo, cand.fix, why)
			}
			continue
		}
		if err := saveCase(m.out, c); err != nil {
			return err
		}
		n++
		fmt.Fprintf(os.Stderr, "  %.10s %s: CASE %s (%d functions, %.0fs)\n", cand.fix, trunc(cand.subject, 60), c.ID, len(c.Functions), time.Since(t0).Seconds())
	}
	fmt.Fprintf(os.Stderr, "%s: %d cases\n", repo, n)
	return nil
}

// verify builds the candidate's case, or says why there is none.
func (m *miner) verify(gitDir, repo, lang string, conf repoConf, cand candidate) (*Case, string) {
	spec := langs[lang]
	name := strings.ToLower(path.Base(repo))
	c := &Case{ID: name + "-" + cand.fix[:10], Repo: repo, Fix: cand.fix, Parent: cand.parent, Lang: lang, Subject: cand.subject}
	var srcFiles []string
	for f := range cand.files {
		switch {
		case spec.isTest(f):
			c.TestFiles = append(c.TestFiles, f)
		case spec.isSource(f):
			srcFiles = append(srcFiles, f)
		}
	}
	sort.Strings(c.TestFiles)
	sort.Strings(srcFiles)
	if lang == "ts" || lang == "js" {
		c.Lang = "js"
		for _, f := range srcFiles {
			if e := path.Ext(f); e == ".ts" || e == ".tsx" || e == ".mts" || e == ".cts" {
				c.Lang = "ts"
			}
		}
	}

	dir, err := os.MkdirTemp(m.work, c.ID+"-")
	if err != nil {
		return nil, err.Error()
	}
	defer removeTree(dir)
	pre := filepath.Join(dir, "pre", name)
	if err := writeTree(gitDir, c.Parent, pre); err != nil {
		return nil, "checkout: " + err.Error()
	}

	// The fixed functions: those of the parent's code files the diff changes.
	var abs []string
	for _, f := range srcFiles {
		if _, err := os.Stat(filepath.Join(pre, f)); err == nil {
			abs = append(abs, filepath.Join(pre, f))
		}
	}
	fns, err := funcsOf(c.Lang, abs, m.tsModule)
	if err != nil {
		return nil, "tool: " + err.Error()
	}
	for _, f := range srcFiles {
		spans, ok := fns[filepath.Join(pre, f)]
		if !ok {
			continue
		}
		d, err := fileDiff(gitDir, c.Parent, c.Fix, f)
		if err != nil {
			return nil, err.Error()
		}
		hit, _ := touched(spans, parseHunks(d), true, nil)
		for _, s := range hit {
			c.Functions = append(c.Functions, Func{File: f, Name: s.Name, From: s.From, To: s.To})
		}
	}
	if len(c.Functions) == 0 {
		return nil, "the fix changes no function that was there before"
	}
	if len(c.Functions) > maxFixedFuncs {
		return nil, fmt.Sprintf("the change touches %d functions (a feature or a refactoring more than a fix)", len(c.Functions))
	}

	// The pre-fix tree: the fix's test files over the parent.
	if err := overlay(gitDir, c.Fix, pre, c.TestFiles); err != nil {
		return nil, err.Error()
	}
	if lang == "go" {
		if _, err := os.Stat(filepath.Join(pre, "go.mod")); err != nil {
			c.GoMod = "github.com/" + repo
			if err := writeGoMod(c, pre); err != nil {
				return nil, err.Error()
			}
		}
	}
	if why := m.selectTests(gitDir, c, conf, pre); why != "" {
		return nil, why
	}
	c.Setup = conf.setup
	out, code, err := runTest(c, pre)
	if err != nil {
		return nil, "before: " + trunc(err.Error(), 200)
	}
	if code == 0 {
		return nil, "the tests pass before the fix"
	}
	if why := notATestFailure(c.Lang, out, code); why != "" {
		return nil, "before: " + why
	}
	c.Output = out

	post := filepath.Join(dir, "fix", name)
	if err := fixTree(gitDir, c, post); err != nil {
		return nil, "checkout: " + err.Error()
	}
	outFix, code, err := runTest(c, post)
	if err != nil {
		return nil, "after: " + trunc(err.Error(), 200)
	}
	if code != 0 {
		return nil, "the tests fail at the fix too: " + trunc(lastLines(outFix, 3), 200)
	}
	if strings.Contains(outFix, "[no tests to run]") || strings.Contains(outFix, "no test files") {
		return nil, "no test ran at the fix"
	}
	return c, ""
}

// selectTests sets the case's test command to run the tests the fix adds or
// changes, found in the pre-fix tree (which holds the fix's test files).
func (m *miner) selectTests(gitDir string, c *Case, conf repoConf, pre string) string {
	switch c.Lang {
	case "go":
		var names, pkgs []string
		for _, f := range c.TestFiles {
			if !strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(filepath.Join(pre, f))
			if err != nil {
				continue // removed by the fix
			}
			fns, imports, err := goFuncs(src)
			if err != nil {
				return "a test file does not parse: " + err.Error()
			}
			var tests []span
			for _, s := range fns {
				if isGoTestName(s.Name) {
					tests = append(tests, s)
				}
			}
			d, err := fileDiff(gitDir, c.Parent, c.Fix, f)
			if err != nil {
				return err.Error()
			}
			hit, rest := touched(fns, parseHunks(d), false, append(imports, blankLines(src)...))
			var chosen []span
			for _, s := range hit {
				if isGoTestName(s.Name) {
					chosen = append(chosen, s)
				} else {
					rest = true // a helper changed: every test of the file
				}
			}
			if rest {
				chosen = tests
			}
			for _, s := range chosen {
				if !contains(names, s.Name) {
					names = append(names, s.Name)
				}
			}
			if len(chosen) > 0 {
				pkg := "./" + path.Dir(f)
				if path.Dir(f) == "." {
					pkg = "."
				}
				if !contains(pkgs, pkg) {
					pkgs = append(pkgs, pkg)
				}
			}
		}
		if len(names) == 0 {
			return "no test function added or changed"
		}
		sort.Strings(names)
		c.Test = append([]string{"go", "test", "-count=1", "-vet=off", "-run", "^(" + strings.Join(names, "|") + ")$"}, pkgs...)
		return ""
	case "python":
		var sel []string
		var files []string
		for _, f := range c.TestFiles {
			if _, err := os.Stat(filepath.Join(pre, f)); err == nil && conf.testScript(f) {
				files = append(files, filepath.Join(pre, f))
			}
		}
		fns, err := funcsOf("python", files, "")
		if err != nil {
			return err.Error()
		}
		for _, abs := range files {
			f, _ := filepath.Rel(pre, abs)
			f = filepath.ToSlash(f)
			spans := fns[abs]
			d, err := fileDiff(gitDir, c.Parent, c.Fix, f)
			if err != nil {
				return err.Error()
			}
			src, _ := os.ReadFile(abs)
			hit, rest := touched(spans, parseHunks(d), false, blankLines(src))
			var ids []string
			for _, s := range hit {
				base := s.Name[strings.LastIndex(s.Name, ".")+1:]
				if !strings.HasPrefix(base, "test") || strings.Count(s.Name, ".") > 1 {
					rest = true
					continue
				}
				ids = append(ids, f+"::"+strings.ReplaceAll(s.Name, ".", "::"))
			}
			if rest || len(ids) == 0 {
				ids = []string{f}
			}
			sel = append(sel, ids...)
		}
		if len(sel) == 0 {
			return "no test script added or changed"
		}
		c.Test = conf.cmd(sel)
		return ""
	default:
		var sel []string
		for _, f := range c.TestFiles {
			if _, err := os.Stat(filepath.Join(pre, f)); err == nil && conf.testScript(f) {
				sel = append(sel, f)
			}
		}
		if len(sel) == 0 {
			return "no test script added or changed"
		}
		c.Test = conf.cmd(sel)
		return ""
	}
}

func isGoTestName(n string) bool {
	return strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Example")
}

// blankLines lists the blank lines of src as one-line ranges (a change there
// says nothing about which test changed).
func blankLines(src []byte) [][2]int {
	var out [][2]int
	for i, l := range bytes.Split(src, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			out = append(out, [2]int{i + 1, i + 1})
		}
	}
	return out
}

// notATestFailure says why a failing run is not a failing test (the tree does
// not build, a test file cannot be loaded), or "".
func notATestFailure(lang, out string, code int) string {
	switch lang {
	case "go":
		for _, s := range []string{"[build failed]", "[setup failed]", "build constraints exclude", "cannot find module", "go: "} {
			if strings.Contains(out, s) && !strings.Contains(out, "--- FAIL") {
				return "does not build: " + trunc(firstLine(out, s), 160)
			}
		}
		if !strings.Contains(out, "--- FAIL") && !strings.Contains(out, "panic:") {
			return "no test failed: " + trunc(lastLines(out, 2), 160)
		}
	case "python":
		if code != 1 {
			return fmt.Sprintf("pytest exit code %d (not failed tests): %s", code, trunc(lastLines(out, 2), 160))
		}
	default:
		for _, s := range []string{"Cannot find module", "ERR_MODULE_NOT_FOUND", "SyntaxError:", "error TS"} {
			if strings.Contains(out, s) {
				return "does not load: " + trunc(firstLine(out, s), 160)
			}
		}
	}
	return ""
}

func firstLine(out, sub string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, " | ")
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// The commits tried and rejected are kept (with why) in
// cases/rejected/<owner>+<name>.tsv, so mining again does not retry them.
func rejectedPath(out, repo string) string {
	return filepath.Join(out, "rejected", strings.Replace(repo, "/", "+", 1)+".tsv")
}

func loadRejected(out, repo string) map[string]string {
	m := map[string]string{}
	data, _ := os.ReadFile(rejectedPath(out, repo))
	for _, l := range strings.Split(string(data), "\n") {
		if h, why, ok := strings.Cut(l, "\t"); ok {
			m[h] = why
		}
	}
	return m
}

func saveRejected(out, repo, fix, why string) {
	p := rejectedPath(out, repo)
	_ = os.MkdirAll(filepath.Dir(p), 0o755)
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s\t%s\n", fix, strings.ReplaceAll(strings.ReplaceAll(why, "\n", " "), "\t", " "))
}
