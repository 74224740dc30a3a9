package codectx

import (
	"os"
	"testing"

	"fixplan/internal/testtree"
)

// writeTree creates files (path → content) under root; a content starting with
// "->" makes a symlink to the rest.
func writeTree(t *testing.T, root string, files map[string]string) { testtree.Write(t, root, files) }

// writeScripts writes executable shell scripts (name → body after the #! line).
func writeScripts(t *testing.T, dir string, scripts map[string]string) {
	testtree.Scripts(t, dir, scripts)
}

// git runs git in dir as a test user.
func git(t *testing.T, dir string, args ...string) { t.Helper(); testtree.Git(t, dir, args...) }

// commit makes dir an ordinary repository with files committed.
func commit(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	testtree.Commit(t, dir, files)
}

// newGatherer opens a Gatherer on root with opts, failing the test on error.
func newGatherer(t *testing.T, root string, opts Options) *Gatherer {
	t.Helper()
	g, err := New(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	// no real tool probes in tests: they are slow and machine-dependent
	g.lookPath = func(string) (string, error) { return "", os.ErrNotExist }
	return g
}

func ptr[T any](v T) *T { return &v }
