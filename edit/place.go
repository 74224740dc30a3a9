package edit

import (
	"fmt"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"fixplan/plan"
)

// Match levels, strictest first.
const (
	levelExact = iota
	levelTrailing
	levelIndent
)

func norm(s string, level int) string {
	s = strings.TrimRight(s, "\r\n")
	switch level {
	case levelTrailing:
		return strings.TrimRight(s, " \t")
	case levelIndent:
		return strings.TrimSpace(s)
	}
	return s
}

// Place applies the hunks of one file's diff (rel: the file's path, which
// names it in refusals and tells whether its indentation is syntax) to before,
// its bytes, placing each hunk exactly, else at the nearest exact match, else
// ignoring trailing whitespace, else (for files where indentation is not
// syntax) ignoring indentation. A hunk with no context after its change, or
// whose old side ends without a line break, must end the file, as git requires
// (mustEnd); a hunk without context before its change is never placed where it
// would repeat the lines before it (repeatsBefore). It returns the new bytes,
// in before's line-break convention and with its final line break unless a
// hunk's "\ No newline at end of file" says otherwise, and how each hunk was
// placed ("exact", "offset +5", "fuzzy: indentation"). An ambiguous or
// unplaceable hunk fails the whole file with ERR_PATCH_APPLY_FAILED, showing
// the lines expected and the closest lines of the file.
func Place(rel string, before []byte, frags []*gitdiff.TextFragment) ([]byte, []string, error) {
	lines, finalEOL := splitLines(before)
	maxLevel := levelIndent
	if indentSensitive(rel) {
		maxLevel = levelTrailing
	}
	eol := "\n"
	if usesCRLF(before) {
		eol = "\r\n"
	}
	// The new content is written as the lines are placed: a line break goes
	// before every line but the first; the last line's break is decided at the end.
	size := len(before) + 256
	for _, f := range frags {
		for _, l := range f.Lines {
			if l.Op == gitdiff.OpAdd {
				size += len(l.Line) + 1
			}
		}
	}
	buf := make([]byte, 0, size)
	n := 0
	emit := func(text string) {
		if n > 0 {
			buf = append(buf, eol...)
		}
		buf = append(buf, text...)
		n++
	}
	var placements []string
	cursor, carried := 0, 0
	var last hunkEnd
	for hi, f := range frags {
		var old []string
		for _, l := range f.Lines {
			if l.Old() {
				old = append(old, l.Line)
			}
		}
		expected := int(f.OldPosition) - 1
		if len(old) == 0 {
			expected = int(f.OldPosition) // insertion after line OldPosition
		}
		pos, level, err := find(lines, old, cursor, expected, carried, maxLevel, mustEnd(f))
		if err == nil && repeatsBefore(lines, pos, level, f) {
			err = fmt.Errorf("its lines are at line %d, but the lines it adds before them are the lines just before them, so it would write them twice; the change looks applied already", pos+1)
		}
		if err != nil {
			return nil, nil, hunkError(rel, hi+1, f, old, lines, err.Error())
		}
		for _, l := range lines[cursor:pos] {
			emit(l)
		}
		// Placed ignoring indentation: added lines move with the context, as the
		// search/replace fitter moves them (searchreplace.go), else the file
		// would get the model's indentation next to its own.
		ind := indentMap{}
		if level == levelIndent {
			trimmed, at := make([]string, len(old)), make([]int, len(old))
			for i, o := range old {
				trimmed[i], at[i] = strings.TrimRight(o, "\r\n"), pos+i
			}
			var newSide []string
			for _, l := range f.Lines {
				if l.New() {
					newSide = append(newSide, strings.TrimRight(l.Line, "\r\n"))
				}
			}
			ind = newIndentMap(lines, trimmed, at, newSide)
		}
		k := pos
		for _, l := range f.Lines {
			if l.Op == gitdiff.OpAdd {
				if _, ok := ind.fit(strings.TrimRight(l.Line, "\r\n")); !ok {
					return nil, nil, hunkError(rel, hi+1, f, old, lines, unevenIndent)
				}
			}
		}
		for _, l := range f.Lines {
			switch l.Op {
			case gitdiff.OpContext:
				emit(lines[k])
				k++
			case gitdiff.OpDelete:
				k++
			case gitdiff.OpAdd:
				text, _ := ind.fit(strings.TrimRight(l.Line, "\r\n"))
				emit(text)
			}
		}
		cursor, carried = k, pos-expected
		last = endOf(f)
		placements = append(placements, describe(level, pos-expected))
	}
	for _, l := range lines[cursor:] {
		emit(l)
	}
	// The final line break is the file's, unless the hunk that ends the file
	// changes it: "\ No newline at end of file" on its new side only removes
	// it, on its old side only adds it (on both, it stays as the file has it).
	if n > 0 {
		nl := finalEOL || len(before) == 0
		if len(frags) > 0 && cursor == len(lines) && last.oldNoEOL != last.newNoEOL {
			nl = last.oldNoEOL
		}
		if nl {
			buf = append(buf, eol...)
		}
	}
	return buf, placements, nil
}

