//go:build unix

package projfstest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Mkfifo makes a named pipe at path (its folder created); nothing ever writes
// to it, so opening it for reading the ordinary way waits forever. At the
// test's end it is opened for reading and writing, which releases a reader
// still stuck in open(2) after a failed test.
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatalf("cannot make a named pipe: %v", err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
}
