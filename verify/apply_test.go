package verify

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func bytesOf(s string) *[]byte { b := []byte(s); return &b }

func TestApplyChanges(t *testing.T) {
	tests := []struct {
		name    string
		changes map[string]*[]byte
		modes   map[string]fs.FileMode
		bad     bool              // ErrBadChange
		want    map[string]string // path → content ("" with gone: absent)
		gone    []string
		mode    map[string]fs.FileMode
	}{
		{name: "update keeps the mode", changes: map[string]*[]byte{"run.sh": bytesOf("#!/bin/sh\necho 2\n")},
			want: map[string]string{"run.sh": "#!/bin/sh\necho 2\n"}, mode: map[string]fs.FileMode{"run.sh": 0o755}},
		{name: "create with folders and default mode", changes: map[string]*[]byte{"new/deep/x.go": bytesOf("package deep\n")},
			want: map[string]string{"new/deep/x.go": "package deep\n"}, mode: map[string]fs.FileMode{"new/deep/x.go": 0o644}},
		{name: "create executable", changes: map[string]*[]byte{"tool.sh": bytesOf("#!/bin/sh\n")},
			modes: map[string]fs.FileMode{"tool.sh": 0o755}, mode: map[string]fs.FileMode{"tool.sh": 0o755}},
		{name: "delete, and delete what is already gone", changes: map[string]*[]byte{"a.txt": nil, "never.txt": nil},
			gone: []string{"a.txt"}},
		{name: "empty file", changes: map[string]*[]byte{"a.txt": bytesOf("")}, want: map[string]string{"a.txt": ""}},
		{name: "climbs out", changes: map[string]*[]byte{"../x": bytesOf("x")}, bad: true},
		{name: "absolute", changes: map[string]*[]byte{"/tmp/x": bytesOf("x")}, bad: true},
		{name: "not clean", changes: map[string]*[]byte{"a/../b": bytesOf("x")}, bad: true},
		{name: "backslash", changes: map[string]*[]byte{`.git\config`: bytesOf("x")}, bad: true},
		{name: "git folder", changes: map[string]*[]byte{".git/config": bytesOf("[core]")}, bad: true},
		{name: "git folder in another spelling", changes: map[string]*[]byte{"sub/.GIT/hooks/pre-commit": bytesOf("x")}, bad: true},
		{name: "fixplan state", changes: map[string]*[]byte{".fixplan/plans/p.json": bytesOf("{}")}, bad: true},
		{name: "a folder", changes: map[string]*[]byte{"dir": bytesOf("x")}, bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"a.txt": "a", "run.sh": "#!/bin/sh\n", "dir/f": "f"})
			must(t, os.Chmod(filepath.Join(dir, "run.sh"), 0o755))
			root, err := os.OpenRoot(dir)
			must(t, err)
			defer root.Close()
			err = applyChanges(root, tt.changes, tt.modes)
			if tt.bad {
				if !errors.Is(err, ErrBadChange) {
					t.Fatalf("err = %v, want ErrBadChange", err)
				}
				return
			}
			must(t, err)
			for p, want := range tt.want {
				if b, err := os.ReadFile(filepath.Join(dir, p)); err != nil || string(b) != want {
					t.Errorf("%s = %q, %v; want %q", p, b, err, want)
				}
			}
			for _, p := range tt.gone {
				if _, err := os.Lstat(filepath.Join(dir, p)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s still there", p)
				}
			}
			if runtime.GOOS != "windows" {
				for p, m := range tt.mode {
					if fi, err := os.Stat(filepath.Join(dir, p)); err != nil || fi.Mode().Perm() != m {
						t.Errorf("%s mode = %v, want %v", p, fi.Mode().Perm(), m)
					}
				}
			}
		})
	}
}
