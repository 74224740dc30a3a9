package verify

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// writeTree creates files under dir: a path ending in "/" is a folder, and
// content "-> target" makes a symbolic link.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		content := files[n]
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot records every entry under dir: type, mode, bytes or link target.
type snapEntry struct {
	mode   fs.FileMode
	data   []byte
	target string
}

func snapshot(t testing.TB, dir string) map[string]snapEntry {
	t.Helper()
	out := map[string]snapEntry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := snapEntry{mode: fi.Mode()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.target, err = os.Readlink(p)
		case fi.Mode().IsRegular():
			e.data, err = os.ReadFile(p)
		}
		out[filepath.ToSlash(rel)] = e
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameSnapshot fails the test unless a and b hold the same entries, modes and bytes.
func sameSnapshot(t testing.TB, what string, a, b map[string]snapEntry) {
	t.Helper()
	for p, ea := range a {
		eb, ok := b[p]
		switch {
		case !ok:
			t.Errorf("%s: %s disappeared", what, p)
		case ea.mode != eb.mode:
			t.Errorf("%s: %s mode %v, was %v", what, p, eb.mode, ea.mode)
		case !bytes.Equal(ea.data, eb.data) || ea.target != eb.target:
			t.Errorf("%s: %s changed", what, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		}
	}
}

// emptyDir fails the test unless dir has no entries (the copies were removed).
func emptyDir(t testing.TB, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind in the temporary folder: %s", e.Name())
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// readOutput is a test runner's output under testdata/outputs.
func readOutput(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "outputs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
