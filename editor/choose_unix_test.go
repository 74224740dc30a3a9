//go:build unix

package editor

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/plan"
)

// fakeEnv is a project with src/calc.py and an executable run.sh, a folder of
// fake programs outside it (the whole PATH), and an environment.
type fakeEnv struct {
	root, bin string
	env       map[string]string
}

func newFakeEnv(t *testing.T, progs ...string) *fakeEnv {
	t.Helper()
	f := &fakeEnv{root: realTemp(t), bin: realTemp(t)}
	testtree.Write(t, f.root, map[string]string{"src/calc.py": "def divide(a, b):\n    return a / b\n", "app.desktop": "[Desktop Entry]\n"})
	testtree.Scripts(t, f.root, map[string]string{"run.sh": "echo run\n"})
	scripts := map[string]string{}
	for _, p := range progs {
		scripts[p] = "exit 0\n"
	}
	testtree.Scripts(t, f.bin, scripts)
	f.env = map[string]string{"PATH": f.bin, "HOME": realTemp(t)}
	return f
}

// open chooses (a dry run) the command that opens path at line on goos.
func (f *fakeEnv) open(t *testing.T, path string, line int, command, goos string) (Opened, error) {
	t.Helper()
	return Open(Request{Root: f.root, Path: path, Line: line, Command: command, Getenv: func(k string) string { return f.env[k] }, DryRun: true, goos: goos})
}

// TestAutoOrder: $VISUAL, then $EDITOR (a terminal editor in a terminal
// emulator, each known editor with its own line syntax), then VS Code on PATH,
// then the system's default app, which cannot be told the line.
func TestAutoOrder(t *testing.T) {
	all := []string{"code", "subl", "zed", "idea", "gedit", "kate", "vim", "nano", "emacs", "emacsclient", "hx", "myed",
		"x-terminal-emulator", "kitty", "gnome-terminal", "xdg-open"}
	tests := []struct {
		name     string
		progs    []string
		env      map[string]string
		goos     string
		path     string
		want     []string // with F for the file's absolute path and B/ for the fake programs' folder
		via      string
		noLine   bool
		attached bool
		skipped  string
	}{
		{name: "$VISUAL first", env: map[string]string{"VISUAL": "subl -w", "EDITOR": "vim"}, want: []string{"B/subl", "-w", "F:12"}, via: "$VISUAL"},
		{name: "VS Code's -g", env: map[string]string{"EDITOR": "code --wait"}, want: []string{"B/code", "--wait", "-g", "F:12"}, via: "$EDITOR"},
		{name: "JetBrains' --line", env: map[string]string{"EDITOR": "idea"}, want: []string{"B/idea", "--line", "12", "F"}, via: "$EDITOR"},
		{name: "Kate's --line", env: map[string]string{"VISUAL": "kate"}, want: []string{"B/kate", "--line", "12", "F"}, via: "$VISUAL"},
		{name: "gedit's +line", env: map[string]string{"VISUAL": "gedit"}, want: []string{"B/gedit", "+12", "F"}, via: "$VISUAL"},
		{name: "Zed's file:line", env: map[string]string{"VISUAL": "zed"}, want: []string{"B/zed", "F:12"}, via: "$VISUAL"},
		{name: "graphical emacs", env: map[string]string{"EDITOR": "emacs"}, want: []string{"B/emacs", "+12", "F"}, via: "$EDITOR"},
		{name: "emacsclient -n", env: map[string]string{"EDITOR": "emacsclient -n"}, want: []string{"B/emacsclient", "-n", "+12", "F"}, via: "$EDITOR"},
		{name: "a terminal editor in x-terminal-emulator", env: map[string]string{"EDITOR": "vim"},
			want: []string{"B/x-terminal-emulator", "-e", "B/vim", "+12", "F"}, via: "$EDITOR"},
		{name: "emacs -nw in a terminal", env: map[string]string{"EDITOR": "emacs -nw"},
			want: []string{"B/x-terminal-emulator", "-e", "B/emacs", "-nw", "+12", "F"}, via: "$EDITOR"},
		{name: "helix's file:line in a terminal", env: map[string]string{"EDITOR": "hx"},
			want: []string{"B/x-terminal-emulator", "-e", "B/hx", "F:12"}, via: "$EDITOR"},
		{name: "$TERMINAL before x-terminal-emulator", env: map[string]string{"EDITOR": "nano", "TERMINAL": "kitty"},
			want: []string{"B/kitty", "B/nano", "+12", "F"}, via: "$EDITOR"},
		{name: "gnome-terminal takes --", env: map[string]string{"EDITOR": "nano", "TERMINAL": "gnome-terminal"},
			want: []string{"B/gnome-terminal", "--", "B/nano", "+12", "F"}, via: "$EDITOR"},
		{name: "an editor fixplan does not know: no line, in a terminal", env: map[string]string{"EDITOR": "myed --flag"},
			want: []string{"B/x-terminal-emulator", "-e", "B/myed", "--flag", "F"}, via: "$EDITOR", noLine: true},
		{name: "an unknown editor without a terminal runs as it is", progs: []string{"myed", "code"}, env: map[string]string{"EDITOR": "myed"},
			want: []string{"B/myed", "F"}, via: "$EDITOR", noLine: true},
		{name: "no terminal: the terminal editor is passed over for VS Code", progs: []string{"vim", "code", "xdg-open"}, env: map[string]string{"EDITOR": "vim"},
			want: []string{"B/code", "-g", "F:12"}, via: "VS Code, found on PATH", skipped: "$EDITOR (vim) runs in a terminal and no terminal emulator was found: set $TERMINAL"},
		{name: "$TERMINAL not found", progs: []string{"vim", "code", "x-terminal-emulator"}, env: map[string]string{"EDITOR": "vim", "TERMINAL": "nosuchterm"},
			want: []string{"B/code", "-g", "F:12"}, via: "VS Code, found on PATH", skipped: "$EDITOR (vim) runs in a terminal and $TERMINAL (nosuchterm) is not found"},
		{name: "$VISUAL not found, $EDITOR used", env: map[string]string{"VISUAL": "nosuch", "EDITOR": "subl"},
			want: []string{"B/subl", "F:12"}, via: "$EDITOR", skipped: "$VISUAL (nosuch) is not found"},
		{name: "$EDITOR with an unclosed quote", env: map[string]string{"EDITOR": `"subl`},
			want: []string{"B/code", "-g", "F:12"}, via: "VS Code, found on PATH", skipped: `$EDITOR ("subl) is not a command`},
		{name: "nothing set: VS Code", want: []string{"B/code", "-g", "F:12"}, via: "VS Code, found on PATH"},
		{name: "no VS Code: xdg-open, without the line", progs: []string{"vim", "xdg-open"},
			want: []string{"B/xdg-open", "F"}, via: "the system's default app", noLine: true},
		{name: "macOS: open -t", progs: []string{"vim"}, goos: "darwin", env: map[string]string{"EDITOR": "vim"},
			want: []string{"/usr/bin/open", "-t", "F"}, via: "the system's default app", noLine: true, skipped: "$EDITOR (vim) runs in a terminal and fixplan cannot open a terminal window on this system"},
		{name: "Windows: the file's edit verb", progs: []string{"xdg-open"}, goos: "windows",
			want: []string{"F"}, via: "the system's default app", noLine: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			progs := tc.progs
			if progs == nil {
				progs = all
			}
			f := newFakeEnv(t, progs...)
			for k, v := range tc.env {
				f.env[k] = v
			}
			goos := tc.goos
			if goos == "" {
				goos = "linux"
			}
			o, err := f.open(t, "src/calc.py", 12, "", goos)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(f.root, "src", "calc.py")
			var want []string
			for _, w := range tc.want {
				w = strings.Replace(w, "B/", f.bin+"/", 1)
				if strings.HasPrefix(w, "F") {
					w = file + w[1:]
				}
				want = append(want, w)
			}
			if !slices.Equal(o.Argv, want) {
				t.Fatalf("argv = %q\nwant   %q", o.Argv, want)
			}
			if o.Via != tc.via || o.LinePassed == tc.noLine || (o.NoLine != "") != tc.noLine || o.File != "src/calc.py" || o.Started {
				t.Fatalf("opened = %+v", o)
			}
			if got := strings.Join(o.Skipped, "; "); got != tc.skipped {
				t.Fatalf("skipped = %q\nwant      %q", got, tc.skipped)
			}
		})
	}
}

