//go:build windows

package fsutil

import (
	"bytes"
	"io/fs"
	"os"

	"github.com/natefinch/atomic"
)

func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	if err := atomic.WriteFile(path, bytes.NewReader(data)); err != nil {
		return err
	}
	return os.Chmod(path, perm)
}

func syncUnsupported(err error) bool { return true }
