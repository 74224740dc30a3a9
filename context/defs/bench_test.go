package defs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/context/frames"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// benchModule is a released module of the module cache (a real package with
// its tests and imported project packages), skipped when it is not there: the
// benchmark does not fetch it.
func benchModule(b *testing.B, modVersion string) string {
	b.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		b.Skip("go env GOMODCACHE:", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), filepath.FromSlash(modVersion))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		b.Skipf("%s is not in the module cache (go mod download %s)", modVersion, modVersion)
	}
	dst := b.TempDir() // the module cache's own paths are a library's, not a project's
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		b.Fatal(err)
	}
	return dst
}

// BenchmarkBaseTyped looks up the definitions of a failure in go-cmp's cmp
// package (which imports four of the module's internal packages) and in cobra
// (one big package with its tests), the way the gatherer does.
func BenchmarkBaseTyped(b *testing.B) {
	for _, c := range []struct{ name, mod, problem string }{
		{"go-cmp", "github.com/google/go-cmp@v0.6.0", "--- FAIL: TestDiff (0.00s)\n" +
			"panic: runtime error: invalid memory address or nil pointer dereference [recovered]\n\n" +
			"goroutine 7 [running]:\n" +
			"github.com/google/go-cmp/cmp.(*state).compareAny(0xc000, {0x1, 0x2})\n\tROOT/cmp/compare.go:248 +0x1a\n" +
			"github.com/google/go-cmp/cmp.Equal({0x1, 0x2}, {0x3, 0x4}, {0x0, 0x0, 0x0})\n\tROOT/cmp/compare.go:107 +0x2b\n" +
			"github.com/google/go-cmp/cmp_test.TestDiff(0xc000)\n\tROOT/cmp/compare_test.go:126 +0x3c\n"},
		{"cobra", "github.com/spf13/cobra@v1.8.0", "--- FAIL: TestSingleCommand (0.00s)\n" +
			"panic: runtime error: invalid memory address or nil pointer dereference [recovered]\n\n" +
			"goroutine 7 [running]:\n" +
			"github.com/spf13/cobra.(*Command).execute(0xc000, {0x1, 0x2, 0x3})\n\tROOT/command.go:888 +0x1a\n" +
			"github.com/spf13/cobra.TestSingleCommand(0xc000)\n\tROOT/command_test.go:98 +0x3c\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			root := benchModule(b, c.mod)
			problem := strings.ReplaceAll(c.problem, "ROOT", root)
			files := projfstest.Open(b, root, projfs.Options{})
			ctx := context.Background()
			res := frames.NewResolver(files.Tree(projfs.TreeOptions{}))
			req := Request{Text: problem, MaxResultBytes: 24 * 1024, MaxTotalBytes: 96 * 1024}
			req.Frames, req.Tests = res.Points(ctx, res.Trace(ctx, problem), problem, 3)
			if len(req.Frames) == 0 {
				b.Fatalf("no frames resolved in %s", root)
			}
			if cands, _ := Sections(ctx, files, req); len(cands) == 0 {
				b.Fatal("no definitions")
			}
			b.ReportAllocs()
			b.ResetTimer()
			parsed := defParsed.Load()
			for range b.N {
				Sections(ctx, files, req)
			}
			b.ReportMetric(float64(defParsed.Load()-parsed)/float64(b.N), "parses/op")
		})
	}
}

// BenchmarkHostileTrees looks up the definitions of failures in the
// generated trees of hostile_test.go: a table of 50,000 cases (25,000
// failing), a registry of 4,000 classes (and its driver calling 30,000
// methods), a line of 30,000 registering calls, a line of 20,000 JS loops, a class of 8,000 bases, a function calling 6,000, a line of
// 20,000 nested calls, 5,000 implementations of an interface and a megabyte
// of output, an if-else chain of 20,000 branches.
func BenchmarkHostileTrees(b *testing.B) {
	for _, c := range []struct {
		name string
		tree func(testing.TB) (string, string)
	}{
		{"table", func(t testing.TB) (string, string) { return hugeTableTree(t, 50000) }},
		{"registry", func(t testing.TB) (string, string) { return registryTree(t, 4000, 20) }},
		{"driver", func(t testing.TB) (string, string) { return registryCallsTree(t, 4000, 2, 30000) }},
		{"oneline", func(t testing.TB) (string, string) { return oneLineRegistryTree(t, 30000) }},
		{"tsloops", func(t testing.TB) (string, string) { return tsLoopsTree(t, 20000) }},
		{"bases", func(t testing.TB) (string, string) { return wideBasesTree(t, 8000) }},
		{"caller", longCallerTree},
		{"nested", func(t testing.TB) (string, string) { return nestedCallsTree(t, 20000) }},
		{"writers", writersTree},
		{"elseif", func(t testing.TB) (string, string) { return elseIfTree(t, 20000) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			root, problem := c.tree(b)
			files := projfstest.Open(b, root, projfs.Options{})
			ctx := context.Background()
			tree := files.Tree(projfs.TreeOptions{})
			res := frames.NewResolver(tree)
			req := Request{Text: problem, Tree: tree, MaxResultBytes: 24 * 1024, MaxTotalBytes: 96 * 1024}
			req.Frames, req.Tests = res.Points(ctx, res.Trace(ctx, problem), problem, 3)
			for b.Loop() {
				Sections(ctx, files, req)
			}
		})
	}
}
