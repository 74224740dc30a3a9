package apply

import (
	"io/fs"
	"os"

	"fixplan/internal/fsutil"
)

// FS performs every write of a transaction (project files and the journal), so
// tests can fail the k-th operation and check the rollback. Names are relative to
// the project's os.Root, which refuses anything that leads outside it.
type FS interface {
	// WriteFile atomically replaces name with data and mode.
	WriteFile(r *os.Root, name string, data []byte, mode fs.FileMode) error
	// Remove removes a file or an empty folder.
	Remove(r *os.Root, name string) error
	// Mkdir creates one folder.
	Mkdir(r *os.Root, name string, mode fs.FileMode) error
}

// OSFS is the real filesystem, confined to the root.
type OSFS struct{}

// WriteFile replaces name atomically (fsutil.WriteFileAtomicIn).
func (OSFS) WriteFile(r *os.Root, name string, data []byte, mode fs.FileMode) error {
	return fsutil.WriteFileAtomicIn(r, name, data, mode)
}

// Remove removes name and syncs its folder.
func (OSFS) Remove(r *os.Root, name string) error { return fsutil.RemoveIn(r, name) }

// Mkdir creates name and syncs its parent.
func (OSFS) Mkdir(r *os.Root, name string, mode fs.FileMode) error {
	return fsutil.MkdirIn(r, name, mode)
}
