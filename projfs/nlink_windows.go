//go:build windows

package projfs

import (
	"io/fs"
	"os"
	"syscall"
)

// linkCount is the number of hard links of the open file f (its file information
// st does not carry it on Windows); 1 when it cannot be asked.
func linkCount(f *os.File, _ fs.FileInfo) uint64 {
	var d syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(syscall.Handle(f.Fd()), &d); err != nil {
		return 1
	}
	return uint64(d.NumberOfLinks)
}
