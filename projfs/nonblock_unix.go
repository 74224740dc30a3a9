//go:build unix

package projfs

import "syscall"

// nonBlock makes an open return at once on a named pipe or a device instead of
// waiting for a writer (regular files read the same with it).
const nonBlock = syscall.O_NONBLOCK