// TestAutoInTheCallersTerminal: the CLI on a terminal runs a terminal editor
// there, with no terminal emulator.
func TestAutoInTheCallersTerminal(t *testing.T) {
	f := newFakeEnv(t, "vim", "x-terminal-emulator", "code")
	f.env["EDITOR"] = "vim"
	req := Request{Root: f.root, Path: "src/calc.py", Line: 3, Getenv: func(k string) string { return f.env[k] }, goos: "linux",
		Terminal: &Terminal{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}}
	if err := req.prepare(); err != nil {
		t.Fatal(err)
	}
	c, err := req.choose(filepath.Join(f.root, "src", "calc.py"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{f.bin + "/vim", "+3", filepath.Join(f.root, "src", "calc.py")}; !slices.Equal(c.argv, want) || !c.attached {
		t.Fatalf("choice = %+v; want %q run in the caller's terminal", c, want)
	}
}

// TestProgramsOfTheProjectAreNeverFound: a PATH entry inside the project (as a
// direnv PATH_add would make) does not let the project pick the editor.
func TestProgramsOfTheProjectAreNeverFound(t *testing.T) {
	f := newFakeEnv(t, "xdg-open")
	testtree.Scripts(t, f.root, map[string]string{"bin/code": "touch pwned\n", "bin/vim": "touch pwned\n", "bin/x-terminal-emulator": "touch pwned\n"})
	testtree.Write(t, f.bin, map[string]string{"vi": "->" + filepath.Join(f.root, "bin", "vim")})
	f.env["PATH"] = filepath.Join(f.root, "bin") + string(os.PathListSeparator) + "bin" + string(os.PathListSeparator) + f.bin
	f.env["EDITOR"] = "vi"
	f.env["VISUAL"] = "vim"
	o, err := f.open(t, "src/calc.py", 2, "", "linux")
	if err != nil {
		t.Fatal(err)
	}
	if o.Argv[0] != f.bin+"/xdg-open" {
		t.Fatalf("argv = %q; want the system's xdg-open, nothing of the project", o.Argv)
	}
	if _, err := f.open(t, "src/calc.py", 2, "code -g {file}:{line}", "linux"); plan.CodeOf(err) != plan.ErrConfig || !strings.Contains(err.Error(), "not on PATH") {
		t.Fatalf("the template's code found in the project: %v", err)
	}
}

// TestNoEditor says what was tried and what to set; xdg-open is never handed
// a file it might run.
func TestNoEditor(t *testing.T) {
	f := newFakeEnv(t, "vim")
	f.env["EDITOR"] = "vim"
	_, err := f.open(t, "src/calc.py", 2, "", "linux")
	want := "no editor found to open the file: $EDITOR (vim) runs in a terminal and no terminal emulator was found: set $TERMINAL; VS Code (code) is not on PATH; xdg-open is not installed"
	if plan.CodeOf(err) != plan.ErrConfig || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	var pe *plan.Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Hint, "Settings → Open files with") || !strings.Contains(pe.Hint, "$VISUAL") {
		t.Fatalf("hint = %+v", pe)
	}
	f = newFakeEnv(t)
	if _, err := f.open(t, "src/calc.py", 2, "", "linux"); err == nil || !strings.Contains(err.Error(), "$VISUAL and $EDITOR are not set; VS Code (code) is not on PATH; xdg-open is not installed") {
		t.Fatalf("nothing at all: %v", err)
	}
	f = newFakeEnv(t, "xdg-open")
	for _, p := range []string{"run.sh", "app.desktop"} {
		_, err := f.open(t, p, 1, "", "linux")
		if plan.CodeOf(err) != plan.ErrConfig || !strings.Contains(err.Error(), "not handed to xdg-open") {
			t.Errorf("%s handed to xdg-open: %v", p, err)
		}
	}
}

// TestTemplateChoice: the command in Settings wins over everything; its
// program is found like the others; a known terminal editor gets a terminal.
func TestTemplateChoice(t *testing.T) {
	f := newFakeEnv(t, "code", "vim", "x-terminal-emulator", "xdg-open")
	f.env["VISUAL"] = "vim"
	file := filepath.Join(f.root, "src", "calc.py")
	testtree.Scripts(t, f.env["HOME"], map[string]string{"bin/my ed": ""})
	tests := []struct {
		tmpl   string
		want   []string
		noLine bool
	}{
		{tmpl: "code -g {file}:{line}", want: []string{f.bin + "/code", "-g", file + ":12"}},
		{tmpl: "  auto ", want: []string{f.bin + "/x-terminal-emulator", "-e", f.bin + "/vim", "+12", file}},
		{tmpl: "vim +{line} {file}", want: []string{f.bin + "/x-terminal-emulator", "-e", f.bin + "/vim", "+12", file}},
		{tmpl: `"~/bin/my ed" --at {line} {file}`, want: []string{f.env["HOME"] + "/bin/my ed", "--at", "12", file}},
		{tmpl: "code", want: []string{f.bin + "/code", file}, noLine: true},
	}
	for _, tc := range tests {
		o, err := f.open(t, "src/calc.py", 12, tc.tmpl, "linux")
		if err != nil {
			t.Fatalf("%s: %v", tc.tmpl, err)
		}
		if !slices.Equal(o.Argv, tc.want) || o.LinePassed == tc.noLine {
			t.Errorf("%s: argv = %q (line passed %v)\nwant %q", tc.tmpl, o.Argv, o.LinePassed, tc.want)
		}
		if strings.TrimSpace(tc.tmpl) != "auto" && o.Via != "Settings" {
			t.Errorf("%s: via %q", tc.tmpl, o.Via)
		}
	}
	refused := []struct{ tmpl, want string }{
		{"nosuch {file}", "the editor nosuch set in Settings → Open files with is not found: not on PATH"},
		{"./ed {file}", "a relative path"},
		{"bin/ed {file}", "a relative path"},
		{f.root + "/src/calc.py {file}", "it is not executable"},
		{f.root + " {file}", "it is a folder"},
		{"/nonexistent/ed {file}", "no such file"},
	}
	for _, tc := range refused {
		_, err := f.open(t, "src/calc.py", 12, tc.tmpl, "linux")
		if plan.CodeOf(err) != plan.ErrConfig || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want ERR_CONFIG saying %q", tc.tmpl, err, tc.want)
		}
	}
	if _, err := f.open(t, "src/calc.py", 12, "code {path}", "linux"); plan.CodeOf(err) != plan.ErrInvalidInput {
		t.Errorf("an unknown placeholder: %v", err)
	}
}
