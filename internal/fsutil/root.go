package fsutil

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Confined variants: every name is relative to r, and os.Root refuses any name,
// ".." or symbolic link (also one swapped in after a check) that leads outside it.

// WriteFileAtomicIn replaces name inside r with data and mode so that a crash
// leaves either the old or the new content: a temp file beside it is written,
// chmod-ed (ignoring the umask), fsynced, renamed over name, and the folder is
// fsynced. A symbolic link at name is replaced, never followed.
func WriteFileAtomicIn(r *os.Root, name string, data []byte, mode fs.FileMode) error {
	if err := ReplaceFileIn(r, name, data, mode); err != nil {
		return err
	}
	return SyncDirIn(r, filepath.Dir(name))
}

// ReplaceFileIn is WriteFileAtomicIn without the folder sync: the content is
// durable, the rename becomes durable when the caller syncs the folder (a
// transaction syncs each touched folder once before it commits).
func ReplaceFileIn(r *os.Root, name string, data []byte, mode fs.FileMode) error {
	var rb [6]byte
	_, _ = rand.Read(rb[:])
	dir := filepath.Dir(name)
	tmp := filepath.Join(dir, "."+filepath.Base(name)+".fixplan-"+hex.EncodeToString(rb[:])+".tmp")
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			_ = r.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Chmod(mode.Perm()); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := r.Rename(tmp, name); err != nil {
		_ = r.Remove(tmp)
		ok = true
		return fmt.Errorf("write %s: %w", name, err)
	}
	ok = true
	return nil
}

// SyncDirIn fsyncs the folder name inside r ("." is r itself). Platforms that
// cannot sync folders (Windows) succeed silently.
func SyncDirIn(r *os.Root, name string) error {
	d, err := r.Open(name)
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", name, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !syncUnsupported(err) {
		return fmt.Errorf("sync dir %s: %w", name, err)
	}
	return nil
}

// RemoveIn removes a file or an empty folder inside r and syncs its parent.
func RemoveIn(r *os.Root, name string) error {
	if err := r.Remove(name); err != nil {
		return err
	}
	return SyncDirIn(r, filepath.Dir(name))
}

// MkdirIn creates one folder inside r and syncs its parent.
func MkdirIn(r *os.Root, name string, mode fs.FileMode) error {
	if err := r.Mkdir(name, mode); err != nil {
		return err
	}
	return SyncDirIn(r, filepath.Dir(name))
}
