package frames

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strings"

	"fixplan/internal/lazyre"
	"fixplan/projfs"
)

// FailingTest is a test named as failing in the problem text or logs.
type FailingTest struct {
	Name string `json:"name"`
	// File is the test file when the output names it (pytest node ids), else "".
	File string `json:"file,omitempty"`
}

var (
	pytestNodeRe = lazyre.New(`([\w./\\\-]+\.py)::(?:[\w\[\]\-]+::)?(\w+)`)
	goFailRe     = lazyre.New(`(?m)--- FAIL: (\w+)`)
	unitFailRe   = lazyre.New(`(?m)^(?:FAIL|ERROR): (\w+) \(`)
	gradleFailRe = lazyre.New(`(\w+)\s*>\s*(\w+)\(\)\s+FAILED`)
	junit4FailRe = lazyre.New(`\b(test\w*)\((?:[\w$]+\.)*(\w+)\)`)
	rustFailRe   = lazyre.New(`(?m)^test (?:[\w]+::)*(\w+) \.\.\. FAILED`)
	setupErrRe   = lazyre.New(`ERROR at (?:setup|teardown) of (\w+)`)
	jestFailRe   = lazyre.New(`(?m)^\s*● (?:[^›\n]+ › )*([^›\n]+?)\s*$`)
	// Jest's and Vitest's failed rows (✕ / ×, then the title and the time taken)
	// and file headers (" FAIL  src/x.test.ts", Vitest adds " > Suite > title").
	jsFailRowRe  = lazyre.New(`^\s*(?:✕|×) (?:[^>\n]+ > )*(.+?)(?: \(\d+(?:\.\d+)? ?m?s\)| \d+(?:\.\d+)?m?s)?\s*$`)
	jsFailFileRe = lazyre.New(`^\s*FAIL\s+(\S+\.(?:[cm]?[jt]sx?))(?:\s+>\s+(?:[^>\n]+ > )*(.+?))?(?:\s+\(\d+(?:\.\d+)? ?m?s\))?\s*$`)
	// pytest's "____ test_x ____" headers (the FAILURES and ERRORS sections),
	// and its "=== FAILURES ===" section lines.
	pytestHeadRe    = lazyre.New(`^_{3,} (?:ERROR at (?:setup|teardown) of )?([\w.:\[\]\-]+?)(?:\[[^\]\n]*\])? _{3,}$`)
	pytestSectionRe = lazyre.New(`^={3,} ([A-Za-z ]+?) ={3,}$`)
	phraseFailRe    = lazyre.New(`\b(test_\w+|Test[A-Z0-9_]\w*|\w+(?:_test|Test|Tests|Spec))\s+(?:(?:still |now |keeps? |is )?(?:fails|failed|failing)|broke|breaks)\b|\bFAIL(?:ED)?:?\s+(test_\w+|Test[A-Z0-9_]\w*|\w+(?:Test|Tests|_test))\b`)
)

