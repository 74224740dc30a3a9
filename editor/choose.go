package editor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fixplan/context/envprobe"
	"fixplan/plan"
)

// choice is the command chosen to open a file.
type choice struct {
	argv     []string // the program (absolute) and its arguments
	editor   string   // its name as shown
	via      string   // why it
	noLine   string   // why the line is not passed ("": it is)
	attached bool     // run in the caller's terminal, and wait
	edit     bool     // Windows: the system's "edit" of argv[0]
	skipped  []string // automatic choices passed over, and why
}

const (
	viaSettings = "Settings → Open files with"
	setHint     = "set Settings → Open files with (e.g. code -g {file}:{line}), or $VISUAL or $EDITOR"
)

// choose picks the command that opens file (absolute): the template of
// Settings, or the automatic order.
func (r *Request) choose(file string) (choice, error) {
	if cmd := strings.TrimSpace(r.Command); cmd != "" && !strings.EqualFold(cmd, "auto") {
		return r.fromTemplate(cmd, file)
	}
	return r.auto(file)
}

// fromTemplate is the user's own command. A known terminal editor (vim
// +{line} {file}) gets a terminal like $EDITOR does.
func (r *Request) fromTemplate(cmd, file string) (choice, error) {
	t, err := ParseTemplate(cmd)
	if err != nil {
		return choice{}, err
	}
	prog, err := r.look(t.Argv[0])
	if err != nil {
		return choice{}, plan.Errorf(plan.ErrConfig, "the editor %s set in %s is not found: %s", t.Argv[0], viaSettings, err).
			WithHint("give a program on your PATH or its full path, or leave Open files with empty (auto)")
	}
	c := choice{argv: append([]string{prog}, t.Expand(file, r.Line)...), editor: programName(prog), via: "Settings"}
	if !t.HasLine() {
		c.noLine = "the command in " + viaSettings + " has no {line}"
	}
	if k := kindOf(t.Argv); k.known && k.terminal {
		if why := r.inTerminal(&c, viaSettings); why != "" {
			return choice{}, plan.Errorf(plan.ErrConfig, "%s", why).WithHint("run it in a terminal of yours in the command (e.g. xterm -e vim +{line} {file}), or choose a graphical editor")
		}
	}
	return c, nil
}

// auto is the automatic order: $VISUAL, $EDITOR, VS Code on PATH, the system's
// default app.
func (r *Request) auto(file string) (choice, error) {
	var skipped []string
	for _, v := range []string{"VISUAL", "EDITOR"} {
		val := strings.TrimSpace(r.Getenv(v))
		if val == "" {
			continue
		}
		argv, err := SplitArgs(val)
		if err != nil || len(argv) == 0 || argv[0] == "" {
			skipped = append(skipped, fmt.Sprintf("$%s (%s) is not a command", v, val))
			continue
		}
		prog, err := r.look(argv[0])
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("$%s (%s) is not found", v, argv[0]))
			continue
		}
		k := kindOf(argv)
		name := programName(prog)
		c := choice{argv: slices.Concat([]string{prog}, argv[1:], fileArgs(k.syntax, file, r.Line)), editor: name, via: "$" + v}
		if !k.known {
			c.noLine = fmt.Sprintf("fixplan does not know how to give %s a line; set %s, e.g. %s +{line} {file}", name, viaSettings, name)
		}
		if k.terminal {
			if why := r.inTerminal(&c, "$"+v); why != "" {
				if k.known {
					skipped = append(skipped, why)
					continue
				}
				// maybe a graphical editor fixplan does not know: run it as it is
			}
		}
		c.skipped = skipped
		return c, nil
	}
	if prog, err := r.look("code"); err == nil {
		return choice{argv: slices.Concat([]string{prog}, fileArgs(lineGoto, file, r.Line)), editor: "code", via: "VS Code, found on PATH", skipped: skipped}, nil
	}
	c, err := r.systemDefault(file)
	if err != nil {
		return choice{}, noEditor(err, skipped)
	}
	c.skipped = skipped
	return c, nil
}

// inTerminal makes c run in a terminal: the caller's when there is one, else
// a terminal emulator ($TERMINAL, then Debian's x-terminal-emulator). It
// returns why it cannot.
func (r *Request) inTerminal(c *choice, via string) string {
	if r.Terminal != nil {
		c.attached = true
		return ""
	}
	term, err := r.terminalEmulator()
	if err != nil {
		return fmt.Sprintf("%s (%s) runs in a terminal and %s", via, c.editor, err)
	}
	c.argv = slices.Concat(term, c.argv)
	c.editor += " in " + programName(term[0])
	return ""
}

