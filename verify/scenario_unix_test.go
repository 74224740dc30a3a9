//go:build unix

package verify

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// ecosystem is a small project with a real failing test, in one language, and
// the changes of four plans: the right fix, a wrong fix, a fix that breaks
// another test, and the right fix while a test sleeps 30 s.
type ecosystem struct {
	name     string
	tool     []string // checked with exec.LookPath / run with --version
	env      []string
	files    map[string]string // the project: one failing test (the bug) and passing ones
	focused  string
	suite    []string
	right    map[string]string
	wrong    map[string]string
	wrongOut string            // in the focused command's output after the wrong fix
	breaks   map[string]string // fixes the bug, breaks another test
	broken   string            // the one new failure breaks causes
	unrelate map[string]string // added to the project: a failure unrelated to the plan
	sleeps   map[string]string // added to the project: a test that sleeps 30 s
	named    []string          // the failing test as the problem names it (NamedTests)
	// namedRight is the verdict on the right fix without a focused command
	// while an unrelated test fails: verified where the suite's output shows
	// the named test pass, not_verified where it does not.
	namedRight State
}

func ecosystems() []ecosystem {
	return []ecosystem{
		{
			name: "go", tool: []string{"go", "version"}, env: []string{"GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false"},
			files: map[string]string{
				"go.mod":             "module example.com/shop\n\ngo 1.22\n",
				"calc/calc.go":       "package calc\n\nfunc Add(a, b int) int { return a - b }\n\nfunc Double(a int) int { return a * 2 }\n",
				"calc/add_test.go":   "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
				"calc/other_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif got := Double(4); got != 8 {\n\t\tt.Errorf(\"Double(4) = %d, want 8\", got)\n\t}\n}\n",
				"util/util.go":       "package util\n\nimport \"strings\"\n\nfunc Clean(s string) string { return strings.TrimSpace(s) }\n",
				"util/util_test.go":  "package util\n\nimport \"testing\"\n\nfunc TestClean(t *testing.T) {\n\tif Clean(\" a \") != \"a\" {\n\t\tt.Fatal(\"not clean\")\n\t}\n}\n",
			},
			focused:    "go test -run '^TestAdd$' ./calc",
			suite:      []string{"go test ./..."},
			right:      map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Double(a int) int { return a * 2 }\n"},
			wrong:      map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a * b }\n\nfunc Double(a int) int { return a * 2 }\n"},
			wrongOut:   "Add(2, 3) = 6, want 5",
			breaks:     map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Double(a int) int { return a * 3 }\n"},
			broken:     "example.com/shop/calc.TestDouble",
			unrelate:   map[string]string{"legacy/legacy_test.go": "package legacy\n\nimport \"testing\"\n\nfunc TestLegacy(t *testing.T) { t.Fatal(\"legacy has been broken for a while\") }\n"},
			sleeps:     map[string]string{"slow/slow_test.go": "package slow\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(30 * time.Second) }\n"},
			named:      []string{"example.com/shop/calc.TestAdd"},
			namedRight: StateVerified, // "ok  example.com/shop/calc"
		},
		{
			// pytest is not installed on this machine: python3 -m unittest.
			name: "python", tool: []string{"python3", "--version"},
			files: map[string]string{
				"calc.py":          "def add(a, b):\n    return a - b\n\n\ndef double(a):\n    return a * 2\n",
				"test_add.py":      "import unittest\n\nfrom calc import add\n\n\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
				"test_double.py":   "import unittest\n\nfrom calc import double\n\n\nclass TestDouble(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(4), 8)\n",
				"util.py":          "def clean(s):\n    return s.strip()\n",
				"test_util.py":     "import unittest\n\nfrom util import clean\n\n\nclass TestUtil(unittest.TestCase):\n    def test_clean(self):\n        self.assertEqual(clean(' a '), 'a')\n",
				"requirements.txt": "",
			},
			focused:    "python3 -m unittest test_add.TestAdd.test_add",
			suite:      []string{"python3 -m unittest"},
			right:      map[string]string{"calc.py": "def add(a, b):\n    return a + b\n\n\ndef double(a):\n    return a * 2\n"},
			wrong:      map[string]string{"calc.py": "def add(a, b):\n    return a * b\n\n\ndef double(a):\n    return a * 2\n"},
			wrongOut:   "AssertionError: 6 != 5",
			breaks:     map[string]string{"calc.py": "def add(a, b):\n    return a + b\n\n\ndef double(a):\n    return a * 3\n"},
			broken:     "test_double.TestDouble.test_double",
			unrelate:   map[string]string{"test_legacy.py": "import unittest\n\n\nclass TestLegacy(unittest.TestCase):\n    def test_legacy(self):\n        self.fail('legacy has been broken for a while')\n"},
			sleeps:     map[string]string{"test_slow.py": "import time\nimport unittest\n\n\nclass TestSlow(unittest.TestCase):\n    def test_slow(self):\n        time.sleep(30)\n"},
			named:      []string{"test_add.TestAdd.test_add"},
			namedRight: StateNotVerified, // unittest names passing tests only with -v
		},
		{
			name: "node", tool: []string{"node", "--version"},
			files: map[string]string{
				"package.json":          "{\"name\": \"shop\", \"private\": true}\n",
				"calc.js":               "exports.add = (a, b) => a - b;\nexports.double = (a) => a * 2;\n",
				"test/add.test.js":      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../calc');\n\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n});\n",
				"test/double.test.js":   "const test = require('node:test');\nconst assert = require('node:assert');\nconst { double } = require('../calc');\n\ntest('double', () => {\n  assert.strictEqual(double(4), 8);\n});\n",
				"util.js":               "exports.clean = (s) => s.trim();\n",
				"test/util.test.js":     "const test = require('node:test');\nconst assert = require('node:assert');\nconst { clean } = require('../util');\n\ntest('clean', () => {\n  assert.strictEqual(clean(' a '), 'a');\n});\n",
				"node_modules/.keep":    "",
				"node_modules/dep/i.js": "module.exports = 1;\n",
			},
			focused:    "node --test test/add.test.js",
			suite:      []string{"node --test"},
			right:      map[string]string{"calc.js": "exports.add = (a, b) => a + b;\nexports.double = (a) => a * 2;\n"},
			wrong:      map[string]string{"calc.js": "exports.add = (a, b) => a * b;\nexports.double = (a) => a * 2;\n"},
			wrongOut:   "6 !== 5",
			breaks:     map[string]string{"calc.js": "exports.add = (a, b) => a + b;\nexports.double = (a) => a * 3;\n"},
			broken:     "double",
			unrelate:   map[string]string{"test/legacy.test.js": "const test = require('node:test');\n\ntest('legacy', () => {\n  throw new Error('legacy has been broken for a while');\n});\n"},
			sleeps:     map[string]string{"test/slow.test.js": "const test = require('node:test');\n\ntest('slow', async () => {\n  await new Promise((r) => setTimeout(r, 30000));\n});\n"},
			named:      []string{"add"},
			namedRight: StateNotVerified, // node's passing tests are not read
		},
	}
}

