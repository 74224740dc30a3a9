package plan

import (
	"strings"
	"testing"
)

// TestWindowsPathSpellings is the table of spellings that name a protected folder
// or a device on some OS. Each must be refused for writing; ordinary names pass.
func TestWindowsPathSpellings(t *testing.T) {
	refused := []struct{ path, why string }{
		{".git/config", ".git"},
		{"tools/x/.git/config", ".git"},
		{"sub/.Git/config", ".git"},
		{"sub/.GIT/hooks/pre-commit", ".git"},
		{".git./config", ".git"},
		{".git ./config", ".git"},
		{".git. . ./config", ".git"},
		{"a/.git::$INDEX_ALLOCATION/config", ".git"},
		{".git:stream", ".git"},
		{"GIT~1/config", ".git"},
		{"deep/git~1/hooks/x", ".git"},
		{".g\u200cit/config", ".git"},
		{"\ufeff.git/config", ".git"},
		{".fixplan/project.json", ".fixplan"},
		{"x/.FIXPLAN/tx/1/journal.json", ".fixplan"},
		{"FIXPLA~1/plans/a.json", ".fixplan"},
		{".hg/hgrc", ".hg"},
		{"vendor/.Hg./hgrc", ".hg"},
		{"CON", "device"},
		{"src/nul.txt", "device"},
		{"aux.go", "device"},
		{"COM1", "device"},
		{"lpt9.log", "device"},
		{"com¹.txt", "device"},
		{"Con .txt", "device"},
		{"conout$", "device"},
		{"PROGRA~1/x", "short name"},
		{"docs/README~2.MD", "short name"},
		{"notes.txt:secret", "stream"},
		{"file.txt::$DATA", "stream"},
		{"trailing./x", "dot or a space"},
		{"space /x", "dot or a space"},
	}
	for _, c := range refused {
		t.Run("refuse "+c.path, func(t *testing.T) {
			why := ProtectedProblem(c.path)
			if why == "" {
				t.Fatalf("%q was accepted", c.path)
			}
			if !strings.Contains(why, c.why) {
				t.Errorf("%q: reason %q does not mention %q", c.path, why, c.why)
			}
		})
	}
	allowed := []string{
		"src/main.go", ".github/workflows/ci.yml", ".gitignore", ".gitattributes", "git/config.go",
		"docs/.gitkeep", "a.git/b", ".fixplanrc", "console.go", "com10.txt", "auxiliary/x.go", "lpt.go",
		"backup~", "x~y/z", "café/naïve.txt", "some.file.name.ts", ".env.example",
	}
	for _, p := range allowed {
		t.Run("allow "+p, func(t *testing.T) {
			if why := ProtectedProblem(p); why != "" {
				t.Errorf("%q refused: %s", p, why)
			}
		})
	}
}

func TestInProtectedFolder(t *testing.T) {
	for p, want := range map[string]bool{
		".git/config": true, "a/.GIT./x": true, "GIT~1/HEAD": true, ".fixplan/plans/x.json": true,
		"src/a.go": false, ".github/x": false, "aux.go": false,
	} {
		if got := InProtectedFolder(p); got != want {
			t.Errorf("InProtectedFolder(%q) = %v, want %v", p, got, want)
		}
	}
}
