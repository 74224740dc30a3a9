//go:build !windows

package fsutil

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/google/renameio/v2"
)

// writeAtomic writes a pending temp file next to path, sets its mode exactly
// (ignoring the umask: the mode is the file's previous mode), fsyncs and renames it.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	pf, err := renameio.NewPendingFile(path, renameio.WithPermissions(perm), renameio.IgnoreUmask())
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return err
	}
	if err := pf.Chmod(perm); err != nil {
		return err
	}
	return pf.CloseAtomicallyReplace()
}

func syncUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP)
}
