// Package fsutil holds fixplan's crash-safe file primitives: atomic replacement of
// a file (temp file in the same folder, fsync, rename, fsync of the folder) and
// folder syncing. Unix uses google/renameio, Windows natefinch/atomic.
package fsutil

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path with data and mode so that a crash leaves either
// the old or the new content, never a mix; the folder entry is synced too. The
// folder must exist.
func WriteFileAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := writeAtomic(path, data, mode.Perm()); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return SyncDir(filepath.Dir(path))
}

// SyncDir fsyncs a folder so renames and removals in it are durable. Platforms that
// cannot sync folders (Windows) succeed silently.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !syncUnsupported(err) {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	return nil
}
