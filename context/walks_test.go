package codectx

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"fixplan/plan"
)

// TestBaseWalksTheTreeOnce: one base context lists the project's files once,
// however many of its readers need the listing — the frames' index (a frame
// from another machine resolved by its path's end), the failing test's
// definition, the message search, the project-wide name search and, without
// git, the recent files by their times — and each of them still finds what it
// finds.
func TestBaseWalksTheTreeOnce(t *testing.T) {
	files := map[string]string{
		"lib/checks.py":        "def check_total(total):\n    if total < 0:\n        raise ValueError(\"total must be positive, got a negative\")\n    return total\n",
		"lib/reports.py":       "def make_report(rows):\n    return sum(rows)\n",
		"tests/test_report.py": "from helpers import rows\n\n\ndef test_report():\n    assert make_report(rows()) == 3\n",
	}
	problem := "Traceback (most recent call last):\n" +
		"  File \"/ci/build/proj/tests/test_report.py\", line 5, in test_report\n" +
		"    assert make_report(rows()) == 3\n" +
		"ValueError: \"total must be positive, got a negative\"\n" +
		"FAILED tests/test_report.py::test_report - ValueError\n"
	for _, repo := range []string{"none", "git", "not run"} {
		name := map[string]string{"none": "no git: recent files by their times", "git": "git status",
			"not run": "a repository whose config names a program: recent files by their times"}[repo]
		withGit := repo == "git"
		t.Run(name, func(t *testing.T) {
			if _, err := exec.LookPath("git"); err != nil && repo != "none" {
				t.Fatal("git is needed for this test: install git (apt-get install git)")
			}
			root := t.TempDir()
			if repo == "none" {
				writeTree(t, root, files)
			} else {
				commit(t, root, files)
				writeTree(t, root, map[string]string{"lib/new.py": "x = 1\n"})
			}
			if repo == "not run" {
				git(t, root, "config", "core.fsmonitor", "true")
			}
			g := newGatherer(t, root, Options{})
			if repo != "none" {
				g.lookPath = exec.LookPath
			}
			before := g.files.Walks()
			got, err := g.Base(context.Background(), plan.ProblemInput{Problem: problem})
			if err != nil {
				t.Fatal(err)
			}
			if walks := g.files.Walks() - before; walks != 1 {
				t.Errorf("one base context walked the tree %d times", walks)
			}
			for _, parts := range [][]string{
				{"Stack frames"},
				{"File lib/checks.py", "definition of check_total", `writes "total must be positive`},
				{"File lib/reports.py", "definition of make_report"},
				{"Recent files"},
			} {
				if _, ok := findSection(got, parts...); !ok {
					t.Errorf("no section %q:\n%s", parts, titles(got))
				}
			}
			for _, w := range got.Warnings {
				if strings.Contains(w, "failing test test_report") {
					t.Errorf("the failing test's definition was not found: %s", w)
				}
			}
			recent, _ := findSection(got, "Recent files")
			frames, _ := findSection(got, "Stack frames")
			want := "most recently modified:\n"
			if repo == "not run" {
				want = "git status skipped: the repository's own config names programs (core.fsmonitor); fixplan runs nothing a project chooses\n" + want
			}
			if withGit {
				want = "git status --porcelain:\n?? lib/new.py\n"
			}
			if !strings.HasPrefix(recent.Body, want) || !strings.Contains(frames.Body, "→ tests/test_report.py") {
				t.Errorf("recent files:\n%s\nframes:\n%s", recent.Body, frames.Body)
			}
		})
	}
}
