package verify

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// placer keeps the copy's folder open for fclonefileat, which names the new
// file relative to a folder descriptor.
type placer struct {
	dir    *os.File
	dirErr error
	opened bool
}

func (p *placer) close() {
	if p.dir != nil {
		p.dir.Close()
	}
}

func (p *placer) dirFile(dstDir *os.Root) (*os.File, error) {
	if !p.opened {
		p.opened = true
		p.dir, p.dirErr = dstDir.Open(".")
	}
	return p.dir, p.dirErr
}

// place writes name in dstDir as an APFS clone of src (fclonefileat) where the
// volume offers it, and as a byte copy otherwise.
func (c *copier) place(src *os.File, dstDir *os.Root, pl *placer, name string, size int64, perm fs.FileMode, mtime time.Time) (bool, error) {
	if size > 0 && c.tryReflink() {
		if dir, err := pl.dirFile(dstDir); err == nil {
			err := fclone(src, dir, name)
			if err == nil {
				c.reflinkWorked.Store(true)
				if err := dstDir.Chmod(name, perm); err != nil {
					return true, err
				}
				return true, setTimes(nil, dstDir, name, mtime)
			}
			c.reflinkFailed(err, reflinkUnsupported(err))
			_ = dstDir.Remove(name) // a failed clone leaves nothing, but be sure
		}
	}
	return createCopy(dstDir, name, src, size, perm, mtime, nil)
}

// fclone creates name in the folder dir as a clone of the open file src; the
// name is a single component, so nothing is followed.
func fclone(src, dir *os.File, name string) error {
	sc, err := src.SyscallConn()
	if err != nil {
		return err
	}
	dc, err := dir.SyscallConn()
	if err != nil {
		return err
	}
	var opErr error
	err = dc.Control(func(dfd uintptr) {
		if err := sc.Control(func(sfd uintptr) {
			opErr = unix.Fclonefileat(int(sfd), int(dfd), name, unix.CLONE_NOFOLLOW)
		}); err != nil {
			opErr = err
		}
	})
	if err != nil {
		return err
	}
	if opErr != nil {
		return &os.SyscallError{Syscall: "fclonefileat", Err: opErr}
	}
	return nil
}

// reflinkUnsupported reports errors that say the volume cannot clone (HFS+, a
// network share, another volume).
func reflinkUnsupported(err error) bool {
	for _, e := range []error{unix.ENOTSUP, unix.EOPNOTSUPP, unix.EXDEV, unix.EINVAL, unix.ENOSYS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// reflinkProbe reports whether the volume of dir clones src.
func reflinkProbe(src *os.File, dir string) bool {
	d, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer d.Close()
	name := ".fixplan-probe-" + filepath.Base(os.TempDir()) + "-" + time.Now().Format("150405.000000000")
	if err := fclone(src, d, name); err != nil {
		return false
	}
	_ = os.Remove(filepath.Join(dir, name))
	return true
}

// setTimes sets name's access and modification times to t through the copy's root.
func setTimes(_ *os.File, dstDir *os.Root, name string, t time.Time) error {
	return dstDir.Chtimes(name, t, t)
}
