package apply

import (
	"io/fs"
	"os"

	"fixplan/internal/fsutil"
)

// FS performs every write of a transaction (project files and the journal), so
// tests can fail the k-th operation and check the rollback.
type FS interface {
	// WriteFile atomically replaces path with data and mode.
	WriteFile(path string, data []byte, mode fs.FileMode) error
	// Remove removes a file or an empty folder.
	Remove(path string) error
	// Mkdir creates one folder.
	Mkdir(path string, mode fs.FileMode) error
}

// OSFS is the real filesystem.
type OSFS struct{}

// WriteFile replaces path atomically (fsutil.WriteFileAtomic).
func (OSFS) WriteFile(path string, data []byte, mode fs.FileMode) error {
	return fsutil.WriteFileAtomic(path, data, mode)
}

// Remove removes path and syncs its folder.
func (OSFS) Remove(path string) error {
	if err := os.Remove(path); err != nil {
		return err
	}
	return fsutil.SyncDir(parentDir(path))
}

// Mkdir creates path and syncs its parent.
func (OSFS) Mkdir(path string, mode fs.FileMode) error {
	if err := os.Mkdir(path, mode); err != nil {
		return err
	}
	return fsutil.SyncDir(parentDir(path))
}
