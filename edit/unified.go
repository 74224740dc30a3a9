package edit

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// contextLines is the number of unchanged lines shown around each change.
const contextLines = 3

// Unified is the one unified diff fixplan shows for a change (the preview) and
// numbers hunks by (HunksOf, SelectHunks): "" when before and after are equal.
// Its labels are the "---" and "+++" names; it writes no git header.
//
// udiff's own line diff stops searching after about 50 changed lines and then
// replaces everything between the first and the last change as one block, so a
// proposal with several separate edits in a file would show, and could only be
// accepted or rejected as, one giant hunk. Here lines that occur exactly once in
// both texts anchor them first (patience diff, applied again inside each gap),
// and udiff's LCS diffs only what lies between anchors.
//
// The hunks are written here, not by udiff.ToUnified: it does not count the
// unchanged lines between two edits of one hunk on the new side, so every hunk
// after such a hunk had a new-side start too small by that many lines (an
// insertion after line 13 and a change at line 19 made the next hunk read
// "@@ -24,3 +20,5 @@" instead of "+25").
func Unified(oldLabel, newLabel string, before, after []byte) string {
	a, b := Lines(string(before)), Lines(string(after))
	edits := diffLines(a, b)
	if len(edits) == 0 {
		return ""
	}
	return formatUnified(oldLabel, newLabel, a, b, edits, contextLines)
}

// SameDiff reports whether a diff a draft plan stored is the one Unified
// computes now from the same texts. A draft saved before the new-side starts
// were counted right (see Unified) differs only in the "+c" of some hunk
// headers; its hunks — old lines, bodies, numbering — are the ones computed
// now, so it is still that preview and stays appliable.
func SameDiff(stored, now string) bool {
	return stored == now || (strings.Contains(stored, "\n@@ ") && dropNewStarts(stored) == dropNewStarts(now))
}

var hunkNewStart = regexp.MustCompile(`(?m)^(@@ -[0-9]+(?:,[0-9]+)? \+)[0-9]+`)

// dropNewStarts blanks the new-side start of every hunk header of diff.
func dropNewStarts(diff string) string { return hunkNewStart.ReplaceAllString(diff, "$1") }

// lineEdit replaces the old lines a[a0:a1] with the new lines b[b0:b1].
type lineEdit struct{ a0, a1, b0, b1 int }

// formatUnified writes edits (in order, not overlapping) of a into b as a
// unified diff with ctx lines of context: edits whose old lines are at most
// 2*ctx lines apart share a hunk. Each hunk's header counts exactly the lines
// of its body, and its new-side start is where its first line is in b.
func formatUnified(oldLabel, newLabel string, a, b []string, edits []lineEdit, ctx int) string {
	var w strings.Builder
	w.WriteString("--- " + oldLabel + "\n+++ " + newLabel + "\n")
	body := func(mark byte, ls []string) {
		for _, l := range ls {
			w.WriteByte(mark)
			w.WriteString(l)
			if !strings.HasSuffix(l, "\n") {
				w.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	for i := 0; i < len(edits); {
		j := i + 1 // edits[i:j] make one hunk
		for j < len(edits) && edits[j].a0-edits[j-1].a1 <= 2*ctx {
			j++
		}
		first, last := edits[i], edits[j-1]
		oldFrom := max(first.a0-ctx, 0)
		oldTo := min(last.a1+ctx, len(a))
		newFrom := first.b0 - (first.a0 - oldFrom)
		newTo := last.b1 + (oldTo - last.a1)
		w.WriteString("@@ -" + hunkRange(oldFrom, oldTo-oldFrom) + " +" + hunkRange(newFrom, newTo-newFrom) + " @@\n")
		body(' ', a[oldFrom:first.a0])
		for k := i; k < j; k++ {
			e := edits[k]
			body('-', a[e.a0:e.a1])
			body('+', b[e.b0:e.b1])
			if k+1 < j {
				body(' ', a[e.a1:edits[k+1].a0])
			}
		}
		body(' ', a[last.a1:oldTo])
		i = j
	}
	return w.String()
}

// hunkRange is one side of a hunk header from the 0-based index of its first
// line and its number of lines: "5" for one line at index 4, "5,3" for three,
// and for no lines the line before it ("0,0" in an empty file), as diff -u.
func hunkRange(from, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(from) + ",0"
	case 1:
		return strconv.Itoa(from + 1)
	}
	return strconv.Itoa(from+1) + "," + strconv.Itoa(n)
}

// diffLines returns the edits, in order, that turn the lines a into b.
func diffLines(a, b []string) []lineEdit {
	var out []lineEdit
	var gap func(a0, a1, b0, b1, depth int)
	gap = func(a0, a1, b0, b1, depth int) {
		for a0 < a1 && b0 < b1 && a[a0] == b[b0] {
			a0, b0 = a0+1, b0+1
		}
		for a0 < a1 && b0 < b1 && a[a1-1] == b[b1-1] {
			a1, b1 = a1-1, b1-1
		}
		switch {
		case a0 == a1 && b0 == b1:
			return
		case a0 == a1 || b0 == b1:
			out = append(out, lineEdit{a0, a1, b0, b1})
			return
		}
		anchors := uniqueCommon(a[a0:a1], b[b0:b1])
		if len(anchors) == 0 || depth > 32 {
			for _, d := range lcs.DiffLines(a[a0:a1], b[b0:b1]) {
				out = append(out, lineEdit{a0 + d.Start, a0 + d.End, b0 + d.ReplStart, b0 + d.ReplEnd})
			}
			return
		}
		pa, pb := a0, b0
		for _, an := range anchors {
			gap(pa, a0+an[0], pb, b0+an[1], depth+1)
			pa, pb = a0+an[0]+1, b0+an[1]+1
		}
		gap(pa, a1, pb, b1, depth+1)
	}
	gap(0, len(a), 0, len(b), 0)
	return out
}

// uniqueCommon returns the longest in-order run of line pairs (i in a, j in b)
// whose line occurs exactly once in a and once in b.
func uniqueCommon(a, b []string) [][2]int {
	type seen struct{ na, nb, ia, ib int }
	m := make(map[string]*seen, len(a))
	for i, l := range a {
		s := m[l]
		if s == nil {
			s = &seen{}
			m[l] = s
		}
		s.na, s.ia = s.na+1, i
	}
	for j, l := range b {
		if s := m[l]; s != nil {
			s.nb, s.ib = s.nb+1, j
		}
	}
	var pairs [][2]int
	for _, s := range m {
		if s.na == 1 && s.nb == 1 {
			pairs = append(pairs, [2]int{s.ia, s.ib})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	sort.Slice(pairs, func(x, y int) bool { return pairs[x][0] < pairs[y][0] })
	// Longest increasing subsequence of the b indexes (patience sorting).
	tails := []int{} // index into pairs of the smallest tail of each length
	prev := make([]int, len(pairs))
	for k, p := range pairs {
		n := sort.Search(len(tails), func(t int) bool { return pairs[tails[t]][1] >= p[1] })
		if n > 0 {
			prev[k] = tails[n-1]
		} else {
			prev[k] = -1
		}
		if n == len(tails) {
			tails = append(tails, k)
		} else {
			tails[n] = k
		}
	}
	out := make([][2]int, len(tails))
	for k, i := tails[len(tails)-1], len(tails)-1; i >= 0; k, i = prev[k], i-1 {
		out[i] = pairs[k]
	}
	return out
}
