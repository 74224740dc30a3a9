//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own, all of it killed when its
// context ends (a test's child processes too).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
