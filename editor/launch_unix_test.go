//go:build unix

package editor

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixplan/internal/testtree"
	"fixplan/plan"
)

// recorder is the body of a fake editor: it waits until the file go exists
// (when given), then writes its arguments, one a line, its working folder and
// $FAKE_ENV to out (atomically: the test waits for the file), and on Linux
// what its standard streams are and whether it leads its own session.
func recorder(out, goFile string) string {
	wait := ""
	if goFile != "" {
		wait = "while [ ! -e '" + goFile + "' ]; do sleep 0.02; done\n"
	}
	return wait + `if [ -d /proc/$$ ]; then
  fds="fds=$(readlink /proc/$$/fd/0) $(readlink /proc/$$/fd/1) $(readlink /proc/$$/fd/2)"
  read -r stat < /proc/$$/stat
  # the fields after the command's name: state, ppid, pgrp, session, …
  sid() { [ "$4" = "$$" ] && echo own || echo inherited; }
  session=$(sid ${stat##*) })
fi
{ for a in "$@"; do printf '%s\n' "$a"; done
printf 'cwd=%s\n' "$(pwd -P)"
printf 'env=%s\n' "$FAKE_ENV"
[ -n "$fds" ] && printf '%s\nsession=%s\n' "$fds" "$session"
} > '` + out + `.tmp' && mv '` + out + `.tmp' '` + out + "'\n"
}

// waitFile waits (at most 10 s: a slow machine) for the fake editor's record.
func waitFile(t *testing.T, p string) []string {
	t.Helper()
	for i := 0; i < 500; i++ {
		if b, err := os.ReadFile(p); err == nil {
			return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the editor never wrote %s", p)
	return nil
}

// TestOpenStartsTheEditor starts a real fake editor from a template — its
// path has a blank — for files whose names hold shell syntax, quotes and
// option-looking names: it receives exactly the arguments of the template,
// the file as its absolute path, nothing runs that the names spell, it starts
// in the project with the environment given, detached, with no stream of
// fixplan's, and Open does not wait for it.
func TestOpenStartsTheEditor(t *testing.T) {
	root, tools := realTemp(t), realTemp(t)
	hostile := "dir with space/a;b $(touch pwned) `touch pwned2` 'q' \"d\" & x.py"
	testtree.Write(t, root, map[string]string{hostile: "x\n", "-e": "x\n", "--foo": "x\n"})
	out, goFile := filepath.Join(tools, "argv"), filepath.Join(tools, "go")
	testtree.Scripts(t, tools, map[string]string{"my editor/ed": recorder(out, goFile)})
	tmpl := `"` + filepath.Join(tools, "my editor", "ed") + `" --goto {file}:{line} -n +{line}`
	for i, tc := range []struct {
		path string
		line int
	}{{hostile, 42}, {"-e", 1}, {"--foo", 0}} {
		os.Remove(out)
		os.Remove(goFile)
		o, err := Open(Request{Root: root, Path: tc.path, Line: tc.line, Command: tmpl, Env: append(os.Environ(), "FAKE_ENV=given"), goos: runtime.GOOS})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatal("Open waited for the editor")
		}
		if !o.Started || o.Via != "Settings" || o.LinePassed != (tc.line > 0) {
			t.Fatalf("opened = %+v", o)
		}
		if err := os.WriteFile(goFile, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		got := waitFile(t, out)
		file := filepath.Join(root, filepath.FromSlash(tc.path))
		ln := strconv.Itoa(max(tc.line, 1)) // no line: line 1
		want := []string{"--goto", file + ":" + ln, "-n", "+" + ln, "cwd=" + root, "env=given"}
		if runtime.GOOS == "linux" {
			want = append(want, "fds=/dev/null /dev/null /dev/null", "session=own")
		}
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: the editor got\n%q\nwant\n%q", i, got, want)
		}
	}
	for _, p := range []string{"pwned", "pwned2", "dir with space/pwned"} {
		for _, dir := range []string{root, tools} {
			if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
				t.Fatalf("a file name ran a command: %s exists", filepath.Join(dir, p))
			}
		}
	}
}

// TestOpenThroughTheTerminalEmulator runs the automatic choice for real:
// $EDITOR=vim (a fake one, on the PATH given) through a fake
// x-terminal-emulator that runs what follows its -e.
func TestOpenThroughTheTerminalEmulator(t *testing.T) {
	root, bin := realTemp(t), realTemp(t)
	testtree.Write(t, root, map[string]string{"src/calc.py": "x\n"})
	out := filepath.Join(bin, "argv")
	testtree.Scripts(t, bin, map[string]string{
		"x-terminal-emulator": "[ \"$1\" = -e ] || exit 3\nshift\nexec \"$@\"\n",
		"vim":                 recorder(out, ""),
	})
	env := map[string]string{"PATH": bin, "EDITOR": "vim"}
	o, err := Open(Request{Root: root, Path: "src/calc.py", Line: 7, Getenv: func(k string) string { return env[k] }, goos: runtime.GOOS})
	if err != nil {
		t.Fatal(err)
	}
	if o.Editor != "vim in x-terminal-emulator" || o.Via != "$EDITOR" || !o.LinePassed {
		t.Fatalf("opened = %+v", o)
	}
	got := waitFile(t, out)
	if want := []string{"+7", filepath.Join(root, "src", "calc.py")}; !slices.Equal(got[:2], want) {
		t.Fatalf("vim got %q; want %q", got, want)
	}
}

// TestOpenFailsToStart names the program and why: a script without a #! line
// cannot be executed.
func TestOpenFailsToStart(t *testing.T) {
	root, tools := realTemp(t), realTemp(t)
	testtree.Write(t, root, map[string]string{"a.py": "x\n"})
	bad := filepath.Join(tools, "ed")
	if err := os.WriteFile(bad, []byte("echo no shebang\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Open(Request{Root: root, Path: "a.py", Line: 1, Command: bad + " {file}", goos: runtime.GOOS})
	if plan.CodeOf(err) != plan.ErrConfig || !strings.Contains(err.Error(), "the editor "+bad+" (Settings) could not be started: exec format error") {
		t.Fatalf("err = %v", err)
	}
}