// hunkEnd says which sides of a hunk end without a line break ("\ No newline
// at end of file" after their last line).
type hunkEnd struct{ oldNoEOL, newNoEOL bool }

func endOf(f *gitdiff.TextFragment) hunkEnd {
	var e hunkEnd
	for _, l := range f.Lines {
		if l.Old() {
			e.oldNoEOL = !strings.HasSuffix(l.Line, "\n")
		}
		if l.New() {
			e.newNoEOL = !strings.HasSuffix(l.Line, "\n")
		}
	}
	return e
}

// mustEnd says why a hunk must end the file, as git apply anchors it (""
// when it need not). A diff shows context lines on both sides of a change
// unless the change is at an end of the file, so a hunk with context before its
// change but none after must end the file: placed anywhere else, its added
// lines would go before lines the diff says are not there (git's match_end).
// This is also what a reply cut off inside a hunk looks like. A hunk whose
// old side's last line is marked "\ No newline at end of file" ends the file
// too: that line is the file's last. A hunk with no
// context at all is read as git apply --unidiff-zero reads it — its removed
// lines place it — except one that only adds lines: nothing in it checks its
// place, so it must end the file at its stated line (plain git apply would
// append it at the end whatever its stated line), and at line 0 it is a diff
// made from an empty file, which applies only to an empty file.
//
// The start of the file is not anchored (git anchors a hunk at line 1 there):
// a hunk without context before its change is placed by its lines, so a diff
// still applies to a file that has gained lines at its top (a licence header,
// a build tag) — but never where the lines it adds there would repeat the lines
// just before it (repeatsBefore).
func mustEnd(f *gitdiff.TextFragment) string {
	lead, trail, changed, old := 0, 0, 0, 0
	for _, l := range f.Lines {
		switch l.Op {
		case gitdiff.OpContext:
			if changed == 0 {
				lead++
			} else {
				trail++
			}
		default:
			changed++
			trail = 0
		}
		if l.Old() {
			old++
		}
	}
	switch {
	case endOf(f).oldNoEOL:
		return `its last line is marked as the file's last ("\ No newline at end of file"), so it must end the file`
	case changed == 0:
	case lead == 0 && trail == 0:
		if old == 0 && f.OldPosition == 0 {
			return "it adds lines at line 0 with no context lines, so it is a diff made from an empty file and applies only to an empty file"
		} else if old == 0 {
			return fmt.Sprintf("it only adds lines, after line %d, with no context lines to check the place, so it must end the file there", f.OldPosition)
		}
	case trail == 0:
		return "it has no context lines after its change, so it must end the file"
	}
	return ""
}

// repeatsBefore reports a hunk placed at pos, away from the start of the file,
// whose first lines are added lines (it has no context before its change) equal
// to the lines just before pos: placing it there would write them twice — the
// change is most likely there already.
func repeatsBefore(lines []string, pos, level int, f *gitdiff.TextFragment) bool {
	var add []string
	for _, l := range f.Lines {
		if l.Old() {
			break
		}
		add = append(add, l.Line)
	}
	if pos == 0 || len(add) == 0 || len(add) > pos || strings.TrimSpace(strings.Join(add, "")) == "" {
		return false
	}
	for i, a := range add {
		if norm(lines[pos-len(add)+i], level) != norm(a, level) {
			return false
		}
	}
	return true
}

func describe(level, offset int) string {
	off := ""
	if offset != 0 {
		off = fmt.Sprintf("offset %+d", offset)
	}
	switch level {
	case levelTrailing:
		return strings.TrimSpace("fuzzy: trailing whitespace " + off)
	case levelIndent:
		return strings.TrimSpace("fuzzy: indentation " + off)
	}
	if off == "" {
		return "exact"
	}
	return off
}

