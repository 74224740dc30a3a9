//go:build unix

package verify

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"syscall"
	"testing"
	"time"
)

func TestClone(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	writeTree(t, src, map[string]string{
		"go.mod":                            "module m\n",
		"cmd/tool/main.go":                  "package main\n",
		"empty.txt":                         "",
		"run.sh":                            "#!/bin/sh\n",
		"secret.txt":                        "s",
		"ro/file.txt":                       "read-only folder",
		"link.txt":                          "-> cmd/tool/main.go",
		"dirlink":                           "-> cmd",
		"dangling":                          "-> nowhere/at/all",
		".git/HEAD":                         "ref: refs/heads/main\n",
		".fixplan/plans/x.json":             "{}",
		"sub/.fixplan/x":                    "nested state",
		"pkg/__pycache__/m.cpython-311.pyc": "bytecode",
		"node_modules/left-pad/index.js":    "module.exports = 1\n",
		".venv/lib/site.py":                 "x = 1\n",
		"target/CACHEDIR.TAG":               "Signature: 8a477f597d28d172789f06886806bc55\n# cargo\n",
		"target/debug/big":                  "build output",
		"target2/CACHEDIR.TAG":              "not the signature",
		"target2/keep":                      "kept",
	})
	must(t, os.Chmod(filepath.Join(src, "run.sh"), 0o755))
	must(t, os.Chmod(filepath.Join(src, "secret.txt"), 0o600))
	must(t, os.Chmod(filepath.Join(src, "ro"), 0o555))
	t.Cleanup(func() { os.Chmod(filepath.Join(src, "ro"), 0o755) })
	must(t, syscall.Mkfifo(filepath.Join(src, "pipe"), 0o644))
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	must(t, os.Chtimes(filepath.Join(src, "go.mod"), old, old))
	before := snapshot(t, src)

	st, err := Clone(context.Background(), src, dst, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeTree(dst) })
	sameSnapshot(t, "source", before, snapshot(t, src))

	got := snapshot(t, dst)
	var names []string
	for p := range got {
		names = append(names, p)
	}
	sort.Strings(names)
	want := []string{".", ".venv", ".venv/lib", ".venv/lib/site.py", "cmd", "cmd/tool", "cmd/tool/main.go", "dangling", "dirlink",
		"empty.txt", "go.mod", "link.txt", "node_modules", "node_modules/left-pad", "node_modules/left-pad/index.js",
		"pkg", "ro", "ro/file.txt", "run.sh", "secret.txt", "sub", "target2", "target2/CACHEDIR.TAG", "target2/keep"}
	if !slices.Equal(names, want) {
		t.Errorf("copy holds\n %q\nwant\n %q", names, want)
	}
	for _, c := range []struct {
		path string
		mode fs.FileMode
	}{{"run.sh", 0o755}, {"secret.txt", 0o600}, {"go.mod", 0o644}, {"ro", fs.ModeDir | 0o555}} {
		if got[c.path].mode != c.mode {
			t.Errorf("%s: mode %v, want %v", c.path, got[c.path].mode, c.mode)
		}
	}
	for p, e := range before {
		if g, ok := got[p]; ok && e.mode.IsRegular() && string(g.data) != string(e.data) {
			t.Errorf("%s: bytes differ", p)
		}
	}
	if got["link.txt"].target != "cmd/tool/main.go" || got["dirlink"].target != "cmd" || got["dangling"].target != "nowhere/at/all" {
		t.Errorf("links not recreated as links: %+v %+v", got["link.txt"], got["dirlink"])
	}
	if fi, err := os.Stat(filepath.Join(dst, "go.mod")); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("modification time not kept: %v %v", fi.ModTime(), err)
	}
	if st.Files != 10 || st.Links != 3 || st.Cloned+st.Copied != st.Files {
		t.Errorf("stats: %+v", st)
	}
	if !hasSkipped(st, "pipe") || !hasSkipped(st, "target") {
		t.Errorf("pipe and tagged cache folder should be listed as skipped: %+v", st.Skipped)
	}
	t.Logf("reflink: %s %s", st.Reflink, st.ReflinkNote)

	// .git on request.
	dst2 := t.TempDir()
	if _, err := Clone(context.Background(), src, dst2, CloneOptions{IncludeGit: true}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst2, ".git", "HEAD")); err != nil || string(b) != "ref: refs/heads/main\n" {
		t.Errorf(".git with IncludeGit: %q %v", b, err)
	}
	removeTree(dst2)
}

func hasSkipped(st CloneStats, path string) bool {
	for _, s := range st.Skipped {
		if s.Path == path {
			return true
		}
	}
	return false
}

