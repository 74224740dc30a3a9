package apply

import (
	"strings"

	"fixplan/edit"
)

// shown is how a preview shows the project's text when the engine has a
// redactor (Options.Redact). Plan records keep the preview diffs, so the lines
// that come from the project's files — context and removed lines, and added
// lines that repeat a line of a file the plan changes (a moved file's content,
// a line moved within a file) — are shown as the redactor returns them for the
// whole file (a line inside a private-key block is redacted although the block's
// BEGIN line is far outside the hunk). Lines the model wrote are shown as
// written: they are what Apply writes, and the plan in the record holds them
// anyway. Only the diff text changes: hunks, line numbers and counts stay, and
// Apply, hunk selection and hand edits work on the real bytes. A stored diff is
// compared with a preview computed the same way, so a change still applies.
type shown struct {
	redact func(path, text string) string
	// project holds the lines (with their "\n") of the files the plan changes, as
	// they are now.
	project map[string]bool
}

// shade gives the changes of one plan the engine's redactor.
func (e *Engine) shade(cs []Change) {
	if e.opt.Redact == nil {
		return
	}
	s := &shown{redact: e.opt.Redact, project: map[string]bool{}}
	hiddenPath, hiddenLine, anyHidden := map[string]bool{}, map[string]bool{}, false
	for _, c := range cs {
		hide := e.opt.Hidden != nil && e.opt.Hidden(c.Path)
		hiddenPath[c.Path] = hide
		anyHidden = anyHidden || hide
		for _, l := range edit.Lines(string(c.Before)) {
			s.project[l] = true
			if hide && strings.TrimSpace(l) != "" {
				hiddenLine[strings.TrimSuffix(l, "\n")] = true
			}
		}
	}
	if anyHidden {
		s.redact = func(path, text string) string {
			return e.opt.Redact(path, hideLines(text, hiddenPath[path], hiddenLine))
		}
	}
	for i := range cs {
		cs[i].shown = s
	}
}

// notShownMark replaces a line of a file the model may not read (Options.Hidden).
const notShownMark = "[NOT SHOWN: the model may not read this file]"

// hideLines replaces every non-blank line of text (all when all, else those
// in lines) with notShownMark, keeping the line endings and so the count.
func hideLines(text string, all bool, lines map[string]bool) string {
	if !all && len(lines) == 0 {
		return text
	}
	var b strings.Builder
	for _, l := range edit.Lines(text) {
		body := strings.TrimSuffix(l, "\n")
		if strings.TrimSpace(body) != "" && (all || lines[body] || lines[strings.TrimSuffix(body, "\r")]) {
			b.WriteString(notShownMark)
			b.WriteString(l[len(body):])
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// lines redacts text whole and returns its lines, or nil when the redactor
// changed the number of lines (each line is then redacted alone).
func (s *shown) lines(path string, text []byte, want int) []string {
	out := edit.Lines(s.redact(path, string(text)))
	if len(out) != want {
		return nil
	}
	return out
}

// diff rewrites the unified diff d from before to after (its text lines as
// edit.Unified writes them): context and removed lines as the redacted before,
// added lines as the redacted after when allNew or when they repeat a line of
// the project. Hunk headers and the lines' count are kept.
func (s *shown) diff(path, d string, before, after []byte, allNew bool) string {
	if d == "" {
		return d
	}
	old, nw := edit.Lines(string(before)), edit.Lines(string(after))
	var oldShown, newShown []string
	oldDone, newDone := false, false
	// line is the redacted form of the diff line text (its marker removed), which
	// should be src[i]; shownSrc is src redacted whole (nil: redact the line alone).
	line := func(text string, src []string, i int, shownSrc []string) string {
		if shownSrc != nil && i < len(src) && (src[i] == text || src[i]+"\n" == text) {
			r := shownSrc[i]
			if !strings.HasSuffix(r, "\n") && strings.HasSuffix(text, "\n") {
				r += "\n" // a last line without a newline: the diff adds one before its "\ No newline" mark
			}
			return r
		}
		return s.redact(path, text)
	}
	var b strings.Builder
	b.Grow(len(d))
	oi, ni, delta := 0, 0, 0
	inHunk := false
	for _, l := range edit.Lines(d) {
		if strings.HasPrefix(l, "@@ ") {
			start, err := edit.HunkOldStart(l)
			if err != nil {
				return d // not a diff this code wrote: leave it (the caller's own output always parses)
			}
			oi, ni, inHunk = start, start+delta, true
			b.WriteString(l)
			continue
		}
		if !inHunk || l == "" {
			b.WriteString(l)
			continue
		}
		switch l[0] {
		case ' ', '-':
			if !oldDone {
				oldShown, oldDone = s.lines(path, before, len(old)), true
			}
			b.WriteByte(l[0])
			b.WriteString(line(l[1:], old, oi, oldShown))
			oi++
			if l[0] == ' ' {
				ni++
			} else {
				delta--
			}
		case '+':
			text := l[1:]
			if allNew || s.project[text] || s.project[strings.TrimSuffix(text, "\n")] {
				if !newDone {
					newShown, newDone = s.lines(path, after, len(nw)), true
				}
				text = line(text, nw, ni, newShown)
			}
			b.WriteByte('+')
			b.WriteString(text)
			ni++
			delta++
		default: // "\ No newline at end of file"
			b.WriteString(l)
		}
	}
	return b.String()
}