func changesOf(files map[string]string) map[string]*[]byte {
	out := map[string]*[]byte{}
	for p, c := range files {
		out[p] = bytesOf(c)
	}
	return out
}

func TestVerifyScenarios(t *testing.T) {
	for _, eco := range ecosystems() {
		t.Run(eco.name, func(t *testing.T) {
			if out, err := exec.Command(eco.tool[0], eco.tool[1:]...).CombinedOutput(); err != nil {
				t.Fatalf("%s is needed for this scenario (go, python3 and node are on the CI machine): %v", eco.tool[0], err)
			} else {
				t.Logf("%s: %s", eco.name, strings.TrimSpace(string(out)))
			}
			t.Parallel()
			runner := groupRunner{env: eco.env}
			var runWith func(t *testing.T, extra map[string]string, change map[string]string, ctx context.Context, cache BaselineCache, progress func(Progress), focused string, named []string) Report
			// run verifies one plan on a fresh project and checks what must
			// hold after every scenario: the project is byte-identical and the
			// copies are gone.
			run := func(t *testing.T, extra map[string]string, change map[string]string, ctx context.Context, cache BaselineCache, progress func(Progress)) Report {
				return runWith(t, extra, change, ctx, cache, progress, eco.focused, nil)
			}
			// runWith is run with another focused command and named tests.
			runWith = func(t *testing.T, extra map[string]string, change map[string]string, ctx context.Context, cache BaselineCache, progress func(Progress), focused string, named []string) Report {
				t.Helper()
				proj, tmp := t.TempDir(), t.TempDir()
				files := maps.Clone(eco.files)
				maps.Copy(files, extra)
				writeTree(t, proj, files)
				before := snapshot(t, proj)
				rep, err := Verify(ctx, Request{
					Root: proj, Changes: changesOf(change), Focused: focused, Suite: eco.suite, Named: named,
					Timeout: 2 * time.Minute, Runner: runner, TempDir: tmp, Cache: cache, Progress: progress,
				})
				if err != nil {
					t.Fatal(err)
				}
				sameSnapshot(t, "project", before, snapshot(t, proj))
				emptyDir(t, tmp)
				if rep.Err != nil && rep.State != StateNotVerified {
					t.Errorf("Report.Err = %v", rep.Err)
				}
				t.Logf("%s: %s %s %s; overhead %v (scan %v, copy %v, apply %v, baseline copy %v, clean-up %v), commands %v",
					t.Name(), rep.State, rep.Reason, rep.Detail, rep.Timings.Overhead(), rep.Timings.Scan, rep.Timings.Copy,
					rep.Timings.Apply, rep.Timings.BaselineCopy, rep.Timings.Cleanup, rep.Timings.Commands)
				return rep
			}

			t.Run("right fix is verified", func(t *testing.T) {
				rep := run(t, nil, eco.right, context.Background(), nil, nil)
				if rep.State != StateVerified {
					t.Fatalf("state %s (%s); commands %+v", rep.State, rep.Detail, rep.Commands)
				}
				for _, c := range rep.Commands {
					if c.Outcome != OutcomePassed || c.ExitCode != 0 {
						t.Errorf("%s: %s exit %d", c.Command, c.Outcome, c.ExitCode)
					}
				}
				if rep.BaselineClone != nil {
					t.Error("a baseline copy was made though every command passed")
				}
			})

			t.Run("wrong fix fails with the output", func(t *testing.T) {
				rep := run(t, nil, eco.wrong, context.Background(), nil, nil)
				if rep.State != StateFailed || rep.Reason != ReasonFocusedFails {
					t.Fatalf("state %s %s (%s)", rep.State, rep.Reason, rep.Detail)
				}
				f := rep.Commands[0]
				if !f.Focused || f.ExitCode == 0 || !strings.Contains(f.Output, eco.wrongOut) {
					t.Errorf("focused command: exit %d, output lacks %q:\n%s", f.ExitCode, eco.wrongOut, f.Output)
				}
				if len(f.Failures.Names) == 0 {
					t.Errorf("no failing test parsed from:\n%s", f.Output)
				}
				if rep.Commands[1].Outcome != OutcomeNotRun {
					t.Errorf("suite ran after the focused command failed: %s", rep.Commands[1].Outcome)
				}
			})

			t.Run("fix that breaks another test is partly verified", func(t *testing.T) {
				cache := NewMemoryCache(0)
				rep := run(t, eco.unrelate, eco.breaks, context.Background(), cache, nil)
				if rep.State != StatePartly || rep.Reason != ReasonNewFailures {
					t.Fatalf("state %s %s (%s); suite output:\n%s", rep.State, rep.Reason, rep.Detail, rep.Commands[len(rep.Commands)-1].Output)
				}
				if !slices.Equal(rep.NewFailures, []string{eco.broken}) {
					t.Errorf("new failures %q, want only %q", rep.NewFailures, eco.broken)
				}
				s := rep.Commands[1]
				if s.Baseline == nil || s.Baseline.Passed() || s.BaselineExitCode() == 0 || len(s.Baseline.Failures.Names) < 2 {
					t.Errorf("baseline should fail with the bug and the unrelated test: %+v", s.Baseline)
				}
				if rep.BaselineClone == nil || s.BaselineCached {
					t.Error("the baseline should have been run on a copy")
				}
			})

			// Without a focused command, the suite fails before and after
			// the change (an unrelated test): the test the problem names
			// decides.
			t.Run("without a focused command, the named test that still fails fails the plan", func(t *testing.T) {
				rep := runWith(t, eco.unrelate, eco.wrong, context.Background(), nil, nil, "", eco.named)
				if rep.State != StateFailed || rep.Reason != ReasonNamedFails {
					t.Fatalf("state %s %s (%s); suite output:\n%s", rep.State, rep.Reason, rep.Detail, rep.Commands[0].Output)
				}
				if s := rep.Commands[0]; !slices.Equal(s.NamedFailing, eco.named) || !strings.Contains(s.Output, eco.wrongOut) {
					t.Errorf("named failing %q; output:\n%s", s.NamedFailing, s.Output)
				}
			})

			t.Run("without a focused command, the right fix", func(t *testing.T) {
				rep := runWith(t, eco.unrelate, eco.right, context.Background(), nil, nil, "", eco.named)
				if rep.State != eco.namedRight {
					t.Fatalf("state %s %s (%s), want %s; suite output:\n%s", rep.State, rep.Reason, rep.Detail, eco.namedRight, rep.Commands[0].Output)
				}
				if want := map[State]Reason{StateVerified: ReasonNamedPass, StateNotVerified: ReasonInconclusive}[eco.namedRight]; rep.Reason != want {
					t.Errorf("reason %s, want %s", rep.Reason, want)
				}
			})

			t.Run("cancelling during a long check is prompt and not verified", func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var once sync.Once
				progress := func(p Progress) {
					if p.Stage == StageRun && p.Index > 0 {
						once.Do(func() { time.AfterFunc(2*time.Second, cancel) })
					}
				}
				start := time.Now()
				rep := run(t, eco.sleeps, eco.right, ctx, nil, progress)
				took := time.Since(start)
				if rep.State != StateNotVerified || rep.Reason != ReasonCancelled || !errors.Is(rep.Err, context.Canceled) {
					t.Fatalf("state %s %s err %v", rep.State, rep.Reason, rep.Err)
				}
				// Not a timing assertion: the sleeping test needs 30 s, so
				// returning well before means the process group was killed.
				if took > 25*time.Second {
					t.Errorf("Verify returned after %v: the sleeping check was not stopped", took)
				}
			})
		})
	}
}

