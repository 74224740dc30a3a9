//go:build !linux

package codectx

// openTopFunc opens the root for a walk; off Linux it is os.Root based.
func openTopFunc(root string) (dirHandle, error) { return openRootTop(root) }
