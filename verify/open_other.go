//go:build !unix

package verify

// openNoBlock is not needed where files cannot be FIFOs.
const openNoBlock = 0
