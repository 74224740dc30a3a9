//go:build unix

package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// TestGitDiffRunsNoDiffProgram: even a diff driver the user's own global config
// names (an external diff, a textconv that the project's .gitattributes selects)
// is not run for the recent-changes section; the plain diff is sent, and the
// user's diff.noprefix, mnemonicPrefix and color.ui do not break it.
func TestGitDiffRunsNoDiffProgram(t *testing.T) {
	outside := t.TempDir()
	marker := filepath.Join(outside, "ran")
	testtree.Scripts(t, outside, map[string]string{"differ.sh": "touch '" + marker + "'\necho CONVERTED\n"})
	global := filepath.Join(outside, "gitconfig")
	script := filepath.Join(outside, "differ.sh")
	if err := os.WriteFile(global, []byte("[diff]\n\tnoprefix = true\n\tmnemonicPrefix = true\n\texternal = "+script+"\n[color]\n\tui = always\n[diff \"conv\"]\n\ttextconv = "+script+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	testtree.Commit(t, repo, map[string]string{".gitattributes": "*.py diff=conv\n", "calc.py": "def add(a, b):\n    return a + b\n"})
	testtree.Write(t, repo, map[string]string{"calc.py": "def add(a, b):\n    return a - b\n"})
	t.Setenv("GIT_CONFIG_GLOBAL", global)

	c, ok := newGit(t, repo).Changes(context.Background(), nil, testChanges)
	if _, err := os.Stat(marker); err == nil {
		t.Error("a diff program ran")
	}
	if !ok {
		t.Fatal("no section")
	}
	if strings.Contains(c.Sec.Body, "CONVERTED") || !strings.Contains(c.Sec.Body, "diff --git a/calc.py b/calc.py\n") || !strings.Contains(c.Sec.Body, "+    return a - b") {
		t.Errorf("want the plain diff:\n%s", c.Sec.Body)
	}
}
