// Package editor opens a file of the open project at a line in the user's own
// editor ("jump to the code": a diff's file header, a stack frame of the
// context sent, `fixplan open FILE:LINE`).
//
// The file and the line come from the model or the project and are untrusted:
// the path is confined to the project (Locate: projfs's rules, no way out of
// the root, no link that leads out), the editor is given its absolute path (never
// read as an option) and the line as a number, each as its own argument of a
// program started without a shell, so neither can become an option or a second
// command. The command is the user's: the "Open files with" setting (a template
// with {file} and {line}, template.go), or, automatically, $VISUAL, then
// $EDITOR (a terminal editor in a terminal emulator), then VS Code, then the
// system's default app (choose.go). Programs are looked up on a PATH without
// the project's folders, so a project cannot ship its own "code". The editor is
// started detached, with no output inherited, and never waited for (launch.go),
// except a terminal editor run in the terminal the CLI was started from.
package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"fixplan/plan"
)

// Request is one file to open.
type Request struct {
	// Root is the open project's folder.
	Root string
	// Path is the file, relative to Root (from the model, the project or the
	// user: confined by Locate).
	Path string
	// Line is the line to open at (1-based); < 1: none.
	Line int
	// Command is the "Open files with" setting: "" (or "auto") chooses
	// automatically, anything else is a command template (ParseTemplate).
	Command string
	// Getenv reads VISUAL, EDITOR, TERMINAL, PATH and HOME; nil: os.Getenv.
	Getenv func(string) string
	// Env is the editor's environment; nil: os.Environ().
	Env []string
	// Terminal is the terminal the caller runs in (the CLI on a terminal): a
	// terminal editor (vim, nano) runs there and Open returns when it exits.
	// nil: a terminal editor gets a terminal emulator of its own.
	Terminal *Terminal
	// DryRun chooses the command and reports it without starting anything.
	DryRun bool

	goos string // runtime.GOOS; tests set another
	root string // Root, absolute with symlinks resolved
}

// Terminal is the caller's terminal.
type Terminal struct{ In, Out, Err *os.File }

// Opened says what Open started.
type Opened struct {
	File       string   `json:"file"` // root-relative, symlinks resolved
	Line       int      `json:"line"`
	LinePassed bool     `json:"line_passed"`       // the editor was told the line
	Editor     string   `json:"editor"`            // "code", "vim in x-terminal-emulator", "xdg-open"
	Via        string   `json:"via"`               // why it: "Settings", "$VISUAL", "$EDITOR", …
	NoLine     string   `json:"no_line,omitempty"` // why the line was not passed, when there was one
	Skipped    []string `json:"skipped,omitempty"` // automatic choices passed over, and why
	Argv       []string `json:"argv"`              // the command (a Windows "edit" of the file: just the file)
	Started    bool     `json:"started"`           // false for a dry run
}

// Summary is one line for the person who asked: what was opened, with what, and
// why the line could not be passed when it could not.
func (o Opened) Summary() string {
	verb := "Opened"
	if !o.Started {
		verb = "Would open"
	}
	where := o.File
	if o.LinePassed {
		where = fmt.Sprintf("%s at line %d", o.File, o.Line)
	}
	s := fmt.Sprintf("%s %s with %s (%s).", verb, where, o.Editor, o.Via)
	if o.NoLine != "" {
		s += fmt.Sprintf(" Not at line %d: %s.", o.Line, o.NoLine)
	}
	for _, k := range o.Skipped {
		s += " " + upperFirst(k) + "."
	}
	return s
}

// Command is the command as one line a person can read ("" for a Windows edit).
func (o Opened) Command() string { return quoteArgs(o.Argv) }

// Open opens req.Path at req.Line in the user's editor and returns what it
// started. It fails with a *plan.Error: the path's refusal (Locate), a bad
// template (ERR_INVALID_INPUT), no editor found or a program that could not be
// started (ERR_CONFIG, saying which and what to set). A started editor that
// fails later (it exits with an error) is not seen.
func Open(req Request) (Opened, error) {
	if err := req.prepare(); err != nil {
		return Opened{}, err
	}
	abs, rel, err := Locate(req.root, req.Path)
	if err != nil {
		return Opened{}, err
	}
	c, err := req.choose(abs)
	if err != nil {
		return Opened{}, err
	}
	o := Opened{File: rel, Line: max(req.Line, 0), Editor: c.editor, Via: c.via, Skipped: c.skipped, Argv: c.argv}
	if req.Line > 0 {
		o.NoLine = c.noLine
		o.LinePassed = c.noLine == ""
	}
	if req.DryRun {
		return o, nil
	}
	if err := c.start(&req); err != nil {
		return o, err
	}
	o.Started = true
	return o, nil
}

// prepare fills in the defaults and finds the root's real folder (programs are
// never looked up inside it).
func (req *Request) prepare() error {
	if req.Getenv == nil {
		req.Getenv = os.Getenv
	}
	if req.Env == nil {
		req.Env = os.Environ()
	}
	if req.goos == "" {
		req.goos = runtime.GOOS
	}
	abs, err := filepath.Abs(req.Root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return plan.Errorf(plan.ErrInvalidInput, "the project folder %s does not exist", req.Root).WithHint("open an existing project folder")
	}
	req.root = abs
	return nil
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
