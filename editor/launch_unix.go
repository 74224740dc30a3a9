//go:build !windows

package editor

import (
	"errors"
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own: it survives fixplan, and a signal
// to fixplan's process group (Ctrl-C in the terminal the CLI runs in) does not
// reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// systemEdit is Windows' "edit" of a file; other systems never choose it.
func systemEdit(string, string) error {
	return errors.New("only Windows edits a file through its shell")
}
