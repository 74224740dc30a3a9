package defs

import (
	"regexp"
	"testing"
)

// mergeRanges sorts and merges ranges that overlap or touch; inRanges finds
// a line in them by a binary search as the loop over them did.
func TestLineRanges(t *testing.T) {
	rs := mergeRanges([]lineRange{{30, 32}, {5, 7}, {8, 9}, {20, 25}, {22, 23}, {40, 40}})
	want := []lineRange{{5, 9}, {20, 25}, {30, 32}, {40, 40}}
	if len(rs) != len(want) {
		t.Fatalf("mergeRanges = %v, want %v", rs, want)
	}
	for i := range want {
		if rs[i] != want[i] {
			t.Fatalf("mergeRanges = %v, want %v", rs, want)
		}
	}
	for n := 0; n <= 45; n++ {
		in := false
		for _, r := range want {
			in = in || (r.from <= n && n <= r.to)
		}
		if got := inRanges(rs, n); got != in {
			t.Errorf("inRanges(%d) = %v, want %v", n, got, in)
		}
	}
	if inRanges(nil, 1) || len(mergeRanges(nil)) != 0 {
		t.Error("no ranges hold a line")
	}
}

// otherCasesIn counts the entries not failing that lines a..z touch, over the
// tables that overlap them.
func TestOtherCasesIn(t *testing.T) {
	tables := []caseTable{
		{from: 10, to: 20, entries: []caseEntry{{lines: lineRange{11, 12}}, {lines: lineRange{13, 14}, failing: true}, {lines: lineRange{15, 19}}}},
		{from: 30, to: 40, entries: []caseEntry{{lines: lineRange{31, 31}}, {lines: lineRange{32, 39}}}},
	}
	for _, c := range []struct{ a, z, want int }{
		{1, 9, 0}, {11, 11, 1}, {12, 13, 1}, {13, 14, 0}, {14, 15, 1}, {1, 50, 4}, {19, 31, 2}, {21, 29, 0}, {39, 45, 1},
	} {
		if got := otherCasesIn(tables, c.a, c.z); got != c.want {
			t.Errorf("otherCasesIn(%d, %d) = %d, want %d", c.a, c.z, got, c.want)
		}
	}
}

// anyWord finds a name in a line where \bname\b does.
func TestAnyWordMatchesWordBoundaries(t *testing.T) {
	names := []string{"foo", "_x", "a1", "Bar"}
	words := map[string]bool{}
	for _, n := range names {
		words[n] = true
	}
	for _, l := range []string{"foo", "x = foo(1)", "foobar", "barfoo", "foo_", "_foo", "obj.foo", "$foo", "foo$", "é foo", "éfoo",
		"_x", "__x", "a1b", "a1.b", "(a1)", "Bar", "bar", "xBar", "", "   ", "f o o", "1foo", "foo1"} {
		want := false
		for _, n := range names {
			want = want || regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`).MatchString(l)
		}
		if got := anyWord(l, words); got != want {
			t.Errorf("anyWord(%q) = %v, want %v (as the expressions)", l, got, want)
		}
	}
}

// firstWord gives a line's first word where ^\s*(?:name)\b matches.
func TestFirstWordMatchesFieldDeclarations(t *testing.T) {
	names := []string{"Use", "Run", "a_1"}
	re := regexp.MustCompile(`^\s*(?:Use|Run|a_1)\b`)
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	for _, l := range []string{"Use string", "\tUse string", "  Run func()", "Used int", "xUse", "// Use", "*Use", "a_1 int", "a_12 int",
		"", "\t", "Use", "Run(", "é Use", "\f\rRun\t"} {
		if got, want := set[firstWord(l)], re.MatchString(l); got != want {
			t.Errorf("firstWord(%q) in the set = %v, the expression: %v", l, got, want)
		}
	}
}
