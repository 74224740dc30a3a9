//go:build windows

package session

import (
	"os/exec"
	"strconv"
)

func shellCommand(command string) *exec.Cmd { return exec.Command("cmd", "/C", command) }

func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills the command's process tree with taskkill /T.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
	_ = cmd.Process.Kill()
}
