//go:build !unix

package apply

// noFollow: Windows has no O_NOFOLLOW; the lock file is checked with Lstat first.
const noFollow = 0

// noPoll: O_NONBLOCK only saves system calls on Unix (see nofollow_unix.go).
const noPoll = 0
