package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// "Open files with" is saved as typed (trimmed; "auto" is the automatic
// choice, stored empty), and a command that cannot be used is refused with the
// reason and nothing written.
func TestSettingsOpenWith(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ typed, stored string }{
		{"  code -g {file}:{line} ", "code -g {file}:{line}"},
		{`"/opt/My Ed/ed" +{line} {file}`, `"/opt/My Ed/ed" +{line} {file}`},
		{"Auto", ""},
		{"", ""},
	} {
		path := filepath.Join(dir, "settings.json")
		s := DefaultSettings()
		s.OpenWith = tc.typed
		if err := SaveSettings(path, s); err != nil {
			t.Fatalf("%q: %v", tc.typed, err)
		}
		got, err := LoadSettings(path)
		if err != nil || got.OpenWith != tc.stored {
			t.Fatalf("%q stored as %q, %v; want %q", tc.typed, got.OpenWith, err, tc.stored)
		}
	}
	for _, bad := range []string{"code -g {path}:{line}", `code "{file}`, "{file}"} {
		path := filepath.Join(t.TempDir(), "settings.json")
		s := DefaultSettings()
		s.OpenWith = bad
		err := SaveSettings(path, s)
		if plan.CodeOf(err) != plan.ErrInvalidInput || !strings.Contains(err.Error(), "Open files with") {
			t.Errorf("%q: %v; want ERR_INVALID_INPUT about Open files with", bad, err)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%q: a refused command was written", bad)
		}
	}
}
