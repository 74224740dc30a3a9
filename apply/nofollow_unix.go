//go:build unix

package apply

import "syscall"

// noFollow makes opening the lock file fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW
