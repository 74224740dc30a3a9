//go:build unix

package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fixplan/context/gitrepo"
	"fixplan/plan"
)

// gitFixture is a project made for one test: root is the folder opened, outside
// a folder beside it (a place a .git file can point to), marker the file the
// project's programs create when they run.
type gitFixture struct {
	root, outside, marker string
}

func newGitFixture(t *testing.T) gitFixture {
	t.Helper()
	outside := t.TempDir()
	return gitFixture{root: filepath.Join(t.TempDir(), "proj"), outside: outside, marker: filepath.Join(outside, "ran")}
}

// setConfig sets key in the config file without running anything
// (`git config --file` only writes the file).
func setConfig(t *testing.T, file, key, value string) {
	t.Helper()
	if out, err := exec.Command("git", "config", "--file", file, key, value).CombinedOutput(); err != nil {
		t.Fatalf("git config %s: %v\n%s", key, err, out)
	}
}

// evil writes a script in the project that creates the marker and passes its
// input through (so it also works as a clean filter), and returns its path.
func (f gitFixture) evil(t *testing.T) string {
	t.Helper()
	writeScripts(t, f.root, map[string]string{"tools/evil.sh": "touch '" + f.marker + "'\ncat\n"})
	return filepath.Join(f.root, "tools", "evil.sh")
}

