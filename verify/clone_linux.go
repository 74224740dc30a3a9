package verify

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// placer holds per-folder state of the platform's clone call (none on Linux).
type placer struct{}

func (p *placer) close() {}

// place writes name in dstDir as a FICLONE copy-on-write clone of src where the
// file system offers it (Btrfs, XFS with reflink, bcachefs, OCFS2, overlayfs on
// those), and as a byte copy otherwise.
func (c *copier) place(src *os.File, dstDir *os.Root, _ *placer, name string, size int64, perm fs.FileMode) (bool, error) {
	var before func(dst *os.File) bool
	if c.tryReflink() {
		before = func(dst *os.File) bool {
			err := ficlone(dst, src)
			if err == nil {
				c.reflinkWorked.Store(true)
				return true
			}
			c.reflinkFailed(err, reflinkUnsupported(err))
			return false
		}
	}
	return createCopy(dstDir, name, src, size, perm, before)
}

// ficlone asks the kernel to share src's extents with the empty file dst.
func ficlone(dst, src *os.File) error {
	sc, err := src.SyscallConn()
	if err != nil {
		return err
	}
	dc, err := dst.SyscallConn()
	if err != nil {
		return err
	}
	var opErr error
	err = dc.Control(func(dfd uintptr) {
		if err := sc.Control(func(sfd uintptr) {
			opErr = unix.IoctlFileClone(int(dfd), int(sfd))
		}); err != nil {
			opErr = err
		}
	})
	if err != nil {
		return err
	}
	if opErr != nil {
		return &os.SyscallError{Syscall: "ioctl FICLONE", Err: opErr}
	}
	return nil
}

// reflinkUnsupported reports errors that say the file system (or the pair of
// file systems) cannot clone at all, so no later file should ask.
func reflinkUnsupported(err error) bool {
	for _, e := range []error{unix.EOPNOTSUPP, unix.ENOTSUP, unix.EXDEV, unix.EINVAL, unix.ENOTTY, unix.ENOSYS, unix.EBADF} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
