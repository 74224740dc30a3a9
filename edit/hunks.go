package edit

import (
	"fmt"
	"strconv"
	"strings"

	"fixplan/plan"
)

// Hunk is one hunk of a preview diff. Hunks are numbered from 1 in the order the
// preview diff (Unified, stored as plan.FileChange.Diff) shows them, so "hunk 2" is
// the second "@@" block the user sees in the window and in `fixplan apply
// --show-hunks`.
type Hunk struct {
	// N is the hunk's number (1-based).
	N int `json:"n"`
	// Header is the hunk's "@@ -a,b +c,d @@" line.
	Header string `json:"header"`
	// OldStart is the 0-based index of the hunk's first line in the old text.
	OldStart int `json:"old_start"`
	// Old and New are the hunk's lines of the old and the new text, each with
	// its exact line ending ("\r\n", "\n", or none for a last line without one).
	Old []string `json:"-"`
	New []string `json:"-"`
	// Text is the hunk as the diff shows it: the header and its body lines.
	Text string `json:"text"`
}

// ParseHunks splits a unified diff of one file (as Unified makes it) into its
// hunks. Lines before the first "@@" (the git header, ---/+++) are skipped. It
// fails with ERR_INVALID_INPUT when a hunk header cannot be read.
func ParseHunks(diff string) ([]Hunk, error) {
	var out []Hunk
	lines := strings.SplitAfter(diff, "\n")
	var cur *Hunk
	var body strings.Builder
	flush := func() {
		if cur != nil {
			cur.Text = body.String()
			out = append(out, *cur)
			cur = nil
			body.Reset()
		}
	}
	var last byte // kind of the previous body line: ' ', '-' or '+'
	for _, raw := range lines {
		if raw == "" {
			continue
		}
		l := strings.TrimSuffix(raw, "\n")
		if strings.HasPrefix(l, "@@ ") {
			flush()
			start, err := HunkOldStart(l)
			if err != nil {
				return nil, err
			}
			cur = &Hunk{N: len(out) + 1, Header: l, OldStart: start}
			body.WriteString(raw)
			last = 0
			continue
		}
		if cur == nil {
			continue // the git header, --- and +++
		}
		if l == "" {
			// not a diff body line (a body line has at least its marker)
			flush()
			continue
		}
		switch l[0] {
		case '\\':
			// "\ No newline at end of file": the line before has no line ending.
			if last == ' ' || last == '-' {
				cur.Old[len(cur.Old)-1] = strings.TrimSuffix(cur.Old[len(cur.Old)-1], "\n")
			}
			if last == ' ' || last == '+' {
				cur.New[len(cur.New)-1] = strings.TrimSuffix(cur.New[len(cur.New)-1], "\n")
			}
		case ' ':
			cur.Old = append(cur.Old, l[1:]+"\n")
			cur.New = append(cur.New, l[1:]+"\n")
		case '-':
			cur.Old = append(cur.Old, l[1:]+"\n")
		case '+':
			cur.New = append(cur.New, l[1:]+"\n")
		default:
			flush()
			continue
		}
		body.WriteString(raw)
		last = l[0]
	}
	flush()
	return out, nil
}

// hunkOldStart reads the 0-based start of the old side from "@@ -a[,b] +c[,d] @@".
func HunkOldStart(header string) (int, error) {
	f := strings.Fields(header)
	if len(f) < 4 || !strings.HasPrefix(f[1], "-") {
		return 0, plan.Errorf(plan.ErrInvalidInput, "unreadable hunk header %q", header)
	}
	a, _, _ := strings.Cut(f[1][1:], ",")
	n, err := strconv.Atoi(a)
	if err != nil || n < 0 {
		return 0, plan.Errorf(plan.ErrInvalidInput, "unreadable hunk header %q", header)
	}
	if n == 0 {
		return 0, nil // "-0,0": the hunk adds to an empty file
	}
	return n - 1, nil
}

// HunksOf returns the hunks of the preview diff from before to after.
func HunksOf(before, after []byte) []Hunk {
	d := Unified("a", "b", before, after)
	hs, err := ParseHunks(d)
	if err != nil {
		return nil // udiff's own output always parses
	}
	return hs
}

// SelectHunks returns before with only the accepted hunks of the diff from
// before to after applied (hunk numbers as in HunksOf and the preview). Line
// endings and a missing final newline are kept exactly: accepting every hunk
// gives after, accepting none gives before. It fails with ERR_INVALID_INPUT for a
// hunk number the diff does not have.
func SelectHunks(before, after []byte, accept []int) ([]byte, error) {
	hs := HunksOf(before, after)
	ok := map[int]bool{}
	for _, n := range accept {
		if n < 1 || n > len(hs) {
			return nil, plan.Errorf(plan.ErrInvalidInput, "hunk %d does not exist: the change has %d hunk(s)", n, len(hs)).
				WithHint("number hunks from 1 as the preview shows them (fixplan apply --plan ID --show-hunks)")
		}
		ok[n] = true
	}
	old := Lines(string(before))
	var b strings.Builder
	pos := 0
	for _, h := range hs {
		if h.OldStart < pos || h.OldStart+len(h.Old) > len(old) {
			return nil, fmt.Errorf("select hunks: hunk %d does not fit the file", h.N)
		}
		for i, l := range h.Old {
			if old[h.OldStart+i] != l {
				return nil, fmt.Errorf("select hunks: hunk %d does not match the file at line %d", h.N, h.OldStart+i+1)
			}
		}
		for _, l := range old[pos:h.OldStart] {
			b.WriteString(l)
		}
		lines := h.Old
		if ok[h.N] {
			lines = h.New
		}
		for _, l := range lines {
			b.WriteString(l)
		}
		pos = h.OldStart + len(h.Old)
	}
	for _, l := range old[pos:] {
		b.WriteString(l)
	}
	return []byte(b.String()), nil
}
