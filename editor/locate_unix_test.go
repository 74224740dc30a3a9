//go:build unix

package editor

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/plan"
)

// realTemp is a temporary folder with its symlinks resolved (macOS's /var).
func realTemp(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLocateConfines opens only regular files of the project: a path the
// model named cannot climb out, be absolute, follow a link out or into .git,
// nor name a folder or a special file; a name that looks like an option comes
// back as an absolute path.
func TestLocateConfines(t *testing.T) {
	root, out := realTemp(t), realTemp(t)
	testtree.Write(t, out, map[string]string{"secret.txt": "s", "dir/x.txt": "x"})
	testtree.Write(t, root, map[string]string{
		"src/a.go": "package a\n", "-e": "x", "--foo": "x", "src/-rf": "x", ".env": "K=v", ".git/config": "[core]",
		"link-out": "->" + filepath.Join(out, "secret.txt"), "dir-out": "->" + filepath.Join(out, "dir"),
		"abs-in": "->" + filepath.Join(root, "src", "a.go"), "rel-in": "->src/a.go", "into-git": "->.git/config",
		"dangling": "->nowhere",
	})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := []struct{ path, rel string }{
		{"src/a.go", "src/a.go"},
		{"./src/./a.go", "src/a.go"},
		{`src\a.go`, "src/a.go"},
		{"-e", "-e"},
		{"--foo", "--foo"},
		{"src/-rf", "src/-rf"},
		{"abs-in", "src/a.go"},
		{"rel-in", "src/a.go"},
		{".env", ".env"}, // a secret file stays on the machine: it may be opened
	}
	for _, tc := range ok {
		abs, rel, err := Locate(root, tc.path)
		if err != nil || rel != tc.rel || abs != filepath.Join(root, filepath.FromSlash(tc.rel)) {
			t.Errorf("Locate(%q) = %q, %q, %v; want %q", tc.path, abs, rel, err, tc.rel)
		}
		if !strings.HasPrefix(abs, "/") {
			t.Errorf("Locate(%q) = %q: not an absolute path", tc.path, abs)
		}
	}
	refused := []struct {
		path string
		code plan.Code
	}{
		{"../" + filepath.Base(out) + "/secret.txt", plan.ErrPathOutsideRoot},
		{"src/../../x", plan.ErrPathOutsideRoot},
		{"src/../src/a.go", plan.ErrPathOutsideRoot}, // any .. is refused, as in every path the model names
		{filepath.Join(out, "secret.txt"), plan.ErrPathOutsideRoot},
		{filepath.Join(root, "src", "a.go"), plan.ErrPathOutsideRoot}, // absolute even inside: the model names relative paths
		{"~/.ssh/id_rsa", plan.ErrPathOutsideRoot},
		{"link-out", plan.ErrPathOutsideRoot},
		{"dir-out/x.txt", plan.ErrPathOutsideRoot},
		{".git/config", plan.ErrProtectedPath},
		{"into-git", plan.ErrProtectedPath},
		{"missing.go", plan.ErrNotFound},
		{"dangling", plan.ErrNotFound},
		{"src", plan.ErrInvalidInput},
		{"fifo", plan.ErrInvalidInput},
		{"", plan.ErrInvalidInput},
		{"src/a.go\x00x", plan.ErrInvalidInput},
	}
	for _, tc := range refused {
		abs, _, err := Locate(root, tc.path)
		if plan.CodeOf(err) != tc.code {
			t.Errorf("Locate(%q) = %q, %v; want %s", tc.path, abs, err, tc.code)
		}
	}
	_, _, err := Locate(root, "link-out")
	if msg := err.Error(); !strings.Contains(msg, "not opened in the editor") || !strings.Contains(msg, "outside the project root") {
		t.Errorf("refusal = %q", msg)
	}
}
