package defs

import "strings"

// pyBlankLines blanks the strings and comments of a Python file's lines
// (their words are not uses, their brackets not the code's): a string
// becomes spaces of its length, prefix included (r"…", f'…'), a comment is
// cut. A triple-quoted string runs over lines — a docstring's prose is not
// code: the words of `BlockParser parses the text` are not a use of
// BlockParser — so the file is read in order; inStr[i] says line i starts
// inside such a string (its indentation does not end a block).
func pyBlankLines(lines []string) (blank []string, inStr []bool) {
	blank = make([]string, len(lines))
	inStr = make([]bool, len(lines))
	open := "" // the delimiter of the triple-quoted string the line starts in
	for n, l := range lines {
		inStr[n] = open != ""
		blank[n], open = pyBlankLine(l, open)
	}
	return blank, inStr
}

// pyBlankLine blanks one line that starts inside the triple-quoted string
// open ("" when in code) and returns the delimiter of the string it ends in.
func pyBlankLine(l, open string) (string, string) {
	if !strings.ContainsAny(l, `"'#`) {
		if open != "" {
			return strings.Repeat(" ", len(l)), open
		}
		return l, ""
	}
	b := []byte(l)
	space := func(from, to int) {
		for k := from; k < to; k++ {
			b[k] = ' '
		}
	}
	i := 0
	if open != "" {
		end := pyStringEnd(l, 0, open)
		if end < 0 {
			space(0, len(b))
			return string(b), open
		}
		space(0, end)
		i, open = end, ""
	}
	for i < len(b) {
		c := b[i]
		if c == '#' {
			return string(b[:i]), ""
		}
		if c != '"' && c != '\'' {
			i++
			continue
		}
		start := i
		for start > 0 && i-start < 2 && strings.IndexByte("rbuRBUfF", b[start-1]) >= 0 {
			start--
		}
		if start > 0 && isIdentByte(b[start-1]) {
			start = i // a name ending in r or f, not a prefix
		}
		delim := string(c)
		if strings.HasPrefix(l[i:], strings.Repeat(delim, 3)) {
			delim = strings.Repeat(delim, 3)
		}
		end := pyStringEnd(l, i+len(delim), delim)
		if end < 0 {
			space(start, len(b))
			if len(delim) == 3 {
				return string(b), delim
			}
			return string(b), "" // an unclosed one-line string
		}
		space(start, end)
		i = end
	}
	return string(b), ""
}

// pyStringEnd returns the index just past the delimiter closing a string of
// l from index from (a backslash escapes the next character), -1 when the
// line does not close it.
func pyStringEnd(l string, from int, delim string) int {
	for i := from; i < len(l); i++ {
		switch {
		case l[i] == '\\':
			i++
		case strings.HasPrefix(l[i:], delim):
			return i + len(delim)
		}
	}
	return -1
}

func isIdentByte(c byte) bool { return c == '_' || isLetter(c) || isDigit(c) }
