package editor

import (
	"slices"
	"strings"
	"testing"

	"fixplan/plan"
)

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{name: "words", in: "code -g {file}:{line}", want: []string{"code", "-g", "{file}:{line}"}},
		{name: "blanks of every kind", in: " \tsubl\t {file}:{line} \n", want: []string{"subl", "{file}:{line}"}},
		{name: "double quotes group", in: `"/opt/My Editor/bin/ed" {file}`, want: []string{"/opt/My Editor/bin/ed", "{file}"}},
		{name: "single quotes group", in: `emacsclient -n '+{line}' {file}`, want: []string{"emacsclient", "-n", "+{line}", "{file}"}},
		{name: "adjacent parts join", in: `ed --goto="{file} {line}"x`, want: []string{"ed", "--goto={file} {line}x"}},
		{name: "an empty quoted word stays", in: `ed "" {file}`, want: []string{"ed", "", "{file}"}},
		{name: "a quote inside the other kind", in: `ed "it's" '"q"'`, want: []string{"ed", "it's", `"q"`}},
		{name: "backslashes are kept (Windows paths)", in: `"C:\Program Files\Ed\ed.exe" -l {line} {file}`, want: []string{`C:\Program Files\Ed\ed.exe`, "-l", "{line}", "{file}"}},
		{name: "shell syntax is only text", in: "ed {file}; rm -rf / && $(x) | y > z", want: []string{"ed", "{file};", "rm", "-rf", "/", "&&", "$(x)", "|", "y", ">", "z"}},
		{name: "empty", in: "  ", want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SplitArgs(tc.in)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("SplitArgs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
	for _, in := range []string{`ed "{file}`, `ed '{file}`, `"`} {
		if got, err := SplitArgs(in); plan.CodeOf(err) != plan.ErrInvalidInput || !strings.Contains(err.Error(), "never closed") {
			t.Errorf("SplitArgs(%q) = %q, %v; want an unclosed quote refused", in, got, err)
		}
	}
}

func TestParseTemplateRefuses(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "the command is empty"},
		{`"" {file}`, "the command is empty"},
		{"code -g {path}:{line}", "{path} is not a placeholder"},
		{"code -g {File}", "{File} is not a placeholder"},
		{"ed +{line} {file} {col}", "{col} is not a placeholder"},
		{"{file} {line}", "starts with a placeholder"},
		{"ed 'x", "never closed"},
	}
	for _, tc := range tests {
		_, err := ParseTemplate(tc.in)
		if plan.CodeOf(err) != plan.ErrInvalidInput || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Open files with") {
			t.Errorf("ParseTemplate(%q) = %v; want ERR_INVALID_INPUT saying %q", tc.in, err, tc.want)
		}
	}
	// Braces that are not placeholders are the user's text.
	if _, err := ParseTemplate("ed --x={} --y={1} {file}"); err != nil {
		t.Errorf("ParseTemplate with plain braces: %v", err)
	}
}

// TestExpand substitutes inside each argument, once: whatever the file name
// holds (blanks, quotes, shell syntax, a placeholder, a leading dash) it stays
// exactly one argument, in its place.
func TestExpand(t *testing.T) {
	hostile := "/p/dir with space/a;b $(touch pwned) `x` 'q' \"d\" {line} -e.py"
	tests := []struct {
		name, tmpl string
		file       string
		line       int
		want       []string
	}{
		{name: "VS Code", tmpl: "code -g {file}:{line}", file: "/p/a.go", line: 12, want: []string{"-g", "/p/a.go:12"}},
		{name: "JetBrains", tmpl: "idea --line {line} {file}", file: "/p/a.go", line: 3, want: []string{"--line", "3", "/p/a.go"}},
		{name: "emacsclient", tmpl: "emacsclient -n +{line} {file}", file: "/p/a.go", line: 7, want: []string{"-n", "+7", "/p/a.go"}},
		{name: "no line given: line 1", tmpl: "subl {file}:{line}", file: "/p/a.go", line: 0, want: []string{"/p/a.go:1"}},
		{name: "no {file}: the file comes last", tmpl: "gedit --new-window", file: "/p/a.go", line: 5, want: []string{"--new-window", "/p/a.go"}},
		{name: "a hostile name stays one argument", tmpl: "ed +{line} {file}", file: hostile, line: 2, want: []string{"+2", hostile}},
		{name: "a hostile name inside an argument", tmpl: "code -g {file}:{line}", file: hostile, line: 9, want: []string{"-g", hostile + ":9"}},
		{name: "placeholders twice", tmpl: "ed {file} {file}:{line}:{line}", file: "/p/x", line: 4, want: []string{"/p/x", "/p/x:4:4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tm, err := ParseTemplate(tc.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			if got := tm.Expand(tc.file, tc.line); !slices.Equal(got, tc.want) {
				t.Fatalf("Expand = %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestBatchSafe(t *testing.T) {
	if err := batchSafe([]string{`C:\Code\bin\code.cmd`, "-g", `C:\proj\dir with space\a.py:3`}); err != nil {
		t.Errorf("a plain path with blanks to a batch file: %v", err)
	}
	for _, arg := range []string{`C:\p\a&calc.py:1`, `C:\p\%PATH%.py`, `C:\p\a^b.py`, `C:\p\a|b`, `C:\p\(x).py`, `C:\p\a!b.py`} {
		for _, prog := range []string{`C:\Code\bin\code.cmd`, `C:\x\ED.BAT`, `C:\x\ed.bat. .`} {
			err := batchSafe([]string{prog, "-g", arg})
			if plan.CodeOf(err) != plan.ErrConfig || !strings.Contains(err.Error(), "batch file") {
				t.Errorf("batchSafe(%s, %q) = %v; want it refused", prog, arg, err)
			}
		}
	}
	if err := batchSafe([]string{`C:\Code\Code.exe`, "-g", `C:\p\a&calc.py:1`}); err != nil {
		t.Errorf("a program that is not a batch file reads its own arguments: %v", err)
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		o    Opened
		want string
	}{
		{Opened{File: "calc.py", Line: 2, LinePassed: true, Editor: "code", Via: "Settings", Started: true},
			"Opened calc.py at line 2 with code (Settings)."},
		{Opened{File: "calc.py", Line: 2, Editor: "xdg-open", Via: "the system's default app", NoLine: "it cannot be told a line", Started: true,
			Skipped: []string{"$EDITOR (vim) runs in a terminal and no terminal emulator was found: set $TERMINAL"}},
			"Opened calc.py with xdg-open (the system's default app). Not at line 2: it cannot be told a line. $EDITOR (vim) runs in a terminal and no terminal emulator was found: set $TERMINAL."},
		{Opened{File: "a.go", Editor: "subl", Via: "$VISUAL"}, "Would open a.go with subl ($VISUAL)."},
	}
	for _, tc := range tests {
		if got := tc.o.Summary(); got != tc.want {
			t.Errorf("Summary =\n%s\nwant\n%s", got, tc.want)
		}
	}
}
