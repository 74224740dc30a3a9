package app

import (
	"fixplan/editor"
	"fixplan/session"
)

// OpenInEditor opens path (relative to the project, as a plan's diff or its
// context sent names it) at line (0: none) in the user's editor — Settings'
// "Open files with", else $VISUAL, $EDITOR, VS Code, the system's default app —
// and returns what it did in one sentence (saying why the line could not be
// passed when it could not). It does not wait for the editor. A path out of
// the project, no editor found and an editor that cannot be started are
// errors that say what to do.
func (a *App) OpenInEditor(path string, line int) (string, error) {
	s, err := a.session()
	if err != nil {
		return "", err
	}
	st, _ := session.LoadSettings(a.settingsPath())
	o, err := session.OpenInEditor(st, editor.Request{Root: s.Root(), Path: path, Line: line, Getenv: a.d.Getenv})
	if err != nil {
		return "", fail(err)
	}
	return o.Summary(), nil
}