// FailingTests finds the tests the text says fail, in order of appearance and
// de-duplicated: `go test`'s "--- FAIL: TestX", pytest node ids
// ("FAILED tests/test_x.py::test_y"), unittest's "FAIL: test_y (...)", Gradle's
// "XTest > testY() FAILED", JUnit 4's "testY(com.x.XTest)", cargo test's
// "test m::t ... FAILED", pytest's "ERROR at setup of test_x", Jest's
// "● Suite › title" and "✕ title" rows (the name is then the test's title; the
// file is the one of the " FAIL  path" header above), Vitest's "× title" and
// "FAIL  path > Suite > title", pytest's "____ test_x ____" headers of its
// FAILURES and ERRORS sections (node ids that -v or -rA mark PASSED or SKIPPED
// are not failures), `go test -json` events (read as go test's own text), and
// phrases such as "TestX fails" or "test_x failed".
func FailingTests(text string) []FailingTest {
	type hit struct {
		pos int
		t   FailingTest
	}
	text = expandGoTestJSON(text)
	var hits []hit
	for _, m := range pytestNodeRe.FindAllStringSubmatchIndex(text, -1) {
		if pytestPassed(text, m[0], m[1]) {
			continue
		}
		hits = append(hits, hit{m[0], FailingTest{Name: text[m[4]:m[5]], File: strings.ReplaceAll(text[m[2]:m[3]], `\`, "/")}})
	}
	for _, re := range []*lazyre.RE{goFailRe, unitFailRe, rustFailRe, setupErrRe, jestFailRe} {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			if name := text[m[2]:m[3]]; name != "Test suite failed to run" {
				hits = append(hits, hit{m[0], FailingTest{Name: name}})
			}
		}
	}
	for _, h := range lineFailures(text) {
		hits = append(hits, hit{h.pos, h.t})
	}
	for _, m := range gradleFailRe.FindAllStringSubmatchIndex(text, -1) {
		hits = append(hits, hit{m[0], FailingTest{Name: text[m[4]:m[5]], File: text[m[2]:m[3]] + ".java"}})
	}
	for _, m := range junit4FailRe.FindAllStringSubmatchIndex(text, -1) {
		hits = append(hits, hit{m[0], FailingTest{Name: text[m[2]:m[3]], File: text[m[4]:m[5]] + ".java"}})
	}
	for _, m := range phraseFailRe.FindAllStringSubmatchIndex(text, -1) {
		name := ""
		if m[2] >= 0 {
			name = text[m[2]:m[3]]
		} else {
			name = text[m[4]:m[5]]
		}
		hits = append(hits, hit{m[0], FailingTest{Name: name}})
	}
	// order of appearance (a stable sort: an insertion sort of output naming
	// thousands of failing subtests was quadratic); a hit with a file wins
	// over the same name without one
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.pos, b.pos) })
	var out []FailingTest
	at := map[string]int{}
	for _, h := range hits {
		if i, ok := at[h.t.Name]; ok {
			if out[i].File == "" {
				out[i].File = h.t.File
			}
			continue
		}
		at[h.t.Name] = len(out)
		out = append(out, h.t)
	}
	return out
}

// pytestPassed reports whether the node id at text[start:end] is on a line that
// says it did not fail: pytest -v's "x.py::test_a PASSED [ 50%]" and -rA's
// "PASSED x.py::test_a" (SKIPPED, XFAIL and XPASS alike).
func pytestPassed(text string, start, end int) bool {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	le := strings.IndexByte(text[end:], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += end
	}
	before, after := strings.TrimSpace(text[ls:start]), strings.TrimSpace(text[end:le])
	for _, w := range []string{"PASSED", "SKIPPED", "XFAIL", "XPASS"} {
		if before == w || strings.HasPrefix(after, w) {
			return true
		}
	}
	return false
}

// lineHit is a failing test found by a line of a runner's output, at byte pos.
type lineHit struct {
	pos int
	t   FailingTest
}

// lineFailures reads the runner outputs that need a line's context: pytest's
// "____ test_x ____" headers inside its FAILURES and ERRORS sections (not the
// PASSES section of -rA), and Jest's and Vitest's ✕/× rows and ● titles, which
// belong to the file of the last " FAIL  path" header.
func lineFailures(text string) []lineHit {
	var out []lineHit
	section, jsFile := "", ""
	pos := 0
	for line := range strings.SplitSeq(text, "\n") {
		at := pos
		pos += len(line) + 1
		line = strings.TrimRight(line, "\r")
		if m := pytestSectionRe.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if (section == "FAILURES" || section == "ERRORS") && strings.HasPrefix(line, "___") {
			if m := pytestHeadRe.FindStringSubmatch(line); m != nil {
				name := m[1]
				if i := strings.LastIndexAny(name, ".:"); i >= 0 {
					name = name[i+1:] // TestCart.test_total, test_x.py::test_y
				}
				if name != "" && name != "_" {
					out = append(out, lineHit{at, FailingTest{Name: name}})
				}
			}
			continue
		}
		if strings.Contains(line, "FAIL") {
			if m := jsFailFileRe.FindStringSubmatch(line); m != nil {
				jsFile = strings.ReplaceAll(m[1], `\`, "/")
				if m[2] != "" {
					out = append(out, lineHit{at, FailingTest{Name: m[2], File: jsFile}})
				}
				continue
			}
		}
		if strings.Contains(line, "PASS ") {
			jsFile = ""
		}
		if jsFile != "" && strings.Contains(line, "●") {
			if m := jestFailRe.FindStringSubmatch(line); m != nil && m[1] != "Test suite failed to run" {
				out = append(out, lineHit{at, FailingTest{Name: m[1], File: jsFile}})
			}
		}
		if strings.Contains(line, "✕") || strings.Contains(line, "×") {
			if m := jsFailRowRe.FindStringSubmatch(line); m != nil {
				out = append(out, lineHit{at, FailingTest{Name: m[1], File: jsFile}})
			}
		}
	}
	return out
}

// Location is a line of a project file: where a failing test is defined.
type Location struct {
	File string // root-relative, slash-separated
	Line int    // 1-based
}

// jsTitleRe finds the test functions of JS test runners that take a title.
var jsTitleRe = lazyre.New(`\b(?:it|test|describe)(?:\.(?:only|each|skip|concurrent))?\(`)

// defPrefixes precede a test's name in its definition, per language.
var defPrefixes = []string{"func ", "func (", "def ", "async def ", "void ", "fun ", "fn ", "function ", "async function ", "public void ", "it(", "test("}

// findDefinition searches the project for the definition of test t and returns
// where it is; ok is false when no definition is found.
func (r *Resolver) findDefinition(ctx context.Context, t FailingTest) (Location, bool) {
	return r.findDefinitionIn(ctx, t, "", false)
}

// TestDefinition searches the project for the definition of test t, named as
// failing in text, and returns where it is; ok is false when no definition is
// found. A Go test's package (the FAIL/ok line below its "--- FAIL: name") puts
// the definitions in that package's folder first, so TestLRU of simplelru/ is
// not taken for the root's TestLRU. Each test is searched for once per
// Resolver (a base context asks twice: for its window and its definitions).
func (r *Resolver) TestDefinition(ctx context.Context, t FailingTest, text string) (Location, bool) {
	k := testKey{t, text}
	if d, ok := r.tests[k]; ok {
		return d.at, d.ok
	}
	var d testDef
	d.at, d.ok = r.testDefinition(ctx, t, text)
	if ctx.Err() == nil {
		if r.tests == nil {
			r.tests = map[testKey]testDef{}
		}
		r.tests[k] = d
	}
	return d.at, d.ok
}

// testKey and testDef are a failing test named in a text and its definition.
type testKey struct {
	t    FailingTest
	text string
}

type testDef struct {
	at Location
	ok bool
}

func (r *Resolver) testDefinition(ctx context.Context, t FailingTest, text string) (Location, bool) {
	if t.File == "" {
		if i := strings.Index(text, "--- FAIL: "+t.Name+" "); i >= 0 {
			if dir, ok := r.goPackageDir(ctx, goPackageMarks(text).at(i)); ok {
				return r.findDefinitionIn(ctx, t, dir, true)
			}
		}
	}
	return r.findDefinition(ctx, t)
}

// Points returns where a failure shows in the project: the places of the
// resolved frames in the project's files (library frames and unresolved ones
// left out), in order, and the definitions of the first maxTests failing tests
// of text that are found (TestDefinition).
func (r *Resolver) Points(ctx context.Context, resolved []ResolvedFrame, text string, maxTests int) (frameAt, testAt []Location) {
	for _, f := range resolved {
		if f.File != "" && !f.Library {
			frameAt = append(frameAt, Location{File: f.File, Line: f.Line})
		}
	}
	for i, t := range FailingTests(text) {
		if i == maxTests {
			break
		}
		if def, ok := r.TestDefinition(ctx, t, text); ok {
			testAt = append(testAt, def)
		}
	}
	return frameAt, testAt
}

// findDefinitionIn is findDefinition; with inDir, a definition in folder dir
// ("" for the root) ranks first. The files whose definition would outrank
// every one elsewhere are searched first, and the rest of the tree only when
// they hold none: with inDir, the folder's own files (4 more than any file
// elsewhere can score), then the test file the output names when it looks
// like a test file (2 + 2 + 1, where a file elsewhere scores at most 2 + 1 + 1,
// or 2 + 2 + 1 in the folder).
func (r *Resolver) findDefinitionIn(ctx context.Context, t FailingTest, dir string, inDir bool) (Location, bool) {
	if inDir {
		if loc, score := r.bestDefinition(ctx, t, dir, inDir, func(rel, _ string) bool { return inFolder(rel, dir) }); score > 0 {
			return loc, true
		}
	}
	if f := strings.TrimPrefix(t.File, "./"); f != "" {
		named := func(rel, _ string) bool { return rel == f || strings.HasSuffix(rel, "/"+f) }
		if loc, score := r.bestDefinition(ctx, t, dir, inDir, named); score >= 5 {
			return loc, true
		}
	}
	loc, score := r.bestDefinition(ctx, t, dir, inDir, nil)
	return loc, score > 0
}

// inFolder reports whether the file rel is directly in folder dir ("" for
// the root).
func inFolder(rel, dir string) bool {
	return path.Dir(rel) == dir || dir == "" && !strings.Contains(rel, "/")
}

// bestDefinition searches the files want picks (nil: all) for the definition
// of t and returns the best one and its score (findDefinitionIn's ranking; 0:
// none).
func (r *Resolver) bestDefinition(ctx context.Context, t FailingTest, dir string, inDir bool, want func(rel, name string) bool) (Location, int) {
	res, err := r.tree.Search(ctx, t.Name, projfs.SearchOptions{Max: 500, Want: want})
	if err != nil {
		return Location{}, 0
	}
	var best Location
	bestScore := 0
	for _, m := range res.Matches {
		score := 0
		line := strings.TrimSpace(m.Text)
		for _, p := range defPrefixes {
			if strings.Contains(line, p+t.Name+"(") || (strings.HasPrefix(p, "func (") && strings.Contains(line, ") "+t.Name+"(")) {
				score = 2
				break
			}
		}
		if score == 0 && (strings.Contains(line, " "+t.Name+"()") && strings.HasSuffix(line, "{")) {
			score = 2 // Java/Kotlin/C# methods with modifiers
		}
		if score == 0 && jsTitleRe.MatchString(line) {
			for _, q := range []string{"'", `"`, "`"} {
				if strings.Contains(line, "("+q+t.Name+q) {
					score = 2 // Jest/Mocha/Vitest: it('title', ...)
				}
			}
		}
		if score == 0 {
			continue
		}
		if f := strings.TrimPrefix(t.File, "./"); f != "" {
			if m.Path == f || strings.HasSuffix(m.Path, "/"+f) {
				score += 2
			} else if path.Base(m.Path) == path.Base(f) {
				score++
			}
		}
		if LooksLikeTestFile(m.Path) {
			score++
		}
		if inDir && inFolder(m.Path, dir) {
			score += 4
		}
		if score > bestScore {
			best, bestScore = Location{m.Path, m.Line}, score
		}
	}
	return best, bestScore
}

// LooksLikeTestFile reports whether a path follows a test naming convention.
func LooksLikeTestFile(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(strings.TrimSuffix(b, path.Ext(b)), "_test") || strings.HasPrefix(b, "test_") ||
		strings.Contains(b, ".test.") || strings.Contains(b, ".spec.") || strings.Contains(b, "Test.") ||
		strings.Contains(b, "Tests.") || strings.Contains(p, "/tests/") || strings.Contains(p, "/test/") ||
		strings.HasPrefix(p, "tests/") || strings.HasPrefix(p, "test/")
}

// ModuleUnderTest maps a test file to the file it tests by naming convention:
// x_test.go→x.go, test_x.py and x_test.py→x.py, x.test.ts and x.spec.ts→x.ts,
// XTest.java/XTests.java→X.java (src/test/ → src/main/), x_spec.rb→x.rb. It
// returns the candidate paths to try, most likely first, or nil when the name
// follows no convention.
func ModuleUnderTest(testFile string) []string {
	dir, b := path.Split(testFile)
	ext := path.Ext(b)
	stem := strings.TrimSuffix(b, ext)
	var names []string
	switch {
	case strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_spec"):
		names = append(names, stem[:len(stem)-5]+ext)
	case strings.HasPrefix(stem, "test_"):
		names = append(names, stem[5:]+ext)
	case strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec"):
		base := stem[:len(stem)-5]
		names = append(names, base+ext)
		if ext == ".ts" || ext == ".tsx" {
			names = append(names, base+".tsx", base+".ts")
		}
		if ext == ".js" || ext == ".jsx" {
			names = append(names, base+".jsx", base+".js", base+".ts")
		}
	case strings.HasSuffix(stem, "Tests"):
		names = append(names, stem[:len(stem)-5]+ext)
	case strings.HasSuffix(stem, "Test"):
		names = append(names, stem[:len(stem)-4]+ext)
	default:
		return nil
	}
	var out []string
	dirs := []string{dir}
	if alt := strings.Replace(dir, "src/test/", "src/main/", 1); alt != dir {
		dirs = append([]string{alt}, dirs...)
	}
	if alt := strings.Replace(dir, "__tests__/", "", 1); alt != dir {
		dirs = append(dirs, alt)
	}
	for _, d := range dirs {
		for _, n := range names {
			if n != b && n != ext {
				out = append(out, d+n)
			}
		}
	}
	return dedupe(out)
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
