//go:build unix

package projfs

// UsePortableWalk makes r walk with the os.Root walker (the one used off Linux).
func UsePortableWalk(r *Root) { r.openTop = openRootTop }
