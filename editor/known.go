package editor

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// lineSyntax is how an editor is told the line to open a file at.
type lineSyntax int

const (
	lineUnknown lineSyntax = iota // fixplan does not know: the file only
	linePlus                      // +LINE FILE (vi, nano, emacs, gedit, …)
	lineGoto                      // -g FILE:LINE (VS Code and its forks)
	lineColon                     // FILE:LINE (Sublime Text, Zed, Helix)
	lineFlag                      // --line LINE FILE (Kate, JetBrains IDEs)
)

// editorKind is what fixplan knows of an editor program.
type editorKind struct {
	syntax lineSyntax
	// terminal: it draws in a terminal, so it needs one (vim, nano, emacs -nw).
	terminal bool
	known    bool
}

var (
	plusGUI      = []string{"gvim", "mvim", "gedit", "gnome-text-editor", "pluma", "xed"}
	plusTerminal = []string{"vi", "vim", "nvim", "view", "nano", "pico", "micro", "kak", "joe", "mg", "ne", "jed"}
	gotoGUI      = []string{"code", "code-insiders", "codium", "vscodium", "cursor", "windsurf"}
	colonGUI     = []string{"subl", "sublime_text", "zed", "zeditor"}
	colonTermnl  = []string{"hx", "helix"}
	flagGUI      = []string{"kate", "kwrite", "idea", "idea.sh", "pycharm", "goland", "webstorm", "clion", "phpstorm", "rubymine", "rider"}
)

// programName is the editor's name without folder and Windows extension,
// lower case: "/usr/bin/nvim" → "nvim", `C:\…\Code.exe` → "code".
func programName(prog string) string {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(prog, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// kindOf says what fixplan knows of the editor command argv ($VISUAL or
// $EDITOR, split): its line syntax and whether it needs a terminal. Emacs and
// emacsclient need one only when told so (-nw, -t, --tty); vim -g is gvim.
func kindOf(argv []string) editorKind {
	name, args := programName(argv[0]), argv[1:]
	has := func(flags ...string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return slices.Contains(flags, a) })
	}
	switch {
	case name == "emacs":
		return editorKind{syntax: linePlus, terminal: has("-nw", "--no-window-system", "-t", "--terminal"), known: true}
	case name == "emacsclient":
		return editorKind{syntax: linePlus, terminal: has("-t", "-nw", "--tty"), known: true}
	case name == "vim" && has("-g"):
		return editorKind{syntax: linePlus, known: true}
	case slices.Contains(plusGUI, name):
		return editorKind{syntax: linePlus, known: true}
	case slices.Contains(plusTerminal, name):
		return editorKind{syntax: linePlus, terminal: true, known: true}
	case slices.Contains(gotoGUI, name):
		return editorKind{syntax: lineGoto, known: true}
	case slices.Contains(colonGUI, name):
		return editorKind{syntax: lineColon, known: true}
	case slices.Contains(colonTermnl, name):
		return editorKind{syntax: lineColon, terminal: true, known: true}
	case slices.Contains(flagGUI, name):
		return editorKind{syntax: lineFlag, known: true}
	}
	// An editor fixplan does not know: $EDITOR names a terminal editor by
	// convention, so it is given a terminal when one is found.
	return editorKind{terminal: true}
}

// fileArgs are the arguments that open file at line in an editor of syntax s
// (line < 1: the file only). file is absolute, so it never reads as an option.
func fileArgs(s lineSyntax, file string, line int) []string {
	if line < 1 {
		return []string{file}
	}
	n := strconv.Itoa(line)
	switch s {
	case linePlus:
		return []string{"+" + n, file}
	case lineGoto:
		return []string{"-g", file + ":" + n}
	case lineColon:
		return []string{file + ":" + n}
	case lineFlag:
		return []string{"--line", n, file}
	}
	return []string{file}
}

// terminalArgs are the arguments after the terminal emulator term that make
// it run argv: Debian's x-terminal-emulator and most terminals take -e followed
// by the program and its arguments, each its own argument.
func terminalArgs(term string) []string {
	switch programName(term) {
	case "gnome-terminal", "kgx", "ptyxis":
		return []string{"--"}
	case "wezterm":
		return []string{"start", "--"}
	case "kitty", "foot":
		return nil
	}
	return []string{"-e"}
}
