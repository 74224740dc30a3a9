// Package testtree builds file trees for tests: the project folders the
// context packages read.
package testtree

import (
	"os"
	"os/exec"
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

// Git runs git in dir as a test user; the test fails when git does.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// Commit makes dir an ordinary repository with files (as Write) committed.
func Commit(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	Write(t, dir, files)
	Git(t, dir, "init", "-q")
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-qm", "init")
}
