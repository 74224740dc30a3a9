package defs

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The bracket index gives each bracket the arguments bracketArgs reads from
// it, on lines of random brackets, commas, words and spaces, and nil where
// bracketArgs finds no close in the lines it is given.
func TestBracketIndexIsBracketArgs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"(", ")", "[", "]", "{", "}", ",", " ", "a", "bc", "x.y", "  ", "=", "*"}
	for range 2000 {
		lines := make([]string, 1+r.IntN(6))
		for i := range lines {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			lines[i] = b.String()
		}
		ix := newBracketIndex(lines)
		for li, l := range lines {
			for col := 0; col < len(l); col++ {
				if !strings.ContainsRune("([{", rune(l[col])) {
					continue
				}
				for last := li; last < len(lines); last++ {
					want := bracketArgs(lines[li:last+1], col)
					if got := ix.args(li, col, last); !slices.Equal(got, want) || (got == nil) != (want == nil) {
						t.Fatalf("lines %q, bracket at %d:%d, up to line %d: %q, bracketArgs %q", lines, li, col, last, got, want)
					}
				}
			}
		}
	}
}
