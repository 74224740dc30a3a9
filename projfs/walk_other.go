//go:build !linux

package projfs

// openTopFunc opens the root for a walk; off Linux it is os.Root based.
func openTopFunc(root string) (Dir, error) { return openRootTop(root) }
