package codectx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// baseFixture is a small Python project with a configured log, project prefs and
// a log attached from outside the root.
func baseFixture(t *testing.T) (root, attached string) {
	t.Helper()
	root = t.TempDir()
	var calc strings.Builder
	for i := 1; i <= 200; i++ {
		switch i {
		case 1:
			calc.WriteString("def add(a, b):\n")
		case 100:
			calc.WriteString("    return a - b  # line 100\n")
		default:
			fmt.Fprintf(&calc, "    x%d = %d\n", i, i)
		}
	}
	writeTree(t, root, map[string]string{
		"app/calc.py":     calc.String(),
		"app/settings.py": "password = 'hunter22'\n",
		"venv/lib/python3.11/site-packages/pluggy/hooks.py": "a\nb\nc\n",
		"tests/test_calc.py":    "from app.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
		"logs/app.log":          "boot\n  File \"/srv/proj/app/calc.py\", line 150, in add\nValueError\n",
		".fixplan/project.json": `{"project.default_test_command": "pytest -q", "project.log_paths": {"runtime": "logs/app.log"}}`,
	})
	attached = filepath.Join(t.TempDir(), "ci-output.txt")
	if err := os.WriteFile(attached, []byte("line1\nline2\ntoken=zzz999yyy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, attached
}

const baseProblem = `pytest fails:
Traceback (most recent call last):
  File "/home/alice/proj/tests/test_calc.py", line 5, in test_add
  File "/home/alice/proj/app/calc.py", line 100, in add
  File "/home/alice/proj/app/calc.py", line 105, in add
  File "/usr/lib/python3.11/site-packages/_pytest/python.py", line 1, in x
  File "venv/lib/python3.11/site-packages/pluggy/hooks.py", line 3, in call
FAILED tests/test_calc.py::test_add - assert -1 == 5
`

func TestBase(t *testing.T) {
	root, attached := baseFixture(t)
	g := newGatherer(t, root, Options{WindowLines: 10})
	in := plan.ProblemInput{Problem: baseProblem, Logs: []plan.LogSource{
		{Source: "verification", Text: "ran pytest -q\npassword=hunter22\n"},
		{Source: "test", Path: attached},
	}}
	got, err := g.Base(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	all := ""
	for _, s := range got.Sections {
		titles = append(titles, s.Title)
		all += s.Title + "\n" + s.Body
	}
	wantTitles := []string{
		"Environment",
		"Project preferences",
		"Stack frames",
		"File tests/test_calc.py lines 1-5 of 5 (around the stack frames)",
		"File app/calc.py lines 90-115, 140-160 of 200 (around the stack frames)",
		"File app/calc.py lines 1-200 of 200 (module under test of tests/test_calc.py)",
		"Log verification (captured output, last 2 of 2 lines)",
		"Log test (attached log ci-output.txt, last 3 of 3 lines)",
		"Log runtime (configured log logs/app.log, last 3 of 3 lines)",
		"Recent files",
		"File venv/lib/python3.11/site-packages/pluggy/hooks.py lines 1-3 of 3 (around the stack frames)",
	}
	if strings.Join(titles, "\n") != strings.Join(wantTitles, "\n") {
		t.Errorf("sections:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(wantTitles, "\n"))
	}
	for _, want := range []string{
		"project.default_test_command: pytest -q",
		"/home/alice/proj/app/calc.py:100 → app/calc.py",
		"/usr/lib/python3.11/site-packages/_pytest/python.py:1 (library)",
		"/srv/proj/app/calc.py:150 → app/calc.py", // frames from the configured log too
		"100 |     return a - b  # line 100\n",
		" 90 |     x90 = 90\n",
		"115 |     x115 = 115\n…\n140 |     x140 = 140\n",
		"password=[REDACTED]",
		"token=[REDACTED]",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("base context lacks %q", want)
		}
	}
	if strings.Contains(all, "hunter22") || strings.Contains(all, "zzz999yyy") {
		t.Error("a secret value reached the base context")
	}
	if got.Redactions != 2 {
		t.Errorf("Redactions = %d, want 2", got.Redactions)
	}
	wantSeen := []plan.SeenFile{{Path: "tests/test_calc.py", Whole: true}, {Path: "app/calc.py", Whole: true},
		{Path: "venv/lib/python3.11/site-packages/pluggy/hooks.py", Whole: true}}
	if fmt.Sprint(got.Seen) != fmt.Sprint(wantSeen) {
		t.Errorf("Seen = %+v, want %+v", got.Seen, wantSeen)
	}
}

func TestBaseBudget(t *testing.T) {
	root, _ := baseFixture(t)
	g := newGatherer(t, root, Options{WindowLines: 80, MaxResultBytes: 1500, MaxTotalBytes: 2600})
	got, err := g.Base(context.Background(), plan.ProblemInput{Problem: baseProblem})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	truncated := false
	for _, s := range got.Sections {
		total += len(s.Title) + len(s.Body)
		if len(s.Body) > 1500 {
			t.Errorf("section %q has %d bytes, over the per-result cap", s.Title, len(s.Body))
		}
		if strings.Contains(s.Body, "…[truncated ") {
			truncated = true
		}
	}
	if total > 2600 {
		t.Errorf("base context has %d bytes, over the total cap", total)
	}
	if !truncated {
		t.Error("no section marked as truncated")
	}
	left := false
	for _, w := range got.Warnings {
		left = left || strings.Contains(w, "left out")
	}
	if !left {
		t.Errorf("no warning about sections left out: %v", got.Warnings)
	}
	for _, s := range got.Seen {
		if s.Path == "app/calc.py" && s.Whole {
			t.Errorf("%s marked whole although truncated", s.Path)
		}
	}
}

func TestBaseWarnsOnUnreadableLogs(t *testing.T) {
	root, _ := baseFixture(t)
	g := newGatherer(t, root, Options{})
	got, err := g.Base(context.Background(), plan.ProblemInput{Problem: "it broke", Logs: []plan.LogSource{
		{Source: "build", Path: "../outside.log"},
		{Source: "gone", Path: filepath.Join(t.TempDir(), "missing.log")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 2 || !strings.Contains(got.Warnings[0], "outside the project root") || !strings.Contains(got.Warnings[1], "no such file") {
		t.Errorf("warnings = %q", got.Warnings)
	}
}

func TestBaseCancelled(t *testing.T) {
	root, _ := baseFixture(t)
	g := newGatherer(t, root, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Base(ctx, plan.ProblemInput{Problem: baseProblem}); err == nil {
		t.Error("Base with a cancelled context succeeded")
	}
}

func TestWindows(t *testing.T) {
	tests := []struct {
		name    string
		centers []int
		n, tot  int
		want    string
	}{
		{"one", []int{50}, 10, 100, "[{40 60}]"},
		{"clamped", []int{3, 98}, 10, 100, "[{1 13} {88 100}]"},
		{"overlap merged", []int{50, 60}, 10, 100, "[{40 70}]"},
		{"touching merged", []int{10, 31}, 10, 100, "[{1 41}]"},
		{"out of file ignored", []int{0, 500}, 10, 100, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fmt.Sprint(windows(tt.centers, tt.n, tt.tot))
			if tt.want == "[]" && got == "[]" {
				return
			}
			if got != tt.want {
				t.Errorf("windows = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestBaseGoTest gathers the context of a `go test` failure: the failing line's
// window (the bare file name settled by the package path), the test's definition
// and the module under test.
func TestBaseGoTest(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":             "module github.com/acme/proj\n",
		"calc/calc.go":       "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n",
		"calc/calc_test.go":  "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Errorf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
		"other/calc_test.go": "package other\n",
	})
	g := newGatherer(t, root, Options{})
	got, err := g.Base(context.Background(), plan.ProblemInput{Problem: "--- FAIL: TestAdd (0.00s)\n    calc_test.go:7: Add(2, 3) = -1, want 5\nFAIL\nFAIL\tgithub.com/acme/proj/calc\t0.003s\n"})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, s := range got.Sections {
		titles = append(titles, s.Title)
	}
	want := []string{
		"Environment",
		"Stack frames",
		"File calc/calc_test.go lines 1-9 of 9 (around the stack frames)",
		"File calc/calc.go lines 1-4 of 4 (module under test of calc/calc_test.go)",
		"Recent files",
	}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(want, "\n"))
	}
}

// TestBaseGoPackageFolder: go test prints a test file's name relative to its
// package's folder; when the root has a file of the same name, the base context
// shows the package's file and its failing test, not the root's (frames tests
// the resolution itself).
func TestBaseGoPackageFolder(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                "module example.com/lru/v2\n\ngo 1.22\n",
		"lru_test.go":           "package lru\n\nimport \"testing\"\n\nfunc TestLRU(t *testing.T) {\n\tt.Log(\"root\")\n}\n",
		"simplelru/lru_test.go": "package simplelru\n\nimport \"testing\"\n\nfunc TestLRU(t *testing.T) {\n\tt.Log(\"simple\")\n}\n",
	})
	g := newGatherer(t, root, Options{})
	for _, problem := range []string{
		"--- FAIL: TestLRU (0.00s)\n    lru_test.go:6: bad key: 128\nFAIL\nFAIL\texample.com/lru/v2/simplelru\t0.010s\nFAIL\n",
		"--- FAIL: TestLRU (0.00s)\nFAIL\nFAIL\texample.com/lru/v2/simplelru\t0.010s\n", // no line named: the test's definition
	} {
		res, err := g.Base(context.Background(), plan.ProblemInput{Problem: problem})
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, s := range res.Sections {
			titles = append(titles, s.Title)
		}
		all := strings.Join(titles, "\n")
		if !strings.Contains(all, "File simplelru/lru_test.go lines 1-7 of 7") || strings.Contains(all, "File lru_test.go") {
			t.Errorf("the base context shows the root's TestLRU or misses simplelru's:\n%s", all)
		}
	}
}
