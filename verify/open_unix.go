//go:build unix

package verify

import "syscall"

// openNoBlock keeps opening a file that was swapped for a FIFO from blocking the
// copy; copyFile then sees it is not a regular file and skips it.
const openNoBlock = syscall.O_NONBLOCK
