package editor

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/windows"
)

// detach starts cmd in a process group of its own, without a console window
// for a console program (code.cmd runs through cmd.exe).
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW}
}

// systemEdit asks Windows to edit file with the app registered for its type
// (ShellExecute's "edit" verb: Notepad for scripts and text; never "open",
// which runs a .bat, .js or .reg file). A type with no "edit" verb opens in
// Notepad.
func systemEdit(file, dir string) error {
	verb, _ := windows.UTF16PtrFromString("edit")
	f, err := windows.UTF16PtrFromString(file)
	if err != nil {
		return err
	}
	d, _ := windows.UTF16PtrFromString(dir)
	if windows.ShellExecute(0, verb, f, nil, d, windows.SW_SHOWNORMAL) == nil {
		return nil
	}
	notepad := filepath.Join(os.Getenv("SystemRoot"), "System32", "notepad.exe")
	cmd := exec.Command(notepad, file)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
