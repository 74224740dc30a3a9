//go:build unix

package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/context/gitrepo"
	"fixplan/plan"
)

// outsideRepo is a repository outside the project holding a secret line, and
// the hash of its commit.
func outsideRepo(t *testing.T) (dir, head string) {
	t.Helper()
	dir = t.TempDir()
	commit(t, dir, map[string]string{"secret.txt": "OUTSIDE-SECRET-LINE\n"})
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return dir, strings.TrimSpace(string(out))
}

// borrowOutside makes the project's HEAD the outside commit and its index that
// commit's tree (the review's `update-ref` + `reset`), so a plain `git diff
// HEAD` in the project shows the outside secret as deleted.
func borrowOutside(t *testing.T, root, head string) {
	t.Helper()
	git(t, root, "update-ref", "HEAD", head)
	git(t, root, "reset", "-q")
	out, err := exec.Command("git", "-C", root, "diff", "HEAD").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "OUTSIDE-SECRET-LINE") {
		t.Fatalf("the fixture is not real: plain git diff HEAD does not show the outside secret: %v\n%s", err, out)
	}
}

// TestGitObjectsFromOutside: a repository whose git folder makes git read
// objects of another repository — an objects/info/alternates file, a
// .git/objects symlink, symlinked loose objects, the same in a repository above
// the opened folder — shows nothing of it (no changes section, no status) and
// a warning says why. A plain `git diff HEAD` shows the outside secret in each
// fixture.
func TestGitObjectsFromOutside(t *testing.T) {
	for name, setup := range map[string]func(t *testing.T, root, outside, head string) (open string){
		"alternates": func(t *testing.T, root, outside, head string) string {
			git(t, root, "init", "-q")
			writeTree(t, root, map[string]string{".git/objects/info/alternates": filepath.Join(outside, ".git", "objects") + "\n"})
			borrowOutside(t, root, head)
			return root
		},
		"http-alternates": func(t *testing.T, root, outside, head string) string {
			git(t, root, "init", "-q")
			writeTree(t, root, map[string]string{".git/objects/info/alternates": filepath.Join(outside, ".git", "objects") + "\n"})
			borrowOutside(t, root, head)
			// only http-alternates is left (git does not read it for a local
			// repository, but it names another store: refused all the same)
			if err := os.Rename(filepath.Join(root, ".git/objects/info/alternates"), filepath.Join(root, ".git/objects/info/http-alternates")); err != nil {
				t.Fatal(err)
			}
			return root
		},
		"objects symlinked out": func(t *testing.T, root, outside, head string) string {
			git(t, root, "init", "-q")
			objects := filepath.Join(root, ".git", "objects")
			if err := os.RemoveAll(objects); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, ".git", "objects"), objects); err != nil {
				t.Fatal(err)
			}
			borrowOutside(t, root, head)
			return root
		},
		"loose objects symlinked out": func(t *testing.T, root, outside, head string) string {
			git(t, root, "init", "-q")
			loose, err := filepath.Glob(filepath.Join(outside, ".git", "objects", "??", "*"))
			if err != nil || len(loose) == 0 {
				t.Fatalf("no loose objects in the outside repository: %v", err)
			}
			for _, o := range loose {
				dir := filepath.Join(root, ".git", "objects", filepath.Base(filepath.Dir(o)))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(o, filepath.Join(dir, filepath.Base(o))); err != nil {
					t.Fatal(err)
				}
			}
			borrowOutside(t, root, head)
			return root
		},
		"a repository above the opened folder with alternates": func(t *testing.T, root, outside, head string) string {
			git(t, root, "init", "-q")
			writeTree(t, root, map[string]string{".git/objects/info/alternates": filepath.Join(outside, ".git", "objects") + "\n", "sub/s.txt": "s\n"})
			borrowOutside(t, root, head)
			return filepath.Join(root, "sub")
		},
	} {
		t.Run(name, func(t *testing.T) {
			outside, head := outsideRepo(t)
			root := filepath.Join(t.TempDir(), "proj")
			writeTree(t, root, map[string]string{"mine.txt": "mine\n"})
			open := setup(t, root, outside, head)
			g := diffGatherer(t, open, Options{})
			got, err := g.Base(context.Background(), plan.ProblemInput{Problem: "it fails"})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range got.Sections {
				if strings.Contains(s.Body, "OUTSIDE-SECRET") || strings.Contains(s.Body, "secret.txt") || strings.HasPrefix(s.Title, gitrepo.ChangesTitle) || strings.HasPrefix(s.Title, "Last commit") {
					t.Errorf("section %q shows the outside repository:\n%s", s.Title, s.Body)
				}
			}
			warned := false
			for _, w := range got.Warnings {
				warned = warned || strings.HasPrefix(w, "git sections left out: its git folder")
			}
			if !warned {
				t.Errorf("no warning says why git was not used: %q", got.Warnings)
			}
			if tracked, why := g.git.Tracks("secret.txt"); tracked || !strings.Contains(why, "its git folder") {
				t.Errorf("gitTracks asked git: %v %q", tracked, why)
			}
		})
	}
}

// TestGitAlternatesFromTheEnvironment: GIT_ALTERNATE_OBJECT_DIRECTORIES (or
// GIT_OBJECT_DIRECTORY) in fixplan's environment does not reach git: a project
// whose HEAD names an outside commit shows nothing of it.
func TestGitAlternatesFromTheEnvironment(t *testing.T) {
	outside, head := outsideRepo(t)
	root := filepath.Join(t.TempDir(), "proj")
	writeTree(t, root, map[string]string{"mine.txt": "mine\n"})
	git(t, root, "init", "-q")
	t.Setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", filepath.Join(outside, ".git", "objects"))
	borrowOutside(t, root, head)
	g := diffGatherer(t, root, Options{})
	got, err := g.Base(context.Background(), plan.ProblemInput{Problem: "it fails"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Sections {
		if strings.Contains(s.Body, "OUTSIDE-SECRET") || strings.Contains(s.Body, "secret.txt") {
			t.Errorf("section %q shows the outside repository:\n%s", s.Title, s.Body)
		}
	}
}

// TestGitLinksInsideTheProjectAreUsed: a .git/hooks symlink to a folder of the
// project (a common setup) and an empty alternates file do not stop git.
func TestGitLinksInsideTheProjectAreUsed(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	commit(t, root, map[string]string{"a.txt": "OLD-LINE\n", "githooks/pre-commit": "#!/bin/sh\n"})
	hooks := filepath.Join(root, ".git", "hooks")
	if err := os.RemoveAll(hooks); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "githooks"), hooks); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{".git/objects/info/alternates": "", "a.txt": "NEW-LINE\n"})
	g := diffGatherer(t, root, Options{})
	got, err := g.Base(context.Background(), plan.ProblemInput{Problem: "it fails"})
	if err != nil {
		t.Fatal(err)
	}
	shown := false
	for _, s := range got.Sections {
		shown = shown || strings.HasPrefix(s.Title, gitrepo.ChangesTitle) && strings.Contains(s.Body, "+NEW-LINE")
	}
	if !shown {
		t.Errorf("the project's own changes are not shown; warnings %q", got.Warnings)
	}
	for _, w := range got.Warnings {
		if strings.HasPrefix(w, "git sections left out") {
			t.Errorf("warning %q", w)
		}
	}
}