// find returns where old matches lines (at or after cursor), nearest to expected,
// at the strictest level that matches; a hunk that must end the file (end says
// why) only there. Where the lines match off the expected line and also
// elsewhere, the match at expected+carried (the offset the file's previous hunk
// was placed at) wins, as git expects a hunk where the hunks before it were
// found; without a match there it is refused.
func find(lines, old []string, cursor, expected, carried, maxLevel int, end string) (int, int, error) {
	if end != "" {
		return findAtEnd(lines, old, cursor, expected, maxLevel, end)
	}
	if len(old) == 0 {
		if expected < cursor {
			expected = cursor
		}
		if expected > len(lines) {
			expected = len(lines)
		}
		return expected, levelExact, nil
	}
	shifted := expected + carried
	for level := levelExact; level <= maxLevel; level++ {
		matches := matcher(lines, old, cursor, level)
		// byOffset is the match the carried offset picks among several.
		byOffset := func(err error) (int, int, error) {
			if carried != 0 && matches(shifted) {
				return shifted, level, nil
			}
			return 0, 0, err
		}
		// Search outward from the expected line: the first distance with a match
		// wins; a match on both sides at that distance is ambiguous, and so is a
		// match off the stated line when the lines occur elsewhere too (the
		// nearest copy is not necessarily the one the model meant).
		// A stated line beyond the file (a model's made-up number) searches from
		// the nearest end instead of walking every line number up to it.
		expected = min(max(expected, cursor), len(lines))
		maxDist := max(expected-cursor, len(lines)-expected)
		for d := 0; d <= maxDist; d++ {
			below, above := matches(expected-d), d > 0 && matches(expected+d)
			at := expected - d
			switch {
			case below && above:
				return byOffset(fmt.Errorf("its lines match at line %d and line %d equally well; fixplan does not guess", expected+1-d, expected+1+d))
			case above:
				at = expected + d
			case !below:
				continue
			}
			if d > 0 {
				for i := cursor; i+len(old) <= len(lines); i++ {
					if i != at && matches(i) {
						return byOffset(fmt.Errorf("its lines are not at line %d and match at line %d and line %d; fixplan does not guess", expected+1, min(i, at)+1, max(i, at)+1))
					}
				}
			}
			return at, level, nil
		}
	}
	return 0, 0, fmt.Errorf("its lines are not in the file")
}

// matcher returns whether old matches lines at an index (at or after cursor) at level.
func matcher(lines, old []string, cursor, level int) func(int) bool {
	want := make([]string, len(old))
	for i, o := range old {
		want[i] = norm(o, level)
	}
	return func(i int) bool {
		if i < cursor || i < 0 || i+len(old) > len(lines) {
			return false
		}
		for j := range want {
			if norm(lines[i+j], level) != want[j] {
				return false
			}
		}
		return true
	}
}

// findAtEnd places a hunk that must end the file there, or says why it
// cannot (why: what in the hunk says it ends the file): where its lines are
// instead, if anywhere. A hunk that only adds lines goes there only if its
// stated line is the file's last.
func findAtEnd(lines, old []string, cursor, expected, maxLevel int, why string) (int, int, error) {
	pos := len(lines) - len(old)
	if len(old) == 0 {
		if pos != expected {
			return 0, 0, fmt.Errorf("%s (as git requires), and the file has %s", why, nLines(len(lines)))
		}
		return pos, levelExact, nil
	}
	for level := levelExact; pos >= cursor && level <= maxLevel; level++ {
		if matcher(lines, old, cursor, level)(pos) {
			return pos, level, nil
		}
	}
	var where []string
	for level := levelExact; level <= maxLevel && len(where) == 0; level++ {
		matches := matcher(lines, old, cursor, level)
		for i := cursor; i+len(old) <= len(lines) && len(where) < 3; i++ {
			if matches(i) {
				where = append(where, fmt.Sprint(i+1))
			}
		}
	}
	if len(where) > 0 {
		return 0, 0, fmt.Errorf("%s (as git requires), but its lines are at line %s of its %s", why, strings.Join(where, ", "), nLines(len(lines)))
	}
	return 0, 0, fmt.Errorf("%s (as git requires), and its lines are not in the file", why)
}

// nLines is "1 line" or "n lines".
func nLines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// hunkError reports a hunk that cannot be placed, with the lines expected and the
// closest lines of the file.
func hunkError(rel string, n int, f *gitdiff.TextFragment, old, lines []string, why string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "hunk %d of %s (@@ -%d,%d +%d,%d @@) does not apply: %s.\nexpected lines:\n", n, rel, f.OldPosition, f.OldLines, f.NewPosition, f.NewLines, why)
	for _, o := range limit(old, 12) {
		fmt.Fprintf(&b, "  %s\n", strings.TrimRight(o, "\r\n"))
	}
	if at, score := closest(lines, old); score > 0 {
		fmt.Fprintf(&b, "closest lines in the file (from line %d):\n", at+1)
		end := at + len(old)
		if end > len(lines) {
			end = len(lines)
		}
		for _, l := range limit(lines[at:end], 12) {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return (&plan.Error{Code: plan.ErrPatchApplyFailed, Msg: strings.TrimRight(b.String(), "\n"), Paths: []string{rel}}).
		WithHint("re-plan so the model sees the file as it is now, or edit by hand")
}
