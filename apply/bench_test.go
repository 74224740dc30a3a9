package apply

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/plan"
)

// BenchmarkPatchChanges measures cleaning, parsing and placing a 20-hunk patch on a
// 10,000-line file, with hunks exact and shifted by 7 lines (offset search).
func BenchmarkPatchChanges(b *testing.B) {
	var lines []string
	for i := 0; i < 10000; i++ {
		lines = append(lines, fmt.Sprintf("line %d of the big file", i))
	}
	var patch strings.Builder
	patch.WriteString("--- a/big.txt\n+++ b/big.txt\n")
	for h := 0; h < 20; h++ {
		at := h*500 + 100
		fmt.Fprintf(&patch, "@@ -%d,3 +%d,3 @@\n %s\n-%s\n+changed %d\n %s\n", at+1, at+1, lines[at], lines[at+1], h, lines[at+2])
	}
	for _, shift := range []int{0, 7} {
		b.Run(fmt.Sprintf("shift %d", shift), func(b *testing.B) {
			content := strings.Repeat("inserted\n", shift) + strings.Join(lines, "\n") + "\n"
			root := tree(b, map[string]string{"big.txt": content})
			e := open(b, root, nil)
			p := patchPlan(patch.String())
			b.SetBytes(int64(len(content)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cs, err := e.Changes(&p)
				if err != nil || len(cs) != 1 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkApplyPlan47 applies (and undoes) a plan updating 40 files and creating
// 7 in new folders, each file ~200 lines: preview, journal, fsyncs, commit.
func BenchmarkApplyPlan47(b *testing.B) {
	files := map[string]string{}
	var acts []plan.Action
	for i := 0; i < 40; i++ {
		var sb strings.Builder
		for l := 0; l < 200; l++ {
			fmt.Fprintf(&sb, "func f%d_%d() int { return %d }\n", i, l, l)
		}
		p := fmt.Sprintf("pkg%d/file%d.go", i%6, i)
		files[p] = sb.String()
		acts = append(acts, act(plan.UpdateFile, p, str(strings.Replace(sb.String(), "return 7 ", "return 70 ", 1)+"// changed\n")))
	}
	for i := 0; i < 7; i++ {
		acts = append(acts, act(plan.CreateFile, fmt.Sprintf("gen/g%d/new.go", i), str("package gen\n")))
	}
	root := tree(b, files)
	e := open(b, root, nil)
	p := planOf(acts...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec := draft(b, e, p)
		if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, err := e.Undo(bg); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkRecoverFinished measures the start-up recovery check of a project
// whose undo history is full: 20 finished transactions of 47 files each.
func BenchmarkRecoverFinished(b *testing.B) {
	files := map[string]string{}
	for i := 0; i < 47; i++ {
		files[fmt.Sprintf("pkg%d/file%d.go", i%6, i)] = strings.Repeat(fmt.Sprintf("func f%d() {}\n", i), 200)
	}
	root := tree(b, files)
	e := open(b, root, nil)
	for n := 0; n < 20; n++ {
		var acts []plan.Action
		for i := 0; i < 47; i++ {
			acts = append(acts, act(plan.UpdateFile, fmt.Sprintf("pkg%d/file%d.go", i%6, i), str(strings.Repeat(fmt.Sprintf("func f%d() { _ = %d }\n", i, n), 200))))
		}
		rec := draft(b, e, planOf(acts...))
		if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ns, err := e.Recover(); err != nil || len(ns) != 0 {
			b.Fatal(ns, err)
		}
	}
}
