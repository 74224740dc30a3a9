//go:build !unix

package apply

// noFollow: Windows has no O_NOFOLLOW; the lock file is checked with Lstat first.
const noFollow = 0
