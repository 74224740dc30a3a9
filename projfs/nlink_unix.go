//go:build unix

package projfs

import (
	"io/fs"
	"os"
	"syscall"
)

// linkCount is the number of hard links of the open file f whose information
// is st (1 when the platform does not say).
func linkCount(_ *os.File, st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}
