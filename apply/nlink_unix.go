//go:build unix

package apply

import (
	"errors"
	"io/fs"
	"syscall"
)

// linkCount is the number of hard links of the file fi describes (0 when the
// platform does not say, so the original is copied).
func linkCount(fi fs.FileInfo) uint64 {
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 0
}

// linkRefused reports whether a failed hard link means "not here" (another
// filesystem, links not allowed or not supported, too many links), so the
// original is copied instead; any other failure fails the transaction.
func linkRefused(err error) bool {
	for _, e := range []error{syscall.EXDEV, syscall.EPERM, syscall.EACCES, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.EMLINK, syscall.ENOSYS, errors.ErrUnsupported} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
