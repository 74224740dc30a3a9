// Package projfstest opens project roots for the tests of the packages that
// read a project through projfs.
package projfstest

import (
	"testing"

	"fixplan/projfs"
)

// Open opens the project folder dir with o, failing the test on error; the
// root is closed at the test's cleanup.
func Open(t testing.TB, dir string, o projfs.Options) *projfs.Root {
	t.Helper()
	files, err := projfs.OpenRoot(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	return files
}
