package apply

import (
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// unifiedDiff is the one unified diff fixplan shows for a change (Preview) and
// numbers hunks by (HunksOf, SelectHunks): "" when before and after are equal.
//
// udiff's own line diff stops searching after about 50 changed lines and then
// replaces everything between the first and the last change as one block, so a
// proposal with several separate edits in a file would show, and could only be
// accepted or rejected as, one giant hunk. Here lines that occur exactly once in
// both texts anchor them first (patience diff, applied again inside each gap),
// and udiff diffs only what lies between anchors.
func unifiedDiff(oldLabel, newLabel string, before, after []byte) string {
	edits := lineEdits(string(before), string(after))
	if len(edits) == 0 {
		return ""
	}
	d, err := udiff.ToUnified(oldLabel, newLabel, string(before), edits, udiff.DefaultContextLines)
	if err != nil {
		// Cannot happen: the edits are line-aligned and in order. Fall back to udiff's own.
		return udiff.Unified(oldLabel, newLabel, string(before), string(after))
	}
	return d
}

// lineEdits returns line-aligned edits, in order, that turn before into after.
func lineEdits(before, after string) []udiff.Edit {
	a, b := splitKeep(before), splitKeep(after)
	off := make([]int, len(a)+1) // byte offset of each line of a
	for i, l := range a {
		off[i+1] = off[i] + len(l)
	}
	var out []udiff.Edit
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
			out = append(out, udiff.Edit{Start: off[a0], End: off[a1], New: strings.Join(b[b0:b1], "")})
			return
		}
		anchors := uniqueCommon(a[a0:a1], b[b0:b1])
		if len(anchors) == 0 || depth > 32 {
			for _, e := range udiff.Lines(strings.Join(a[a0:a1], ""), strings.Join(b[b0:b1], "")) {
				e.Start, e.End = e.Start+off[a0], e.End+off[a0]
				out = append(out, e)
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
