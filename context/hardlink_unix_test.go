//go:build unix

package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// TestHardLinksOutsideGitAreRefused: a hard link in the project to a file outside
// it (an SSH key, say) is not read, searched into the model's context or used as
// a configured log, unless git tracks it.
func TestHardLinksOutsideGitAreRefused(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(outside, []byte("MY-PRIVATE-SSH-KEY-MATERIAL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.txt": "MY-PRIVATE nothing here\n", ".fixplan/project.json": `{"project.log_paths": {"app": "notes.txt"}}`})
	if err := os.Link(outside, filepath.Join(root, "notes.txt")); err != nil {
		t.Fatalf("cannot make a hard link in the temp folder: %v", err)
	}
	g := newGatherer(t, root, Options{})
	g.lookPath = exec.LookPath // newGatherer finds no tools
	ctx := context.Background()
	tests := []struct {
		name string
		req  plan.ContextRequest
		ok   bool   // the request itself succeeds (search)
		want string // in the error or the text
	}{
		{"read_file", plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("notes.txt")}, false, "has 2 hard links and git does not track it (the project is not in a git repository)"},
		{"read_file says what to do", plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("notes.txt"), StartLine: ptr(1), EndLine: ptr(1)}, false, "add it to git (git add) or replace the link with a copy"},
		// not even a count of its matches: that would confirm a guess of its content
		{"search", plan.ContextRequest{Type: plan.ReqSearch, Query: ptr("MY-PRIVATE")}, true, "search \"MY-PRIVATE\": 1 matches in 1 files\nok.txt:1: MY-PRIVATE nothing here\n"},
		{"configured log", plan.ContextRequest{Type: plan.ReqLogs, Source: ptr("app")}, false, "hard links"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := g.Fulfil(ctx, plan.ProblemInput{}, tt.req)
			if res.OK != tt.ok {
				t.Fatalf("OK = %v (%s%s)", res.OK, res.Error, res.Text)
			}
			if strings.Contains(res.Text, "SSH-KEY-MATERIAL") || strings.Contains(res.Text, "notes.txt") {
				t.Fatalf("the linked file was sent:\n%s", res.Text)
			}
			if !strings.Contains(res.Error+res.Text, tt.want) {
				t.Errorf("got %q, want %q", res.Error+res.Text, tt.want)
			}
		})
	}
}

func TestHardLinkTrackedByGitIsRead(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed (make apt-test installs it)")
	}
	root, elsewhere := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"shared.txt": "shared content\n", "untracked.txt": "not in git\n"})
	for _, name := range []string{"shared.txt", "untracked.txt"} {
		if err := os.Link(filepath.Join(root, name), filepath.Join(elsewhere, name)); err != nil {
			t.Fatalf("cannot make a hard link in the temp folder: %v", err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "shared.txt"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	g := newGatherer(t, root, Options{})
	g.lookPath = exec.LookPath // newGatherer finds no tools
	text, _, err := g.ReadRange("shared.txt", 0, 0)
	if err != nil || !strings.Contains(text, "1 | shared content") {
		t.Fatalf("ReadRange = %q, %v", text, err)
	}
	if _, _, err := g.ReadRange("untracked.txt", 0, 0); err == nil || !strings.Contains(err.Error(), "git does not track it, and a hard link") {
		t.Errorf("an untracked hard link in a repository was read (err %v)", err)
	}
}

// TestForgedIndexDoesNotMakeAHardLinkTracked: the index is the project's own
// file; a shipped repository can list a hard link to a file outside with a
// blob of other content (or of none), and `git diff` would then show the
// outside file. "Tracked" means the index entry's blob is in the repository
// and is the file's content, so the link is refused by read_file, search and
// the recent-changes section alike.
func TestForgedIndexDoesNotMakeAHardLinkTracked(t *testing.T) {
	for _, forge := range []string{"other blob", "missing blob"} {
		t.Run(forge, func(t *testing.T) {
			outside := filepath.Join(t.TempDir(), "id_ed25519")
			if err := os.WriteFile(outside, []byte("MY-PRIVATE-SSH-KEY-MATERIAL\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			commit(t, root, map[string]string{"main.py": "x = 1\n"})
			if err := os.Link(outside, filepath.Join(root, "notes.txt")); err != nil {
				t.Fatalf("cannot make a hard link in the temp folder: %v", err)
			}
			run := func(args ...string) string {
				cmd := exec.Command("git", args...)
				cmd.Dir = root
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("git %v: %v", args, err)
				}
				return strings.TrimSpace(string(out))
			}
			if forge == "other blob" {
				os.WriteFile(filepath.Join(root, "harmless.txt"), []byte("harmless\n"), 0o644)
				sha := run("hash-object", "-w", "harmless.txt")
				os.Remove(filepath.Join(root, "harmless.txt"))
				run("update-index", "--add", "--cacheinfo", "100644,"+sha+",notes.txt")
			} else {
				run("update-index", "--add", "--info-only", "--cacheinfo", "100644,"+strings.Repeat("ab", 20)+",notes.txt")
			}
			g := newGatherer(t, root, Options{})
			g.lookPath = exec.LookPath // newGatherer finds no tools
			ctx := context.Background()
			res := g.Fulfil(ctx, plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("notes.txt")})
			if res.OK || !strings.Contains(res.Error, "git does not track it") {
				t.Errorf("read_file of a link the forged index lists: %+v", res)
			}
			res = g.Fulfil(ctx, plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqSearch, Query: ptr("MY-PRIVATE")})
			if strings.Contains(res.Text, "notes.txt") {
				t.Errorf("search told of the linked file:\n%s", res.Text)
			}
			base, _ := g.Base(ctx, plan.ProblemInput{Problem: "crash in main.py"})
			for _, sec := range base.Sections {
				if strings.Contains(sec.Body, "SSH-KEY-MATERIAL") {
					t.Errorf("section %s holds the outside file:\n%s", sec.Title, sec.Body)
				}
			}
		})
	}
}
