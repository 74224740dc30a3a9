//go:build unix

package apply

import "syscall"

// noFollow makes opening the lock file fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW

// noPoll opens files already non-blocking. For a regular file that changes
// nothing about reads, writes or fsync, but Go's os package then skips the four
// fcntl calls it makes around offering the descriptor to the poller (which
// refuses regular files): five system calls less per open, several per file of a
// patch. An open also cannot hang on a FIFO put in a file's place.
const noPoll = syscall.O_NONBLOCK
