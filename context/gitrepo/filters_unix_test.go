//go:build unix

package gitrepo

import (
	"os"
	"path/filepath"
	"testing"

	"fixplan/internal/testtree"
)

// TestTracksRunsNoCleanFilter: deciding whether git tracks a file runs no
// program on it — a clean filter the project's .gitattributes picks (here one
// from the user's own git config that would leave a marker) is not run, and an
// unfiltered file that is the index's blob still counts as tracked.
func TestTracksRunsNoCleanFilter(t *testing.T) {
	root := t.TempDir()
	testtree.Commit(t, root, map[string]string{"a.txt": "one\n"})
	home := t.TempDir()
	marker := filepath.Join(home, "FILTER-RAN")
	cfg := "[filter \"shout\"]\n\tclean = touch " + marker + "\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	if err := os.WriteFile(filepath.Join(root, ".gitattributes"), []byte("*.txt filter=shout\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := newGit(t, root)
	tracked, why := g.Tracks("a.txt")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the tracked check ran the clean filter the project's .gitattributes picked")
	}
	if !tracked {
		t.Fatalf("a.txt is the index's blob byte for byte, but Tracks = false (%s)", why)
	}
}
