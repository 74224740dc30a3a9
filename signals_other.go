//go:build !linux || !cgo

package main

// prepareWebKitSignals: only WebKitGTK (Linux) shares signals with the Go runtime.
func prepareWebKitSignals() {}
