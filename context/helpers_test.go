package codectx

import (
	"os"
	"path/filepath"
	"testing"
)

// writeTree creates files (path → content) under root; a content starting with
// "->" makes a symlink to the rest.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if len(c) > 2 && c[:2] == "->" {
			if err := os.Symlink(c[2:], full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
