package edit

import (
	"slices"
	"strings"
	"testing"

	"fixplan/plan"
)

// srCount is an independent count of the places search occurs in file at the
// first layer where it occurs at all: the lines are keyed, joined, and the joined
// search is looked for at every line start (blank lines dropped at the last layer).
func srCount(file, search []string, sensitive bool) int {
	for layer := srExact; layer < srLayers; layer++ {
		if layer == srIndent && sensitive {
			continue
		}
		key := func(ls []string) []string {
			var out []string
			for _, l := range ls {
				k := srKey(l, layer, sensitive)
				if layer == srBlank && strings.TrimSpace(k) == "" {
					continue
				}
				out = append(out, k)
			}
			return out
		}
		f, s := key(file), key(search)
		if len(s) == 0 {
			continue
		}
		n := 0
		for i := range f {
			if i+len(s) <= len(f) && slices.Equal(f[i:i+len(s)], s) {
				n++
			}
		}
		if n > 0 {
			return n
		}
	}
	return 0
}

// FuzzSearchReplace: an ambiguous or missing search never writes. Whatever the
// file and the pairs, SearchReplace either refuses, or every search occurred in
// exactly one place of the original file; and the order of the pairs never
// changes the outcome.
func FuzzSearchReplace(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "B", "c", "C", "f.go")
	f.Add("}\nx\n}\n", "}", "};", "x", "y", "f.go")
	f.Add("def f():\n    return 1\n", "return 1", "return 2", "def f():", "def g():", "f.py")
	f.Add("one\r\n  two\r\n\r\nthree", "two\nthree", "2\n3", "one", "1", "f.txt")
	f.Add("say \"hi\"\n\u00a0\nsay 'x'\n", "say \u201chi\u201d", "say \u201cho\u201d", "say \u2018x\u2019", "q", "f.js")
	f.Fuzz(func(t *testing.T, before, s1, r1, s2, r2, name string) {
		if strings.TrimSpace(s1) == "" || strings.TrimSpace(s2) == "" || len(before) > 1<<14 {
			return // the plan rules refuse blank searches before apply sees them
		}
		rel := "f" + strings.TrimLeft(name, "/\\.")
		edits := []plan.Edit{{Search: s1, Replace: r1}, {Search: s2, Replace: r2}}
		after, placements, err := SearchReplace(rel, []byte(before), edits)
		lines, _ := splitLines([]byte(before))
		sensitive := indentSensitive(rel)
		for i, e := range edits {
			n := srCount(lines, srLines(e.Search), sensitive)
			if n != 1 && err == nil {
				t.Fatalf("edit %d matches %d places but the edits applied:\nfile %q\nedits %q\nafter %q", i+1, n, before, edits, after)
			}
		}
		if err != nil {
			if after != nil || plan.CodeOf(err) != plan.ErrPatchApplyFailed {
				t.Fatalf("refusal returned content %q or code %s", after, plan.CodeOf(err))
			}
		} else if len(placements) != len(edits) {
			t.Fatalf("%d placements for %d edits", len(placements), len(edits))
		}
		swapped, _, err2 := SearchReplace(rel, []byte(before), []plan.Edit{edits[1], edits[0]})
		if (err == nil) != (err2 == nil) || string(after) != string(swapped) {
			t.Fatalf("the order of the pairs changed the outcome: %q (%v) vs %q (%v)", after, err, swapped, err2)
		}
	})
}