// terminalEmulator is the command prefix that runs a program in a new terminal
// window: $TERMINAL, else x-terminal-emulator (Debian's alternative). macOS and
// Windows have no such command.
func (r *Request) terminalEmulator() ([]string, error) {
	if r.goos == "windows" || r.goos == "darwin" {
		return nil, errors.New("fixplan cannot open a terminal window on this system")
	}
	if v := strings.TrimSpace(r.Getenv("TERMINAL")); v != "" {
		argv, err := SplitArgs(v)
		if err == nil && len(argv) > 0 && argv[0] != "" {
			if prog, err := r.look(argv[0]); err == nil {
				return slices.Concat([]string{prog}, argv[1:], terminalArgs(prog)), nil
			}
		}
		return nil, fmt.Errorf("$TERMINAL (%s) is not found", v)
	}
	if prog, err := r.look("x-terminal-emulator"); err == nil {
		return append([]string{prog}, terminalArgs(prog)...), nil
	}
	return nil, errors.New("no terminal emulator was found: set $TERMINAL")
}

// systemDefault is the system's own way to open a file: xdg-open, macOS's
// open -t (the default text editor), Windows' "edit" of the file. None can be
// told a line.
func (r *Request) systemDefault(file string) (choice, error) {
	c := choice{via: "the system's default app", noLine: "the system's default app cannot be told a line; to jump to the line, " + setHint}
	switch r.goos {
	case "windows":
		c.argv, c.edit, c.editor = []string{file}, true, "the editor Windows edits such files with"
		return c, nil
	case "darwin":
		// -t: the default text editor, never the file's own app (a .command
		// or an .app would run).
		c.argv, c.editor = []string{"/usr/bin/open", "-t", file}, "open -t"
		return c, nil
	}
	prog, err := r.look("xdg-open")
	if err != nil {
		return choice{}, errors.New("xdg-open is not installed")
	}
	if why := mayRun(file); why != "" {
		return choice{}, fmt.Errorf("the file is not handed to xdg-open: %s, and the app it is opened with might run it", why)
	}
	c.argv, c.editor = []string{prog, file}, "xdg-open"
	return c, nil
}

// runnable are file types whose default app may run them rather than show them.
var runnable = []string{".desktop", ".jar", ".appimage", ".run", ".exe", ".msi", ".bat", ".cmd", ".com", ".ps1", ".vbs", ".flatpakref"}

// mayRun says why handing file to xdg-open might run it ("" when it would not):
// an executable file, or a type whose default app runs it.
func mayRun(file string) string {
	if st, err := os.Stat(file); err == nil && st.Mode().Perm()&0o111 != 0 {
		return "it is executable"
	}
	if ext := strings.ToLower(filepath.Ext(file)); slices.Contains(runnable, ext) {
		return "it is a " + ext + " file"
	}
	return ""
}

// noEditor is the error of an automatic choice that found nothing: why each
// step did not open the file.
func noEditor(last error, skipped []string) error {
	why := skipped
	if len(why) == 0 {
		why = []string{"$VISUAL and $EDITOR are not set"}
	}
	why = append(slices.Clone(why), "VS Code (code) is not on PATH", last.Error())
	return plan.Errorf(plan.ErrConfig, "no editor found to open the file: %s", strings.Join(why, "; ")).WithHint(setHint)
}

// look finds the program name: a full path (or ~/…) as it is, a bare name on
// PATH without the project's folders (envprobe.LookOutside). A relative path
// is refused: relative to what would be the project's choice.
func (r *Request) look(name string) (string, error) {
	if rest, ok := strings.CutPrefix(name, "~"); ok && (rest == "" || rest[0] == '/' || rest[0] == '\\') {
		home := r.Getenv("HOME")
		if r.goos == "windows" && home == "" {
			home = r.Getenv("USERPROFILE")
		}
		if home == "" {
			return "", errors.New("~ is used but $HOME is not set")
		}
		name = filepath.Join(home, rest)
	}
	if filepath.IsAbs(name) {
		st, err := os.Stat(name)
		switch {
		case err != nil:
			return "", errors.New("no such file")
		case st.IsDir():
			return "", errors.New("it is a folder")
		case r.goos != "windows" && st.Mode().Perm()&0o111 == 0:
			return "", errors.New("it is not executable")
		}
		return name, nil
	}
	if strings.ContainsAny(name, `/\`) {
		return "", errors.New("a relative path: give the program's name on PATH or its full path")
	}
	p, err := envprobe.LookOutside(name, r.root, r.Getenv("PATH"))
	if err != nil {
		return "", errors.New("not on PATH")
	}
	return p, nil
}
