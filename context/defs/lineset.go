package defs

import (
	"cmp"
	"slices"
	"strings"
)

// Sets of lines. A test table of fifty thousand cases, every other one
// failing, leaves out twenty-five thousand ranges of lines: asking each line
// of the table (each name of its uses, each line of its section) whether it is
// in one of them went over all of them — over a billion comparisons. The
// ranges are kept sorted and disjoint (mergeRanges) and asked by a binary
// search (inRanges).

// mergeRanges returns rs sorted, the ranges that overlap or touch merged.
func mergeRanges(rs []lineRange) []lineRange {
	out := slices.Clone(rs)
	slices.SortFunc(out, func(a, b lineRange) int { return cmp.Compare(a.from, b.from) })
	k := 0
	for _, r := range out {
		if k > 0 && r.from <= out[k-1].to+1 {
			out[k-1].to = max(out[k-1].to, r.to)
			continue
		}
		out[k] = r
		k++
	}
	return out[:k]
}

// inRanges reports whether line n is in one of rs, sorted and disjoint
// (mergeRanges).
func inRanges(rs []lineRange, n int) bool {
	i, _ := slices.BinarySearchFunc(rs, n, func(r lineRange, n int) int { return cmp.Compare(r.to, n) })
	return i < len(rs) && rs[i].from <= n
}

// otherCasesIn counts the entries of tables (sorted, disjoint, with their
// entries in the order of their lines) in lines a..z that are not failing
// cases.
func otherCasesIn(tables []caseTable, a, z int) int {
	n := 0
	i, _ := slices.BinarySearchFunc(tables, a, func(t caseTable, a int) int { return cmp.Compare(t.to, a) })
	for ; i < len(tables) && tables[i].from <= z; i++ {
		es := tables[i].entries
		j, _ := slices.BinarySearchFunc(es, a, func(e caseEntry, a int) int { return cmp.Compare(e.lines.to, a) })
		for ; j < len(es) && es[j].lines.from <= z; j++ {
			n += btoi(!es[j].failing)
		}
	}
	return n
}

// anyWord reports whether one of the words of l (its runs of ASCII letters,
// digits and underscores: what \bname\b matches of a name of them) is in
// words. A long definition's lines are asked for thousands of names at once
// (a function calling thousands): one pass over the line, not an expression
// per name.
func anyWord(l string, words map[string]bool) bool {
	start := -1
	for i := 0; i <= len(l); i++ {
		if i < len(l) && (isLetter(l[i]) || isDigit(l[i]) || l[i] == '_') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && words[l[start:i]] {
			return true
		}
		start = -1
	}
	return false
}

// firstWord is the word l starts with after its white space (what
// ^\s*(?:name)\b matches of a name of word characters), "" when it starts
// with another character.
func firstWord(l string) string {
	l = strings.TrimLeft(l, " \t\n\f\r")
	n := 0
	for n < len(l) && (isLetter(l[n]) || isDigit(l[n]) || l[n] == '_') {
		n++
	}
	return l[:n]
}
