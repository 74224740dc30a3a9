package gitrepo

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"fixplan/context/envprobe"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// testChanges are the options of Changes under the gatherer's default budget.
var testChanges = ChangesOptions{MaxTotalBytes: 96 * 1024}

// newGit opens root with git found on PATH (the tests' repositories are real
// ones made with git), run as the gatherer runs it: the env probe's scrubbed
// PATH, a 3 s bound, hard links read when git tracks them.
func newGit(t *testing.T, root string) *Git {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git (apt-get install git)")
	}
	var g *Git
	files := projfstest.Open(t, root, projfs.Options{Tracked: func(rel string) (bool, string) { return g.Tracks(rel) }})
	env := envprobe.New(envprobe.Options{Files: files, LookPath: func(string) (string, error) { return "", os.ErrNotExist }})
	g = New(Options{Files: files, PATH: env.PATH, Timeout: 3 * time.Second, LookPath: func(name string) (string, error) {
		if name == "git" {
			return exec.LookPath(name)
		}
		return "", exec.ErrNotFound
	}})
	return g
}
