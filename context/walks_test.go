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

// TestPlanSearchesUseTheBaseListing: the model's search requests in a plan look
// through the listing its base context made — no walk of the tree of their own
// — and still find what is there, read as it is now (a file changed since the
// base context shows its new line); a search for another problem's plan, or
// before any base context, walks the tree afresh.
func TestPlanSearchesUseTheBaseListing(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"lib/a.py": "def a():\n    return 'needle one'\n",
		"lib/b.py": "def b():\n    return 2\n",
	})
	g := newGatherer(t, root, Options{})
	in := plan.ProblemInput{Problem: "AssertionError: a() returned the wrong needle"}
	query := "needle"
	search := func(in plan.ProblemInput) plan.ContextResult {
		return g.Fulfil(context.Background(), in, plan.ContextRequest{Type: plan.ReqSearch, Query: &query})
	}

	before := g.files.Walks()
	if r := search(in); !r.OK || !strings.Contains(r.Text, "lib/a.py:2:") {
		t.Fatalf("search before any base context: %+v", r)
	}
	if w := g.files.Walks() - before; w != 1 {
		t.Errorf("a search with no base context walked the tree %d times, want 1", w)
	}

	if _, err := g.Base(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"lib/b.py": "def b():\n    return 'needle two'\n"})
	before = g.files.Walks()
	for i := 0; i < 2; i++ {
		r := search(in)
		if !r.OK || !strings.Contains(r.Text, "lib/a.py:2:") || !strings.Contains(r.Text, "lib/b.py:2:") {
			t.Fatalf("search %d of the plan: %+v", i+1, r)
		}
	}
	if w := g.files.Walks() - before; w != 0 {
		t.Errorf("the plan's two searches walked the tree %d times, want 0 (the base context's listing)", w)
	}

	other := plan.ProblemInput{Problem: "another failure"}
	if r := search(other); !r.OK {
		t.Fatalf("search for another input: %+v", r)
	}
	if w := g.files.Walks() - before; w != 1 {
		t.Errorf("a search for another problem walked the tree %d times, want 1 (its own walk)", w)
	}
}
