//go:build unix

package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/projfs/projfstest"
)

// TestNamedPipeInGitFolder: a named pipe at a file fixplan reads from the git
// folder itself (its config, a linked worktree's commondir) is not waited on:
// git is not asked, and the plan goes on.
func TestNamedPipeInGitFolder(t *testing.T) {
	for _, name := range []string{"config", "commondir"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			testtree.Commit(t, root, map[string]string{"a.txt": "one\n"})
			os.Remove(filepath.Join(root, ".git", name))
			projfstest.Mkfifo(t, filepath.Join(root, ".git", name))
			g := newGit(t, root)
			projfstest.NoHang(t, "Status", func() { g.Status(context.Background(), 10) })
			projfstest.NoHang(t, "Changes", func() { g.Changes(context.Background(), nil, testChanges) })
			var tracked bool
			projfstest.NoHang(t, "Tracks", func() { tracked, _ = g.Tracks("a.txt") })
			if repo, _ := g.gitRepo(); tracked || !strings.Contains(repo.unreadable, "is not a regular file") {
				t.Errorf("a repository with a named pipe at .git/%s was asked (unreadable: %q)", name, repo.unreadable)
			}
		})
	}
}
