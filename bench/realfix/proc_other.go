//go:build !unix

package main

import "os/exec"

// ownGroup leaves cmd as it is: only the process itself is killed when its
// context ends.
func ownGroup(cmd *exec.Cmd) {}
