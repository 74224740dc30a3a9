package edit

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/plan"
)

// BenchmarkSearchReplace measures an EDIT_FILE of 20 three-line pairs on a
// 10,000-line file, with the searches exact and with their indentation lost
// (every pair then goes through the exact and trailing-whitespace layers first),
// and missing (every layer, then the closest lines for the refusal).
func BenchmarkSearchReplace(b *testing.B) {
	var lines []string
	for i := 0; i < 10000; i++ {
		lines = append(lines, fmt.Sprintf("\tline %d of the big file", i))
	}
	content := []byte(strings.Join(lines, "\n") + "\n")
	for _, tc := range []struct {
		name   string
		damage func(string) string
	}{
		{"exact", func(s string) string { return s }},
		{"indentation lost", func(s string) string { return strings.TrimLeft(s, "\t") }},
		{"missing (refused, closest lines found)", func(s string) string { return s + " (edited)" }},
	} {
		var edits []plan.Edit
		for h := 0; h < 20; h++ {
			at := h*500 + 100
			var search []string
			for _, l := range lines[at : at+3] {
				search = append(search, tc.damage(l))
			}
			edits = append(edits, plan.Edit{Search: strings.Join(search, "\n"), Replace: search[0] + "\n" + tc.damage(fmt.Sprintf("\tchanged %d", h)) + "\n" + search[2]})
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(content)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_, _, err := SearchReplace("big.go", content, edits)
				if (err != nil) != strings.HasPrefix(tc.name, "missing") {
					b.Fatal(err)
				}
			}
		})
	}
}
