package verify

import (
	"errors"
	"io/fs"
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// placer holds per-folder state of the platform's clone call (none on Linux).
type placer struct{}

func (p *placer) close() {}

// place writes name in dstDir as a FICLONE copy-on-write clone of src where the
// file system offers it (Btrfs, XFS with reflink, bcachefs, OCFS2, overlayfs on
// those), and as a byte copy otherwise.
func (c *copier) place(src *os.File, dstDir *os.Root, _ *placer, name string, size int64, perm fs.FileMode, mtime time.Time) (bool, error) {
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
	return createCopy(dstDir, name, src, size, perm, mtime, before)
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

// reflinkProbe reports whether the file system of dir clones src: it clones
// src into a temporary file in dir and removes it.
func reflinkProbe(src *os.File, dir string) bool {
	f, err := os.CreateTemp(dir, ".fixplan-probe-")
	if err != nil {
		return false
	}
	defer os.Remove(f.Name())
	defer f.Close()
	return ficlone(f, src) == nil
}

// setTimes sets the open file's access and modification times to t (futimens:
// no path, nothing followed).
func setTimes(f *os.File, _ *os.Root, _ string, t time.Time) error {
	ts := [2]unix.Timespec{unix.NsecToTimespec(t.UnixNano()), unix.NsecToTimespec(t.UnixNano())}
	c, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var opErr error
	if err := c.Control(func(fd uintptr) {
		_, _, e := unix.Syscall6(unix.SYS_UTIMENSAT, fd, 0, uintptr(unsafe.Pointer(&ts[0])), 0, 0, 0)
		if e != 0 {
			opErr = &os.SyscallError{Syscall: "utimensat", Err: e}
		}
	}); err != nil {
		return err
	}
	return opErr
}
