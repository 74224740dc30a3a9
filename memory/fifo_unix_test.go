//go:build unix

package memory

import (
	"path/filepath"
	"strings"
	"testing"

	"fixplan/projfs/projfstest"
)

// TestNamedPipeProjectFile: a named pipe at .fixplan/project.json is not
// waited on: the project opens at once, with a warning that says what it is.
func TestNamedPipeProjectFile(t *testing.T) {
	root := t.TempDir()
	projfstest.Mkfifo(t, filepath.Join(root, ProjectFile))
	var s *Store
	var err error
	projfstest.NoHang(t, "memory.Open", func() { s, err = Open(root, filepath.Join(t.TempDir(), "p.json")) })
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "is a named pipe (FIFO), not a regular file") {
		t.Errorf("warnings = %v", w)
	}
}
