//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"fixplan/internal/testtree"
	"fixplan/session"
)

// TestOpenCommand opens a project file at a line with the settings' "Open
// files with" command — a real fake editor that writes its arguments — and
// refuses a path out of the project.
func TestOpenCommand(t *testing.T) {
	root, tools := cliProject(t), t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	out := filepath.Join(tools, "argv")
	testtree.Scripts(t, tools, map[string]string{"ed": `printf '%s\n' "$@" > "` + out + `.tmp" && mv "` + out + `.tmp" "` + out + "\"\n"})
	st := session.DefaultSettings()
	st.OpenWith = filepath.Join(tools, "ed") + " --goto {file}:{line}"
	settings := filepath.Join(t.TempDir(), "settings.json")
	if err := session.SaveSettings(settings, st); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"FIXPLAN_SETTINGS": settings, "PATH": tools}
	read := func() string {
		t.Helper()
		for i := 0; i < 500; i++ {
			if b, err := os.ReadFile(out); err == nil {
				os.Remove(out)
				return string(b)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("the editor never ran")
		return ""
	}
	calc := filepath.Join(real, "calc.py")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"open", "calc.py:2"}, "--goto\n" + calc + ":2\n"},
		{[]string{"open", "calc.py:2:9"}, "--goto\n" + calc + ":2\n"},
		{[]string{"open", "--line", "1", "calc.py"}, "--goto\n" + calc + ":1\n"},
		{[]string{"open", calc + ":2"}, "--goto\n" + calc + ":2\n"},
	} {
		code, stdout, stderr := runEnv(t, vars, "", append([]string{"--root", root}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		if got := read(); got != tc.want {
			t.Fatalf("%v: the editor got %q, want %q", tc.args, got, tc.want)
		}
		if !strings.HasPrefix(stdout, "Opened calc.py at line ") || !strings.Contains(stdout, "with ed (Settings)") {
			t.Fatalf("%v: stdout %q", tc.args, stdout)
		}
	}

	code, stdout, _ := runEnv(t, vars, "", "--root", root, "open", "--dry-run", "test_calc.py:5")
	if code != 0 || stdout != "Would open test_calc.py at line 5 with ed (Settings).\n  "+filepath.Join(tools, "ed")+" --goto "+filepath.Join(real, "test_calc.py")+":5\n" {
		t.Fatalf("dry run: %d %q", code, stdout)
	}
	code, stdout, _ = runEnv(t, vars, "", "--root", root, "open", "--dry-run", "--json", "calc.py:2")
	var j struct {
		File       string   `json:"file"`
		Line       int      `json:"line"`
		LinePassed bool     `json:"line_passed"`
		Argv       []string `json:"argv"`
		Summary    string   `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil || code != 0 || j.File != "calc.py" || j.Line != 2 || !j.LinePassed || len(j.Argv) != 3 || j.Summary == "" {
		t.Fatalf("--json: %d %q %v", code, stdout, err)
	}

	outside := filepath.Join(t.TempDir(), "x.py")
	os.WriteFile(outside, []byte("x"), 0o644)
	for _, p := range []string{"../x.py", outside, "missing.py:3"} {
		code, _, stderr := runEnv(t, vars, "", "--root", root, "open", p)
		if code != 1 || !strings.HasPrefix(stderr, "fixplan open: ERR_") || !strings.Contains(stderr, "not opened in the editor") {
			t.Errorf("open %s: exit %d, %q", p, code, stderr)
		}
	}
	if code, _, _ := runEnv(t, vars, "", "--root", root, "open"); code != 2 {
		t.Errorf("open without a file: exit %d", code)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a refused or dry run started the editor")
	}
}

// TestOpenWithoutAnEditor says what to set (macOS always has open -t).
func TestOpenWithoutAnEditor(t *testing.T) {
	root := cliProject(t)
	if runtime.GOOS == "darwin" {
		code, stdout, _ := runEnv(t, map[string]string{"PATH": t.TempDir()}, "", "--root", root, "open", "--dry-run", "calc.py:2")
		if code != 0 || !strings.Contains(stdout, "/usr/bin/open -t ") {
			t.Fatalf("exit %d: %s", code, stdout)
		}
		return
	}
	code, _, stderr := runEnv(t, map[string]string{"PATH": t.TempDir()}, "", "--root", root, "open", "calc.py:2")
	if code != 1 || !strings.Contains(stderr, "fixplan open: ERR_CONFIG: no editor found") || !strings.Contains(stderr, "Open files with") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestSplitFileLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		path string
		line int
	}{
		{"calc.py", "calc.py", 0},
		{"calc.py:12", "calc.py", 12},
		{"calc.py:12:5", "calc.py", 12},
		{`C:\p\calc.py:3`, `C:\p\calc.py`, 3},
		{"a:b.py", "a:b.py", 0},
		{"calc.py:", "calc.py:", 0},
		{"calc.py:+3", "calc.py:+3", 0},
		{":3", ":3", 0},
	} {
		if p, l := splitFileLine(tc.in); p != tc.path || l != tc.line {
			t.Errorf("splitFileLine(%q) = %q, %d; want %q, %d", tc.in, p, l, tc.path, tc.line)
		}
	}
}
