package editor

import (
	"strconv"
	"strings"

	"fixplan/internal/lazyre"
	"fixplan/plan"
)

// The "Open files with" setting is a command template the user types: a
// program and its arguments, split like a shell would split words (blanks
// separate, '…' and "…" group) but never run by a shell, with {file} and {line}
// replaced inside each argument after the split — a file name with a space, a
// quote or a ";" stays one argument and cannot start another command.

// Placeholders in a template.
const (
	PlaceFile = "{file}"
	PlaceLine = "{line}"
)

// Template is a parsed "Open files with" command.
type Template struct {
	Argv []string // as split, placeholders still in place
}

// placeholder matches anything written like a placeholder, to refuse ones
// fixplan does not know ({File}, {path}, {col}).
var placeholder = lazyre.New(`\{[A-Za-z_]+\}`)

// ParseTemplate splits a command template into its arguments. It fails
// (ERR_INVALID_INPUT, naming the problem) for an empty command, an unclosed
// quote and a placeholder other than {file} and {line}.
func ParseTemplate(s string) (Template, error) {
	argv, err := SplitArgs(s)
	if err != nil {
		return Template{}, err
	}
	if len(argv) == 0 || argv[0] == "" {
		return Template{}, invalidf("the command is empty: give a program, e.g. code -g {file}:{line}")
	}
	for _, a := range argv {
		for _, p := range placeholder.FindAllString(a, -1) {
			if p != PlaceFile && p != PlaceLine {
				return Template{}, invalidf("%s is not a placeholder fixplan knows: use {file} (the file's full path) and {line} (its line)", p)
			}
		}
	}
	if strings.Contains(argv[0], PlaceFile) || strings.Contains(argv[0], PlaceLine) {
		return Template{}, invalidf("the command starts with a placeholder: it must start with the program, e.g. code -g {file}:{line}")
	}
	return Template{Argv: argv}, nil
}

// HasFile and HasLine say whether the template places the file and the line.
func (t Template) HasFile() bool { return t.has(PlaceFile) }

// HasLine reports whether the template gives the editor a line.
func (t Template) HasLine() bool { return t.has(PlaceLine) }

func (t Template) has(p string) bool {
	for _, a := range t.Argv[1:] {
		if strings.Contains(a, p) {
			return true
		}
	}
	return false
}

// Expand returns the arguments after the program with the placeholders
// replaced: {file} by file, {line} by line (1 when line < 1). Each argument
// stays one argument whatever file holds. A template without {file} gets the
// file as its last argument.
func (t Template) Expand(file string, line int) []string {
	ln := strconv.Itoa(max(line, 1))
	out := make([]string, 0, len(t.Argv))
	for _, a := range t.Argv[1:] {
		// One pass over the argument: a file name that contains "{line}" is not
		// expanded again.
		var b strings.Builder
		for a != "" {
			switch {
			case strings.HasPrefix(a, PlaceFile):
				b.WriteString(file)
				a = a[len(PlaceFile):]
			case strings.HasPrefix(a, PlaceLine):
				b.WriteString(ln)
				a = a[len(PlaceLine):]
			default:
				b.WriteByte(a[0])
				a = a[1:]
			}
		}
		out = append(out, b.String())
	}
	if !t.HasFile() {
		out = append(out, file)
	}
	return out
}

// SplitArgs splits a command line into words the way a POSIX shell splits a
// simple command without expansions: blanks separate words, '…' and "…" group
// (the quotes are removed; adjacent parts join: --x="a b" is --x=a b), and
// nothing else is special — a backslash is kept as written, so a Windows path
// needs no escaping. It fails (ERR_INVALID_INPUT) on an unclosed quote.
func SplitArgs(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, invalidf("the quote %c at character %d is never closed", c, i+1)
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

func invalidf(format string, args ...any) error {
	return plan.Errorf(plan.ErrInvalidInput, "Open files with: "+format, args...).
		WithHint("correct the command in Settings → Open files with, or leave it empty (auto)")
}

// quoteArgs shows argv as one line a person can read (and paste in a shell).
func quoteArgs(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]#~!{}") {
			parts[i] = a
			continue
		}
		parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(parts, " ")
}
