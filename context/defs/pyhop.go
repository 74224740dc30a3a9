package defs

import "strings"

// pyLang's hop notes (hopnotes.go): what runs of a definition's lines
// (pyRunLines), the uses that rank after every hop (option branches the
// failing lines do not take, pyopts.go; a registering call's arguments and
// the name-only namesakes of a registry's method, pyregistry.go; the name a
// def line defines and the types its signature names), its registrations
// and dispatches, and the dunder methods of a class (pyclass.go).
func (pyLang) hopNotes(f *defFile, span lineRange, named func(string) bool) hopNotes {
	lines := pyRunLines(f, span)
	split := newSpanSplit(lines, span.from)
	pyOptionGated(f, span, named, split)
	for i, l := range lines {
		// the name a def or class line of a hop's definition defines: its
		// namesakes elsewhere are not what it calls
		if m := pyDefRe.FindStringSubmatchIndex(l); m != nil {
			split.move(span.from+i, m[4], m[5])
			if strings.Contains(l[m[2]:m[4]], "def") {
				pyAnnotations(lines, i, span.from, split)
			}
		}
	}
	notes := hopNotes{registered: pyRegRules.registered(lines, span, split), dispatched: pyDispatched(f, lines, span)}
	notes.later = split.onlyLater()
	notes.called = pyProtocol(f, span)
	notes.laterDispatched()
	return notes
}

// maxSignatureLines bounds the lines a def's signature is read over.
const maxSignatureLines = 20

// pyAnnotations moves the type annotations of the def signature starting
// at lines[i] (parameters' `: T`, the return's `-> T`) to split's later
// part: a type named in a signature runs no code when the function does.
func pyAnnotations(lines []string, i, from int, split *spanSplit) {
	depth, ann, start := 0, false, 0
	for k := i; k < len(lines) && k < i+maxSignatureLines; k++ {
		l := lines[k]
		if ann {
			start = 0
		}
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch {
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']' || c == '}':
				depth--
				if depth == 0 && ann && c == ')' {
					split.move(from+k, start, j)
					ann = false
				}
			case depth == 1 && c == ':' && !ann:
				ann, start = true, j+1
			case depth == 1 && (c == ',' || c == '=') && ann:
				split.move(from+k, start, j)
				ann = false
			case depth == 0 && c == '-' && j+1 < len(l) && l[j+1] == '>':
				ann, start = true, j+2
			case depth == 0 && c == ':' && ann:
				split.move(from+k, start, j)
				return
			case depth == 0 && c == ':':
				return
			}
		}
		if ann {
			split.move(from+k, start, len(l))
		}
	}
}
