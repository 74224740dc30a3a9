package apply

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/edit"
	"fixplan/plan"
)

// bigChange is a 10,000-line file and a proposal that changes 100 lines spread
// over it (100 hunks).
func bigChange() (before, after string) {
	var b, a strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&b, "line %d of the big file\n", i)
		if i%100 == 50 {
			fmt.Fprintf(&a, "line %d changed by the model\n", i)
		} else {
			fmt.Fprintf(&a, "line %d of the big file\n", i)
		}
	}
	return b.String(), a.String()
}

// BenchmarkSelectHunks measures keeping every other hunk of a 100-hunk change to
// a 10,000-line file (the diff is computed once per call): the text work alone
// (edit.SelectHunks), to compare with BenchmarkPreviewSelection.
func BenchmarkSelectHunks(b *testing.B) {
	before, after := bigChange()
	var accept []int
	for n := 1; n <= 100; n += 2 {
		accept = append(accept, n)
	}
	b.SetBytes(int64(len(before)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		out, err := edit.SelectHunks([]byte(before), []byte(after), accept)
		if err != nil || len(out) != len(before)+50*len(" changed by the model")-50*len(" of the big file") {
			b.Fatal(err, len(out))
		}
	}
}

// BenchmarkPreviewSelection measures what the window waits for after a click on
// Reject: the plan recomputed against the disk, staleness checked, the hunks
// selected and the diff of what will be written computed again.
func BenchmarkPreviewSelection(b *testing.B) {
	before, after := bigChange()
	root := tree(b, map[string]string{"big.txt": before})
	e := open(b, root, nil)
	rec := draft(b, e, planOf(act(plan.UpdateFile, "big.txt", &after)))
	sel := Selection{Files: []FileChoice{{Path: "big.txt", Hunks: []int{1, 50, 100}}}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		pv, err := e.PreviewSelection(rec.ID, sel)
		if err != nil || len(pv) != 1 {
			b.Fatal(err)
		}
	}
}
