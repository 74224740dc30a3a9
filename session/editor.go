package session

import (
	"os"
	"strings"

	"fixplan/editor"
)

// OpenInEditor opens req.Path (relative to req.Root; from the model, the
// project or the user, so editor.Locate confines it) at req.Line in the user's
// editor, the way both edges do: with the command of st.OpenWith, else the
// automatic choice ($VISUAL, $EDITOR, VS Code, the system's default app). The
// editor is the user's own program, started without a shell; like every
// command fixplan starts it runs without the provider key variables in its
// environment. The errors are editor.Open's.
func OpenInEditor(st Settings, req editor.Request) (editor.Opened, error) {
	req.Command = st.OpenWith
	req.Env = commandEnv(os.Environ(), req.Root)
	return editor.Open(req)
}

// storedOpenWith is the stored form of "Open files with": trimmed, "" for auto.
func storedOpenWith(s string) string {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "auto") {
		return ""
	}
	return s
}

// validOpenWith refuses an "Open files with" command that cannot be used
// (editor.ParseTemplate: an unclosed quote, an unknown placeholder).
func validOpenWith(s string) error {
	if s = storedOpenWith(s); s == "" {
		return nil
	}
	_, err := editor.ParseTemplate(s)
	return err
}