// gatherRecent runs the base context on root with git found the default way
// (no other tool) and returns the "Recent files" section.
func gatherRecent(t *testing.T, root string) string {
	t.Helper()
	g := newGatherer(t, root, Options{})
	g.lookPath = func(name string) (string, error) {
		if name == "git" {
			return g.env.LookTool(name)
		}
		return "", exec.ErrNotFound
	}
	got, err := g.Base(context.Background(), plan.ProblemInput{Problem: "it fails"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Sections {
		if s.Title == "Recent files" {
			return s.Body
		}
	}
	t.Fatalf("no Recent files section in %+v", got.Sections)
	return ""
}

// TestGitRunsNothingTheProjectChooses opens projects whose repository config
// makes git run a program of the project. A plain `git status` run by the test
// shows the program does run (the fixture is real); gathering must not run it,
// and must say in the recent-files section that git status was skipped and why.
func TestGitRunsNothingTheProjectChooses(t *testing.T) {
	tests := []struct {
		name string
		// setup makes the hostile repository and returns the folder to open
		setup func(t *testing.T, f gitFixture) string
		keys  string
		// refused is the note when the repository is not used at all
		refused string
	}{
		{name: "core.fsmonitor", keys: "core.fsmonitor", setup: func(t *testing.T, f gitFixture) string {
			commit(t, f.root, map[string]string{"a.go": "package a\n"})
			setConfig(t, filepath.Join(f.root, ".git", "config"), "core.fsmonitor", f.evil(t))
			return f.root
		}},
		{name: "a clean filter for every file", keys: "filter.*.clean", setup: func(t *testing.T, f gitFixture) string {
			commit(t, f.root, map[string]string{"a.go": "package a\n", ".gitattributes": "* filter=x\n"})
			setConfig(t, filepath.Join(f.root, ".git", "config"), "filter.x.clean", f.evil(t))
			touch(t, filepath.Join(f.root, "a.go")) // same content, new time: status must read it through the filter
			return f.root
		}},
		{name: "a .git file pointing at a repository outside the project", refused: outsideNote, setup: func(t *testing.T, f gitFixture) string {
			commit(t, f.root, map[string]string{"a.go": "package a\n"})
			gitDir := filepath.Join(f.outside, "real.git")
			if err := os.Rename(filepath.Join(f.root, ".git"), gitDir); err != nil {
				t.Fatal(err)
			}
			writeTree(t, f.root, map[string]string{".git": "gitdir: " + gitDir + "\n"})
			setConfig(t, filepath.Join(gitDir, "config"), "core.fsmonitor", f.evil(t))
			return f.root
		}},
		{name: "a linked worktree whose main repository's config names a program", refused: outsideNote, setup: func(t *testing.T, f gitFixture) string {
			main := filepath.Join(f.outside, "main")
			commit(t, main, map[string]string{"a.go": "package a\n"})
			git(t, main, "worktree", "add", "-q", "-b", "wt", f.root)
			setConfig(t, filepath.Join(main, ".git", "config"), "core.fsmonitor", f.evil(t))
			return f.root
		}},
		{name: "config.worktree", keys: "core.fsmonitor", setup: func(t *testing.T, f gitFixture) string {
			commit(t, f.root, map[string]string{"a.go": "package a\n"})
			setConfig(t, filepath.Join(f.root, ".git", "config"), "extensions.worktreeConfig", "true")
			setConfig(t, filepath.Join(f.root, ".git", "config.worktree"), "core.fsmonitor", f.evil(t))
			return f.root
		}},
		{name: "include.path", keys: "include.path", setup: func(t *testing.T, f gitFixture) string {
			commit(t, f.root, map[string]string{"a.go": "package a\n"})
			inc := filepath.Join(f.outside, "more.config")
			setConfig(t, inc, "core.fsmonitor", f.evil(t))
			setConfig(t, filepath.Join(f.root, ".git", "config"), "include.path", inc)
			return f.root
		}},
		{name: "a folder inside a hostile repository", keys: "core.fsmonitor", setup: func(t *testing.T, f gitFixture) string {
			commit(t, f.root, map[string]string{"sub/a.go": "package a\n"})
			setConfig(t, filepath.Join(f.root, ".git", "config"), "core.fsmonitor", f.evil(t))
			return filepath.Join(f.root, "sub")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newGitFixture(t)
			open := tt.setup(t, f)
			os.Remove(f.marker) // made while committing, for the filter

			control := exec.Command("git", "-C", open, "--no-optional-locks", "status", "--porcelain")
			if out, err := control.CombinedOutput(); err != nil {
				t.Fatalf("plain git status: %v\n%s", err, out)
			}
			if _, err := os.Stat(f.marker); err != nil {
				t.Fatalf("the fixture is not hostile: plain git status did not run the project's program")
			}
			if err := os.Remove(f.marker); err != nil {
				t.Fatal(err)
			}

			got := gatherRecent(t, open)
			if _, err := os.Stat(f.marker); err == nil {
				t.Errorf("gathering ran the project's program")
			}
			want := "git status skipped: the repository's own config names programs (" + tt.keys + "); fixplan runs nothing a project chooses\n"
			if tt.refused != "" {
				want = tt.refused
			}
			if !strings.HasPrefix(got, want) || !strings.Contains(got, "most recently modified:\n") {
				t.Errorf("Recent files =\n%s\nwant it to start with\n%s\nand list the newest files", got, want)
			}
		})
	}
}

// TestGitConfigThatCannotBeChecked: a repository config that is a FIFO (which
// would block a reader) is not read and git is not run.
func TestGitConfigThatCannotBeChecked(t *testing.T) {
	f := newGitFixture(t)
	commit(t, f.root, map[string]string{"a.go": "package a\n"})
	cfg := filepath.Join(f.root, ".git", "config")
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	got := gatherRecent(t, f.root)
	want := "git status skipped: the repository's own config could not be checked (its config file is not a regular file); fixplan runs nothing a project chooses\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("Recent files =\n%s\nwant it to start with\n%s", got, want)
	}
}

// TestGitStatusOfOrdinaryRepositories: repositories whose config names no
// program still report their uncommitted changes — in a linked worktree too,
// with GIT_DIR and GIT_INDEX_FILE of another repository in the environment, and
// without running the user's own core.fsmonitor (which fixplan turns off; a
// plain git status shows it would run).
func TestGitStatusOfOrdinaryRepositories(t *testing.T) {
	f := newGitFixture(t)
	commit(t, f.root, map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	writeTree(t, f.root, map[string]string{"a.go": "package a // changed\n", "new.go": "package a\n"})
	if err := os.Remove(filepath.Join(f.root, "b.go")); err != nil {
		t.Fatal(err)
	}
	const want = "git status --porcelain:\n M a.go\n D b.go\n?? new.go\n"

	t.Run("repository", func(t *testing.T) {
		if got := gatherRecent(t, f.root); got != want {
			t.Errorf("Recent files =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("linked worktree", func(t *testing.T) {
		// its .git file points outside the project: refused (safety first,
		// SECURITY.md); a folder inside the worktree is the user's own layout
		wt := filepath.Join(t.TempDir(), "wt")
		git(t, f.root, "worktree", "add", "-q", "-b", "wt", wt)
		writeTree(t, wt, map[string]string{"a.go": "package a // changed in wt\n", "sub/c.go": "package sub\n"})
		if got := gatherRecent(t, wt); !strings.HasPrefix(got, outsideNote) {
			t.Errorf("Recent files =\n%s\nwant it to start with\n%s", got, outsideNote)
		}
		git(t, wt, "add", "sub/c.go")
		git(t, wt, "commit", "-qm", "sub")
		writeTree(t, wt, map[string]string{"sub/c.go": "package sub // changed\n"})
		if got, want := gatherRecent(t, filepath.Join(wt, "sub")), "git status --porcelain:\n M c.go\n"; got != want {
			t.Errorf("a folder inside the worktree: Recent files =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("another repository in the environment", func(t *testing.T) {
		other := t.TempDir()
		commit(t, other, map[string]string{"x.go": "package x\n"})
		t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
		t.Setenv("GIT_INDEX_FILE", filepath.Join(other, ".git", "index"))
		if got := gatherRecent(t, f.root); got != want {
			t.Errorf("Recent files =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("the user's own fsmonitor is off", func(t *testing.T) {
		global := filepath.Join(f.outside, "global.config")
		writeScripts(t, f.outside, map[string]string{"monitor.sh": "touch '" + f.marker + "'\n"})
		setConfig(t, global, "core.fsmonitor", filepath.Join(f.outside, "monitor.sh"))
		t.Setenv("GIT_CONFIG_GLOBAL", global)
		if out, err := exec.Command("git", "-C", f.root, "--no-optional-locks", "status", "--porcelain").CombinedOutput(); err != nil {
			t.Fatalf("plain git status: %v\n%s", err, out)
		}
		if err := os.Remove(f.marker); err != nil {
			t.Fatalf("plain git status did not run the user's fsmonitor: %v", err)
		}
		if got := gatherRecent(t, f.root); got != want {
			t.Errorf("Recent files =\n%s\nwant\n%s", got, want)
		}
		if _, err := os.Stat(f.marker); err == nil {
			t.Errorf("gathering ran core.fsmonitor")
		}
	})
}

// outsideNote starts the Recent files section of a project whose .git file
// points outside it.
const outsideNote = "git status skipped: the project's .git file points to a repository outside the project (a linked worktree or a submodule is refused too); fixplan reads no repository outside the project\n"

// TestGitRepositoryOutsideTheProject: a project whose .git file points at
// another repository, or whose .git is a symlink to one, shows nothing of it —
// no changes section, no git status, no file names — and says why in a
// warning; a project that is a folder inside a repository still uses it.
func TestGitRepositoryOutsideTheProject(t *testing.T) {
	victim := t.TempDir()
	commit(t, victim, map[string]string{"victim.txt": "VICTIM-COMMITTED\n"})
	writeTree(t, victim, map[string]string{"victim.txt": "VICTIM-UNCOMMITTED\n", "victim-new.txt": "x\n"})
	in := plan.ProblemInput{Problem: "it fails"}
	for name, setup := range map[string]func(root string){
		"gitdir file": func(root string) {
			writeTree(t, root, map[string]string{".git": "gitdir: ../victim/.git\n"})
		},
		"absolute gitdir file": func(root string) {
			writeTree(t, root, map[string]string{".git": "gitdir: " + filepath.Join(victim, ".git") + "\n"})
		},
		"symlink": func(root string) {
			if err := os.Symlink(filepath.Join(victim, ".git"), filepath.Join(root, ".git")); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			parent := t.TempDir()
			if err := os.Symlink(victim, filepath.Join(parent, "victim")); err != nil {
				t.Fatal(err)
			}
			root := filepath.Join(parent, "proj")
			writeTree(t, root, map[string]string{"victim.txt": "mine\n"})
			setup(root)
			g := diffGatherer(t, root, Options{})
			got, err := g.Base(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range got.Sections {
				if strings.Contains(s.Body, "VICTIM") || strings.Contains(s.Body, "victim-new.txt") || strings.HasPrefix(s.Title, gitrepo.ChangesTitle) || strings.HasPrefix(s.Title, "Last commit") {
					t.Errorf("section %q shows the other repository:\n%s", s.Title, s.Body)
				}
			}
			warned := false
			for _, w := range got.Warnings {
				warned = warned || strings.Contains(w, "git sections left out: the project's .git")
			}
			if !warned {
				t.Errorf("no warning says why git was not used: %q", got.Warnings)
			}
			if tracked, why := g.git.Tracks("victim.txt"); tracked || !strings.Contains(why, "outside the project") && !strings.Contains(why, "symbolic link") {
				t.Errorf("gitTracks asked the other repository: %v %q", tracked, why)
			}
		})
	}
	// a folder inside a repository: the .git above the root is the user's own
	sub := filepath.Join(victim, "sub")
	writeTree(t, sub, map[string]string{"s.txt": "s\n"})
	if got := gatherRecent(t, sub); !strings.HasPrefix(got, "git status --porcelain:\n") {
		t.Errorf("a folder inside a repository: Recent files =\n%s", got)
	}
}

// touch gives p a new modification time.
func touch(t *testing.T, p string) {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	ts := st.ModTime().Add(5e9)
	if err := os.Chtimes(p, ts, ts); err != nil {
		t.Fatal(err)
	}
}
