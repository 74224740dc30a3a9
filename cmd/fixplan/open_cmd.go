package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"fixplan/editor"
	"fixplan/session"
)

// runOpen implements `fixplan open FILE[:LINE]`: the file of the project opened
// at the line in the user's editor, as the window's links do (the settings'
// "Open files with", else $VISUAL, $EDITOR, code, the system's default).
func runOpen(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	line := fs.Int("line", 0, "open at `LINE` (instead of FILE:LINE)")
	dry := fs.Bool("dry-run", false, "print the command that would open the file; start nothing")
	asJSON := fs.Bool("json", false, "print what was opened as JSON")
	fs.Usage = func() {
		fmt.Fprint(e.Stderr, "usage: fixplan [--root DIR] open [--line N] [--dry-run] [--json] FILE[:LINE]\n\n"+
			"Opens FILE (relative to the project root) at LINE in your editor: the settings' open_with\n"+
			"command (e.g. \"code -g {file}:{line}\"), else $VISUAL, $EDITOR, VS Code, the system's default app.\n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	path, ln := splitFileLine(fs.Arg(0))
	if *line > 0 {
		ln = *line
	}
	st, err := loadSettings(e)
	if err != nil {
		return fail(e, "open", err, *asJSON)
	}
	o, err := session.OpenInEditor(st, editor.Request{Root: e.Root, Path: rootRelative(e.Root, path), Line: ln,
		Getenv: e.Getenv, Terminal: e.Term, DryRun: *dry})
	if err != nil {
		return fail(e, "open", err, *asJSON)
	}
	if *asJSON {
		writeJSON(e.Stdout, struct {
			editor.Opened
			Summary string `json:"summary"`
		}{o, o.Summary()})
		return 0
	}
	fmt.Fprintln(e.Stdout, o.Summary())
	if *dry {
		fmt.Fprintln(e.Stdout, "  "+o.Command())
	}
	return 0
}

// rootRelative turns an absolute path inside root into the root-relative path
// every command takes; anything else is left for the editor's confinement to
// judge.
func rootRelative(root, path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	for _, r := range []string{root, realPath(root)} {
		if rel, err := filepath.Rel(r, path); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return path
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// splitFileLine reads FILE:LINE and FILE:LINE:COLUMN (a frame as tools print
// it; the column is dropped); anything else is a file name.
func splitFileLine(s string) (string, int) {
	cut := func(s string) (string, int, bool) {
		i := strings.LastIndexByte(s, ':')
		if i <= 0 {
			return s, 0, false
		}
		n, err := strconv.Atoi(s[i+1:])
		if err != nil || n < 0 || s[i+1] == '+' || s[i+1] == '-' {
			return s, 0, false
		}
		return s[:i], n, true
	}
	path, n, ok := cut(s)
	if !ok {
		return s, 0
	}
	if p, line, ok := cut(path); ok {
		return p, line
	}
	return path, n
}
