package defs

import (
	"strings"
	"testing"
)

// defAt finds the definition of a name holding a line as the loop over a
// file's definitions it replaces did (the first in their order): by a binary
// search where the name's definitions follow one another, by that loop where
// they nest.
func TestDefAt(t *testing.T) {
	f := &defFile{defs: []defSpan{
		{name: "Render", from: 1, to: 3}, {name: "T", from: 5, to: 5}, {name: "Render", from: 7, to: 9},
		{name: "Render", from: 11, to: 14}, {name: "C", from: 20, to: 40}, {name: "m", from: 22, to: 30}, {name: "m", from: 24, to: 26},
	}}
	for _, c := range []struct {
		name       string
		line, from int // from 0: none
	}{
		{"Render", 1, 1}, {"Render", 3, 1}, {"Render", 4, 0}, {"Render", 8, 7}, {"Render", 14, 11}, {"Render", 15, 0},
		{"T", 5, 5}, {"T", 6, 0}, {"m", 25, 22}, {"m", 29, 22}, {"m", 31, 0}, {"nope", 1, 0},
	} {
		s, ok := f.defAt(c.name, c.line)
		if ok != (c.from != 0) || (ok && s.from != c.from) {
			t.Errorf("defAt(%s, %d) = %d, %v; want the definition from line %d", c.name, c.line, s.from, ok, c.from)
		}
	}
}

// failureHas answers as strings.Contains does, through a suffix array when
// the failure's text is long.
func TestFailureHas(t *testing.T) {
	for _, n := range []int{10, 10000} { // ~200 bytes, ~200 KB
		text := strings.Repeat("abcdefghij klmnopq ", n) + "<a href=\"x\">"
		d := &defFinder{failText: &text}
		has := d.failureHas()
		for _, s := range []string{"<a href=", "q abc", "ij kl", "jk", "abcdefghij klmnopq abcdefghij", "<a href=\"x\">", "\">", "zz", "q  a", "<a hre=", "abcdefghij klmnopq <a"} {
			if got, want := has(s), strings.Contains(text, s); got != want {
				t.Errorf("text of %d bytes: failureHas(%q) = %v, want %v", len(text), s, got, want)
			}
		}
	}
}
