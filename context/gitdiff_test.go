package codectx

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"fixplan/context/gitrepo"
	"fixplan/context/rules"
	"fixplan/plan"
	"fixplan/redact"
)

// diffGatherer opens root with git found on PATH (the tests' repositories are
// real ones made with git).
func diffGatherer(t *testing.T, root string, opts Options) *Gatherer {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git (apt-get install git)")
	}
	g := newGatherer(t, root, opts)
	g.lookPath = func(name string) (string, error) {
		if name == "git" {
			return exec.LookPath(name)
		}
		return "", exec.ErrNotFound
	}
	return g
}

// TestGitDiffInBase: the section comes after the failing-test windows and
// before the logs, and not at all when git is not found.
func TestGitDiffInBase(t *testing.T) {
	repo := t.TempDir()
	commit(t, repo, map[string]string{"calc.py": "def add(a, b):\n    return a + b\n"})
	writeTree(t, repo, map[string]string{"calc.py": "def add(a, b):\n    return a - b\n"})
	in := plan.ProblemInput{Problem: "  File \"calc.py\", line 2, in add\n", Logs: []plan.LogSource{{Source: "test", Text: "boom\n"}}}
	got, err := diffGatherer(t, repo, Options{}).Base(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, s := range got.Sections {
		titles = append(titles, s.Title)
	}
	at := func(prefix string) int {
		for i, s := range titles {
			if strings.HasPrefix(s, prefix) {
				return i
			}
		}
		return -1
	}
	if d, w, l := at(gitrepo.ChangesTitle), at("File calc.py"), at("Log test"); d < 0 || d < w || d > l {
		t.Errorf("sections %q: want the uncommitted changes after the code windows and before the logs", titles)
	}
	g := newGatherer(t, repo, Options{}) // git not found
	got, err = g.Base(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Sections {
		if strings.HasPrefix(s.Title, gitrepo.ChangesTitle) {
			t.Errorf("section sent without git: %q", s.Title)
		}
	}
}

// BenchmarkRulesAndDiff measures what the two sections add to a base context:
// a repository of 500 files with 20 changed, a root and a nested AGENTS.md, a
// .cursorrules and a .clinerules folder of 3 files.
func BenchmarkRulesAndDiff(b *testing.B) {
	repo := b.TempDir()
	files := map[string]string{
		"AGENTS.md": strings.Repeat("Run make test; keep functions short.\n", 40), "svc/AGENTS.md": "svc: errors wrap with %w\n",
		".cursorrules": "prefer table tests\n", ".clinerules/1.md": "a\n", ".clinerules/2.md": "b\n", ".clinerules/3.md": "c\n",
	}
	for i := range 500 {
		files[fmt.Sprintf("svc/pkg%02d/f%03d.go", i%25, i)] = strings.Repeat(fmt.Sprintf("// line of file %d\n", i), 60)
	}
	tb := &testing.T{}
	writeTree(tb, repo, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "init"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-C", repo}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for i := 0; i < 500; i += 25 {
		p := fmt.Sprintf("svc/pkg%02d/f%03d.go", i%25, i)
		files[p] = strings.Replace(files[p], "line of file", "changed line of file", 3)
		writeTree(tb, repo, map[string]string{p: files[p]})
	}
	g, err := New(repo, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	g.lookPath = func(name string) (string, error) { return exec.LookPath(name) }
	inPlay := []string{"svc/pkg00/f000.go"}
	redact.Text("") // gitleaks' rules are built once per process, not per plan
	b.Run("rules", func(b *testing.B) {
		for b.Loop() {
			if _, ok := rules.Section(g.files, inPlay, g.opts.MaxTotalBytes); !ok {
				b.Fatal("no rules")
			}
		}
	})
	b.Run("diff", func(b *testing.B) {
		for b.Loop() {
			if _, ok := g.gitDiffSection(context.Background(), inPlay); !ok {
				b.Fatal("no diff")
			}
		}
	})
}
