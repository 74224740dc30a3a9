//go:build unix

package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixplan/internal/testtree"
	"fixplan/plan"
)

// TestOpenInEditorThroughTheApp saves "Open files with" as the window does and
// opens a file at a line with it: a real fake editor records what it got. A
// path out of the project and a missing file are errors the window shows.
func TestOpenInEditorThroughTheApp(t *testing.T) {
	a, _, root, _ := newApp(t)
	if _, err := a.OpenInEditor("calc.py", 2); appErr(t, err).Code != plan.ErrInvalidInput {
		t.Fatalf("no project open: %v", err)
	}
	if _, err := a.OpenProject(root); err != nil {
		t.Fatal(err)
	}
	tools := t.TempDir()
	out := filepath.Join(tools, "argv")
	testtree.Scripts(t, tools, map[string]string{"fake editor": `printf '%s\n' "$@" > "` + out + `.tmp" && mv "` + out + `.tmp" "` + out + "\"\n"})
	v, _ := a.GetSettings()
	v.OpenWith = `"` + filepath.Join(tools, "fake editor") + `" {file}:{line}`
	if _, err := a.SaveSettings(v, ""); err != nil {
		t.Fatal(err)
	}
	msg, err := a.OpenInEditor("calc.py", 2)
	if err != nil || msg != "Opened calc.py at line 2 with fake editor (Settings)." {
		t.Fatalf("OpenInEditor = %q, %v", msg, err)
	}
	var got []byte
	for i := 0; i < 500 && got == nil; i++ {
		got, _ = os.ReadFile(out)
		time.Sleep(20 * time.Millisecond)
	}
	real, _ := filepath.EvalSymlinks(root)
	if string(got) != filepath.Join(real, "calc.py")+":2\n" {
		t.Fatalf("the editor got %q", got)
	}
	for _, tc := range []struct {
		path string
		code plan.Code
	}{{"../x.py", plan.ErrPathOutsideRoot}, {"gone.py", plan.ErrNotFound}} {
		_, err := a.OpenInEditor(tc.path, 1)
		if ae := appErr(t, err); ae.Code != tc.code || !strings.Contains(ae.Message, "not opened in the editor") || ae.Hint == "" {
			t.Errorf("%s: %+v", tc.path, ae)
		}
	}
	v.OpenWith = "code {path}"
	if _, err := a.SaveSettings(v, ""); appErr(t, err).Code != plan.ErrInvalidInput {
		t.Fatalf("an unknown placeholder saved: %v", err)
	}
}
