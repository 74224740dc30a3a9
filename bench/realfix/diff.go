package main

import (
	"bufio"
	"bytes"
	"regexp"
	"strconv"
)

// A hunk of a zero-context diff: the old side's lines OldFrom..OldFrom+OldN-1
// were replaced by the new side's NewFrom..NewFrom+NewN-1. With OldN == 0 the
// new lines were inserted after old line OldFrom (NewN == 0: the old lines were
// removed after new line NewFrom).
type hunk struct{ OldFrom, OldN, NewFrom, NewN int }

var hunkRe = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseHunks reads the hunks of a `git diff -U0` of one file.
func parseHunks(diff []byte) []hunk {
	var out []hunk
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		m := hunkRe.FindSubmatch(sc.Bytes())
		if m == nil {
			continue
		}
		n := func(b []byte, def int) int {
			if len(b) == 0 {
				return def
			}
			v, _ := strconv.Atoi(string(b))
			return v
		}
		out = append(out, hunk{OldFrom: n(m[1], 0), OldN: n(m[2], 1), NewFrom: n(m[3], 0), NewN: n(m[4], 1)})
	}
	return out
}

// fileDiff returns the zero-context diff of one file between two commits.
func fileDiff(gitDir, from, to, file string) ([]byte, error) {
	return git(gitDir, "diff", "--no-ext-diff", "--no-color", "--no-renames", "--no-textconv", "-U0", from, to, "--", file)
}

// touched returns the spans a hunk changes, on the old side (old true: the
// fixed functions of the pre-fix tree) or the new side (the tests a fix adds
// or changes). A line replaced or removed inside a span touches it; so does a
// line inserted between two of its lines. rest reports a change outside every
// span and outside skip (such as import declarations).
func touched(spans []span, hs []hunk, old bool, skip [][2]int) (out []span, rest bool) {
	hit := make([]bool, len(spans))
	in := func(line int) bool {
		found := false
		for i, s := range spans {
			if s.From <= line && line <= s.To {
				hit[i], found = true, true
			}
		}
		return found
	}
	inSkip := func(line int) bool {
		for _, r := range skip {
			if r[0] <= line && line <= r[1] {
				return true
			}
		}
		return false
	}
	for _, h := range hs {
		from, n := h.OldFrom, h.OldN
		if !old {
			from, n = h.NewFrom, h.NewN
		}
		if n == 0 { // an insertion (or removal) after line from: inside a span that holds from and from+1
			found := false
			for i, s := range spans {
				if s.From <= from && from+1 <= s.To {
					hit[i], found = true, true
				}
			}
			if !found && !inSkip(from) && !inSkip(from+1) {
				rest = true
			}
			continue
		}
		for l := from; l < from+n; l++ {
			if !in(l) && !inSkip(l) {
				rest = true
			}
		}
	}
	for i, s := range spans {
		if hit[i] {
			out = append(out, s)
		}
	}
	return out, rest
}