// The baseline of an unchanged project is loaded from the cache the second
// time: no baseline copy, same verdict.
func TestVerifyBaselineCache(t *testing.T) {
	eco := ecosystems()[0]
	proj, tmp := t.TempDir(), t.TempDir()
	files := maps.Clone(eco.files)
	maps.Copy(files, eco.unrelate)
	writeTree(t, proj, files)
	cache, err := NewFileCache(t.TempDir())
	must(t, err)
	req := Request{Root: proj, Changes: changesOf(eco.breaks), Focused: eco.focused, Suite: eco.suite,
		Runner: groupRunner{env: eco.env}, TempDir: tmp, Cache: cache}
	first, err := Verify(context.Background(), req)
	must(t, err)
	second, err := Verify(context.Background(), req)
	must(t, err)
	if first.State != StatePartly || second.State != StatePartly {
		t.Fatalf("states %s, %s", first.State, second.State)
	}
	if first.Commands[1].BaselineCached || !second.Commands[1].BaselineCached || second.BaselineClone != nil {
		t.Errorf("second run should use the cached baseline: first cached %v, second cached %v, second copy %v",
			first.Commands[1].BaselineCached, second.Commands[1].BaselineCached, second.BaselineClone != nil)
	}
	// Editing the project invalidates the baseline.
	later := time.Now().Add(time.Minute)
	must(t, os.Chtimes(filepath.Join(proj, "util", "util.go"), later, later))
	third, err := Verify(context.Background(), req)
	must(t, err)
	if third.Commands[1].BaselineCached {
		t.Error("baseline loaded after the project changed")
	}
	emptyDir(t, tmp)
}
