//go:build !linux

package verify

// memoryScratch: only Linux has a tmpfs at a known place (/dev/shm).
func memoryScratch(int64) (string, bool) { return "", false }
