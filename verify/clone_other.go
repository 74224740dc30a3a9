//go:build !linux && !darwin

package verify

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"time"
)

// placer holds per-folder state of the platform's clone call (none here).
type placer struct{}

func (p *placer) close() {}

// place copies the bytes of src into a new file name in dstDir. On Windows a
// plain copy is made (ReFS block cloning is not used); other systems without a
// clone call do the same.
func (c *copier) place(src *os.File, dstDir *os.Root, _ *placer, name string, size int64, perm fs.FileMode, mtime time.Time) (bool, error) {
	if c.tryReflink() && size > 0 {
		c.reflinkFailed(errors.New("copy-on-write cloning is not implemented on "+runtime.GOOS), true)
	}
	return createCopy(dstDir, name, src, size, perm, mtime, nil)
}

// reflinkProbe: no clone call on this system.
func reflinkProbe(*os.File, string) bool { return false }

// setTimes sets name's access and modification times to t through the copy's root.
func setTimes(_ *os.File, dstDir *os.Root, name string, t time.Time) error {
	return dstDir.Chtimes(name, t, t)
}