// A hostile project: links that lead outside, directly, by "..", through a
// chain of links inside, in a loop. None is recreated, and writing the
// copy's paths through os.Root never reaches the outside folder.
func TestCloneHostileLinks(t *testing.T) {
	base := t.TempDir()
	src, dst, outside := filepath.Join(base, "proj"), filepath.Join(base, "copy"), filepath.Join(base, "outside")
	writeTree(t, base, map[string]string{"outside/keep.txt": "precious", "copy/": ""})
	writeTree(t, src, map[string]string{
		"a.txt":         "a",
		"abs":           "-> " + outside,
		"up":            "-> ../outside",
		"deep/up2":      "-> ../../outside/keep.txt",
		"d/x":           "-> ..",
		"e":             "-> d/x/../..", // lexically ".", really base
		"f":             "-> d/x/a.txt", // stays inside through d/x
		"loop":          "-> loop",
		"g":             "-> abs/keep.txt", // through a link that leaves
		"dots":          "-> .../x",
		"inside/ok.txt": "-> ../a.txt",
	})
	outsideBefore := snapshot(t, outside)
	srcBefore := snapshot(t, src)
	st, err := Clone(context.Background(), src, dst, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"abs", "up", "deep/up2", "e", "g", "dots", "loop"} {
		if !hasSkipped(st, p) {
			t.Errorf("%s not skipped: %+v", p, st.Skipped)
		}
		if _, err := os.Lstat(filepath.Join(dst, p)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is in the copy", p)
		}
	}
	for _, p := range []string{"d/x", "f", "inside/ok.txt"} {
		if fi, err := os.Lstat(filepath.Join(dst, p)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s should be recreated as a link: %v", p, err)
		}
	}
	if st.SkippedLinks != 7 {
		t.Errorf("SkippedLinks = %d, want 7", st.SkippedLinks)
	}
	// The changes of a plan land in the copy; none reaches outside.
	root, err := os.OpenRoot(dst)
	must(t, err)
	defer root.Close()
	for _, p := range []string{"abs/keep.txt", "up/keep.txt", "e/outside/keep.txt"} {
		data := []byte("pwned")
		_ = applyChanges(root, map[string]*[]byte{p: &data}, nil)
	}
	sameSnapshot(t, "outside folder", outsideBefore, snapshot(t, outside))
	sameSnapshot(t, "project", srcBefore, snapshot(t, src))
}

func TestCloneBounds(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"a": "12345", "b": "12345", "c/d": "12345"})
	tests := []struct {
		name    string
		opt     CloneOptions
		tooBig  bool
		wantErr bool
	}{
		{name: "fits", opt: CloneOptions{MaxFiles: 3, MaxBytes: 15}},
		{name: "too many files", opt: CloneOptions{MaxFiles: 2}, tooBig: true},
		{name: "too many bytes", opt: CloneOptions{MaxBytes: 14}, tooBig: true},
		{name: "no bounds", opt: CloneOptions{MaxFiles: -1, MaxBytes: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := t.TempDir()
			_, err := Clone(context.Background(), src, dst, tt.opt)
			if got := errors.Is(err, ErrTooLarge); got != tt.tooBig {
				t.Fatalf("ErrTooLarge = %v (%v), want %v", got, err, tt.tooBig)
			}
			var tl *TooLargeError
			if tt.tooBig && (!errors.As(err, &tl) || tl.Error() == "") {
				t.Errorf("want a *TooLargeError, got %T", err)
			}
			if !tt.tooBig && err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestCloneDestination(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"a": "x", "inner/": ""})
	full := t.TempDir()
	writeTree(t, full, map[string]string{"x": "y"})
	tests := []struct{ name, dst string }{
		{"not empty", full},
		{"inside the project", filepath.Join(src, "inner")},
		{"the project itself", src},
		{"missing", filepath.Join(t.TempDir(), "nope")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Clone(context.Background(), src, tt.dst, CloneOptions{}); err == nil {
				t.Fatal("Clone succeeded")
			}
		})
	}
	// An ancestor of the project is not empty anyway, but a link to the project is refused too.
	link := filepath.Join(t.TempDir(), "l")
	must(t, os.Symlink(filepath.Join(src, "inner"), link))
	if _, err := Clone(context.Background(), src, link, CloneOptions{}); err == nil {
		t.Fatal("Clone into a link to the project succeeded")
	}
}

func TestCloneCancelled(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"a": "x", "b/c": "y"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Clone(ctx, src, t.TempDir(), CloneOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestCloneReflink reports whether the file system under the test's temporary
// folder clones files; it fails only when a clone was claimed and the bytes
// are wrong, or the fallback is not used when cloning is off.
func TestCloneReflink(t *testing.T) {
	src := t.TempDir()
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	must(t, os.WriteFile(filepath.Join(src, "big.bin"), big, 0o644))
	for _, opt := range []CloneOptions{{}, {NoReflink: true}} {
		dst := t.TempDir()
		st, err := Clone(context.Background(), src, dst, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dst, "big.bin"))
		if err != nil || string(b) != string(big) {
			t.Fatalf("copy differs (%v)", err)
		}
		switch {
		case opt.NoReflink:
			if st.Reflink != "off" || st.Copied != 1 {
				t.Errorf("NoReflink: %+v", st)
			}
		case st.Reflink == "yes":
			if st.Cloned != 1 {
				t.Errorf("reflink claimed but Cloned = %d", st.Cloned)
			}
			t.Logf("copy-on-write clones are used on this file system (%s)", src)
		default:
			if st.Copied != 1 {
				t.Errorf("fallback copy not counted: %+v", st)
			}
			t.Logf("this file system does not clone files (%s): %s %s; a plain copy was made", src, st.Reflink, st.ReflinkNote)
		}
	}
}

func TestApplyRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"cmd/main.go": "package main\n", "link.go": "-> cmd/main.go", "dl": "-> cmd"})
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	for _, p := range []string{"link.go", "dl/main.go", "dl/new.go"} {
		if err := applyChanges(root, map[string]*[]byte{p: bytesOf("x")}, nil); !errors.Is(err, ErrBadChange) {
			t.Errorf("%s: err = %v, want ErrBadChange", p, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "cmd", "main.go")); string(b) != "package main\n" {
		t.Errorf("written through a link: %q", b)
	}
}
