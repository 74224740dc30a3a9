// Package testtree builds file trees for tests: the project folders the
// context packages read.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates files (slash path → content) under root; a content starting
// with "->" makes a symlink to the rest.
func Write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if len(c) > 2 && c[:2] == "->" {
			if err := os.Symlink(c[2:], full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Scripts writes executable shell scripts under dir (slash path → body after
// the #! line).
func Scripts(t testing.TB, dir string, scripts map[string]string) {
	t.Helper()
	for name, body := range scripts {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
