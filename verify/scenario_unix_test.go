//go:build unix

package verify

import (
	"context"
	"errors"
	"io/fs"
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
			focused:  "go test -run '^TestAdd$' ./calc",
			suite:    []string{"go test ./..."},
			right:    map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Double(a int) int { return a * 2 }\n"},
			wrong:    map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a * b }\n\nfunc Double(a int) int { return a * 2 }\n"},
			wrongOut: "Add(2, 3) = 6, want 5",
			breaks:   map[string]string{"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Double(a int) int { return a * 3 }\n"},
			broken:   "example.com/shop/calc.TestDouble",
			unrelate: map[string]string{"legacy/legacy_test.go": "package legacy\n\nimport \"testing\"\n\nfunc TestLegacy(t *testing.T) { t.Fatal(\"legacy has been broken for a while\") }\n"},
			sleeps:   map[string]string{"slow/slow_test.go": "package slow\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(30 * time.Second) }\n"},
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
			focused:  "python3 -m unittest test_add.TestAdd.test_add",
			suite:    []string{"python3 -m unittest"},
			right:    map[string]string{"calc.py": "def add(a, b):\n    return a + b\n\n\ndef double(a):\n    return a * 2\n"},
			wrong:    map[string]string{"calc.py": "def add(a, b):\n    return a * b\n\n\ndef double(a):\n    return a * 2\n"},
			wrongOut: "AssertionError: 6 != 5",
			breaks:   map[string]string{"calc.py": "def add(a, b):\n    return a + b\n\n\ndef double(a):\n    return a * 3\n"},
			broken:   "test_double.TestDouble.test_double",
			unrelate: map[string]string{"test_legacy.py": "import unittest\n\n\nclass TestLegacy(unittest.TestCase):\n    def test_legacy(self):\n        self.fail('legacy has been broken for a while')\n"},
			sleeps:   map[string]string{"test_slow.py": "import time\nimport unittest\n\n\nclass TestSlow(unittest.TestCase):\n    def test_slow(self):\n        time.sleep(30)\n"},
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
			focused:  "node --test test/add.test.js",
			suite:    []string{"node --test"},
			right:    map[string]string{"calc.js": "exports.add = (a, b) => a + b;\nexports.double = (a) => a * 2;\n"},
			wrong:    map[string]string{"calc.js": "exports.add = (a, b) => a * b;\nexports.double = (a) => a * 2;\n"},
			wrongOut: "6 !== 5",
			breaks:   map[string]string{"calc.js": "exports.add = (a, b) => a + b;\nexports.double = (a) => a * 3;\n"},
			broken:   "double",
			unrelate: map[string]string{"test/legacy.test.js": "const test = require('node:test');\n\ntest('legacy', () => {\n  throw new Error('legacy has been broken for a while');\n});\n"},
			sleeps:   map[string]string{"test/slow.test.js": "const test = require('node:test');\n\ntest('slow', async () => {\n  await new Promise((r) => setTimeout(r, 30000));\n});\n"},
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
	if testing.Short() {
		t.Skip("runs real test runners")
	}
	for _, eco := range ecosystems() {
		t.Run(eco.name, func(t *testing.T) {
			if out, err := exec.Command(eco.tool[0], eco.tool[1:]...).CombinedOutput(); err != nil {
				t.Skipf("%s is not installed: %v", eco.tool[0], err)
			} else {
				t.Logf("%s: %s", eco.name, strings.TrimSpace(string(out)))
			}
			t.Parallel()
			runner := groupRunner{env: eco.env}
			// run verifies one plan on a fresh project and checks what must
			// hold after every scenario: the project is byte-identical and the
			// copies are gone.
			run := func(t *testing.T, extra map[string]string, change map[string]string, ctx context.Context, cache BaselineCache, progress func(Progress)) Report {
				t.Helper()
				proj, tmp := t.TempDir(), t.TempDir()
				files := maps.Clone(eco.files)
				maps.Copy(files, extra)
				writeTree(t, proj, files)
				before := snapshot(t, proj)
				rep, err := Verify(ctx, Request{
					Root: proj, Changes: changesOf(change), Focused: eco.focused, Suite: eco.suite,
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
	if testing.Short() {
		t.Skip("runs go test")
	}
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

// A hostile project links outside; the plan's change names a path through the
// link. Nothing outside is written, the link is reported as skipped.
func TestVerifyHostileProject(t *testing.T) {
	base := t.TempDir()
	proj, outside, tmp := filepath.Join(base, "proj"), filepath.Join(base, "outside"), t.TempDir()
	writeTree(t, base, map[string]string{
		"outside/keep.txt": "precious",
		"proj/a.txt":       "a",
		"proj/out":         "-> ../outside",
		"proj/abs":         "-> " + outside,
	})
	outBefore, projBefore := snapshot(t, outside), snapshot(t, proj)
	rep, err := Verify(context.Background(), Request{
		Root: proj, Runner: groupRunner{}, TempDir: tmp, Suite: []string{"cat out/keep.txt abs/keep.txt; ls -la; true"},
		Changes: map[string]*[]byte{"out/keep.txt": bytesOf("pwned"), "abs/new.txt": bytesOf("pwned")},
	})
	must(t, err)
	sameSnapshot(t, "outside", outBefore, snapshot(t, outside))
	sameSnapshot(t, "project", projBefore, snapshot(t, proj))
	emptyDir(t, tmp)
	if rep.Clone.SkippedLinks != 2 || !hasSkipped(rep.Clone, "out") || !hasSkipped(rep.Clone, "abs") {
		t.Errorf("links not reported as skipped: %+v", rep.Clone)
	}
	if strings.Contains(rep.Commands[0].Output, "precious") {
		t.Errorf("the copy reached the outside folder:\n%s", rep.Commands[0].Output)
	}
}

func TestVerifyNotVerified(t *testing.T) {
	proj := t.TempDir()
	writeTree(t, proj, map[string]string{"a.txt": "a", "b.txt": "b"})
	tests := []struct {
		name   string
		req    Request
		reason Reason
		is     error
	}{
		{name: "no command", req: Request{}, reason: ReasonNoCommand},
		{name: "blank commands", req: Request{Focused: "  ", Suite: []string{""}}, reason: ReasonNoCommand},
		{name: "too large", req: Request{Suite: []string{"true"}, Clone: CloneOptions{MaxFiles: 1}}, reason: ReasonTooLarge, is: ErrTooLarge},
		{name: "change names .git", req: Request{Suite: []string{"true"}, Changes: map[string]*[]byte{".git/config": bytesOf("x")}},
			reason: ReasonApplyFailed, is: ErrBadChange},
		{name: "command cannot start", req: Request{Suite: []string{"true"}, Runner: failingRunner{}}, reason: ReasonRunFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			req := tt.req
			req.Root, req.TempDir = proj, tmp
			if req.Runner == nil {
				req.Runner = groupRunner{}
			}
			rep, err := Verify(context.Background(), req)
			must(t, err)
			if rep.State != StateNotVerified || rep.Reason != tt.reason {
				t.Errorf("state %s %s (%s)", rep.State, rep.Reason, rep.Detail)
			}
			if tt.is != nil && !errors.Is(rep.Err, tt.is) {
				t.Errorf("Err = %v, want %v", rep.Err, tt.is)
			}
			emptyDir(t, tmp)
		})
	}
	t.Run("invalid requests", func(t *testing.T) {
		for _, req := range []Request{
			{Root: proj, Suite: []string{"true"}},
			{Runner: groupRunner{}, Suite: []string{"true"}},
			{Root: proj, Runner: groupRunner{}, Suite: []string{"true"}, TempDir: proj},
		} {
			if _, err := Verify(context.Background(), req); !errors.Is(err, ErrInvalidRequest) {
				t.Errorf("err = %v, want ErrInvalidRequest", err)
			}
		}
		if ents, _ := os.ReadDir(proj); len(ents) != 2 {
			t.Errorf("the project holds %d entries, want 2", len(ents))
		}
	})
}

type failingRunner struct{}

func (failingRunner) Run(context.Context, string, string, time.Duration) (CommandResult, error) {
	return CommandResult{}, errors.New("exec: \"sh\": executable file not found in $PATH")
}

// Without a TempDir the copies go where the file system clones files, else
// in os.TempDir(); never inside the project.
func TestScratchDir(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	proj := t.TempDir()
	writeTree(t, proj, map[string]string{"sub/a.txt": "hello", "empty": ""})
	root, err := os.OpenRoot(proj)
	must(t, err)
	defer root.Close()
	f, err := someFile(root)
	must(t, err)
	if fi, _ := f.Stat(); fi.Size() != 5 {
		t.Errorf("probe file has %d bytes, want the non-empty one", fi.Size())
	}
	f.Close()
	allowed := []string{os.TempDir(), filepath.Join(cache, "fixplan", "verify"), "/dev/shm"}
	if got := scratchDir(proj, 1<<40, nil); got != os.TempDir() {
		t.Errorf("a 1 TB project without a probe goes to %s, want %s", got, os.TempDir())
	}
	got := scratchDir(proj, 5, func() (*os.File, error) { return someFile(root) })
	t.Logf("scratch folder for a small project: %s", got)
	if !slices.Contains(allowed, got) || within(got, proj) {
		t.Errorf("scratch folder %s", got)
	}
	before := snapshot(t, proj)
	var ours []string // copies already there (other processes' verifications)
	for _, d := range allowed {
		m, _ := filepath.Glob(filepath.Join(d, "fixplan-verify-*"))
		ours = append(ours, m...)
	}
	rep, err := Verify(context.Background(), Request{Root: proj, Runner: groupRunner{}, Suite: []string{"cat sub/a.txt"}})
	must(t, err)
	if rep.State != StateVerified || !strings.Contains(rep.Commands[0].Output, "hello") {
		t.Errorf("state %s, output %q", rep.State, rep.Commands[0].Output)
	}
	if !slices.Contains(allowed, rep.Scratch) {
		t.Errorf("copies made in %s", rep.Scratch)
	}
	left, _ := filepath.Glob(filepath.Join(rep.Scratch, "fixplan-verify-*"))
	for _, l := range left {
		if !slices.Contains(ours, l) {
			t.Errorf("copy left behind: %s", l)
		}
	}

	sameSnapshot(t, "project", before, snapshot(t, proj))
}

// Plain shell commands: a time-out, and AlwaysBaseline showing that the focused
// check failed before the change.
func TestVerifyShell(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		state  State
		reason Reason
		check  func(t *testing.T, rep Report)
	}{
		{name: "focused check times out", req: Request{Focused: "sleep 20", Timeout: 500 * time.Millisecond},
			state: StateFailed, reason: ReasonFocusedFails,
			check: func(t *testing.T, rep Report) {
				if !rep.Commands[0].TimedOut {
					t.Error("not reported as timed out")
				}
			}},
		{name: "always baseline: the focused check failed before the change", req: Request{Focused: "grep -q fixed state", Suite: []string{"test -f state"},
			Changes: map[string]*[]byte{"state": bytesOf("fixed\n")}, AlwaysBaseline: true},
			state: StateVerified,
			check: func(t *testing.T, rep Report) {
				f := rep.Commands[0]
				if f.Baseline == nil || f.Baseline.Passed() || f.BaselineExitCode() != 1 {
					t.Errorf("focused baseline: %+v", f.Baseline)
				}
				if rep.Commands[1].Baseline == nil || !rep.Commands[1].Baseline.Passed() {
					t.Errorf("suite baseline: %+v", rep.Commands[1].Baseline)
				}
			}},
		{name: "a full disk is no verdict on the plan", req: Request{Focused: "echo 'write out.o: No space left on device' >&2; exit 1"},
			state: StateNotVerified, reason: ReasonNoSpace},
		{name: "deleted file", req: Request{Focused: "test ! -e state", Changes: map[string]*[]byte{"state": nil}}, state: StateVerified},
		{name: "new executable file", req: Request{Focused: "./fix.sh", Changes: map[string]*[]byte{"fix.sh": bytesOf("#!/bin/sh\nexit 0\n")},
			Modes: map[string]fs.FileMode{"fix.sh": 0o755}}, state: StateVerified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj, tmp := t.TempDir(), t.TempDir()
			writeTree(t, proj, map[string]string{"state": "bug\n"})
			before := snapshot(t, proj)
			req := tt.req
			req.Root, req.TempDir, req.Runner = proj, tmp, groupRunner{}
			var stages []Stage
			req.Progress = func(p Progress) { stages = append(stages, p.Stage) }
			rep, err := Verify(context.Background(), req)
			must(t, err)
			if rep.State != tt.state || rep.Reason != tt.reason {
				t.Fatalf("state %s %s (%s)", rep.State, rep.Reason, rep.Detail)
			}
			if tt.check != nil {
				tt.check(t, rep)
			}
			if stages[0] != StageScan || stages[len(stages)-1] != StageCleanup || !slices.Contains(stages, StageRun) {
				t.Errorf("stages %q", stages)
			}
			sameSnapshot(t, "project", before, snapshot(t, proj))
			emptyDir(t, tmp)
		})
	}
}
