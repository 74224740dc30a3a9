package apply

import (
	"errors"
	"io/fs"
	"os"
	"runtime"

	"fixplan/internal/fsutil"
)

// FS performs every write of a transaction (project files and the journal), so
// tests can fail the k-th operation and check the rollback. Names are relative to
// the project's os.Root, which refuses anything that leads outside it. Writes,
// removals and new folders become durable when their folder is synced: a
// transaction syncs each folder it touched once, before it records the next state.
type FS interface {
	// WriteFile atomically replaces name with data and mode (content fsynced).
	WriteFile(r *os.Root, name string, data []byte, mode fs.FileMode) error
	// Remove removes a file or an empty folder.
	Remove(r *os.Root, name string) error
	// Mkdir creates one folder.
	Mkdir(r *os.Root, name string, mode fs.FileMode) error
	// SyncDir makes the entries of a folder durable.
	SyncDir(r *os.Root, name string) error
}

// Linker is an FS that can also make a hard link (oldname and newname inside
// the root). A transaction keeps the originals of single-link files as links
// when its FS is a Linker, and copies them otherwise.
type Linker interface {
	Link(r *os.Root, oldname, newname string) error
}

// OSFS is the real filesystem, confined to the root.
type OSFS struct{}

var _ Linker = OSFS{}

// Link makes newname a hard link to oldname. It is refused on Windows, where
// originals are always copied.
func (OSFS) Link(r *os.Root, oldname, newname string) error {
	if runtime.GOOS == "windows" {
		return errors.ErrUnsupported
	}
	return r.Link(oldname, newname)
}

// WriteFile replaces name atomically (fsutil.ReplaceFileIn).
func (OSFS) WriteFile(r *os.Root, name string, data []byte, mode fs.FileMode) error {
	return fsutil.ReplaceFileIn(r, name, data, mode)
}

// Remove removes name.
func (OSFS) Remove(r *os.Root, name string) error { return r.Remove(name) }

// Mkdir creates name.
func (OSFS) Mkdir(r *os.Root, name string, mode fs.FileMode) error { return r.Mkdir(name, mode) }

// SyncDir fsyncs the folder name.
func (OSFS) SyncDir(r *os.Root, name string) error { return fsutil.SyncDirIn(r, name) }
