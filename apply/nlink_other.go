//go:build !unix

package apply

import "io/fs"

// linkCount is unknown here (0): originals are copied, never linked.
func linkCount(fs.FileInfo) uint64 { return 0 }

// linkRefused: every failed link means copy instead (links are not used here).
func linkRefused(error) bool { return true }
