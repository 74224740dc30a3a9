//go:build !unix

package projfs

// nonBlock: off Unix an open does not wait on a named pipe's writer.
const nonBlock = 0
