package codectx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
	"fixplan/projfs/projfstest"
)

// TestRangedReadScansABoundedLength: a line range of a file over MaxFileBytes
// reads at most MaxScanBytes of it, whatever the range asked, and says where
// the reading stopped; a range past that point is refused with the reason.
func TestRangedReadScansABoundedLength(t *testing.T) {
	root := t.TempDir()
	line := strings.Repeat("x", 99) + "\n"                                        // 100 bytes a line
	writeTree(t, root, map[string]string{"big.log": strings.Repeat(line, 30000)}) // 3,000,000 bytes
	g := newGatherer(t, root, Options{MaxFileBytes: 100_000, MaxScanBytes: 1_000_000})
	read := func(start, end int) plan.ContextResult {
		return g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("big.log"), StartLine: ptr(start), EndLine: ptr(end)})
	}
	res := read(5, 6)
	if !res.OK || !strings.Contains(res.Text, "read_file big.log lines 5-6 of at least 10000 (only its first 1000000 bytes were read") {
		t.Errorf("range within the scanned part: %+v", res)
	}
	res = read(20000, 20001)
	if res.OK || !strings.Contains(res.Error, "start_line 20000 is past the 10000 lines that could be read (only its first 1000000 bytes were read") {
		t.Errorf("range past the scanned part: %+v", res)
	}
}

// TestRangedReadOfASparseFile: a sparse file a terabyte long (nothing on
// disk) is not read to its end for one range; the request returns.
func TestRangedReadOfASparseFile(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "huge.txt")
	if err := os.WriteFile(p, []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 1<<40); err != nil {
		t.Fatal(err)
	}
	g := newGatherer(t, root, Options{MaxScanBytes: 8 << 20})
	var res plan.ContextResult
	projfstest.NoHang(t, "read_file of 1 TiB", func() {
		res = g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("huge.txt"), StartLine: ptr(1), EndLine: ptr(2)})
	})
	if res.OK || !strings.Contains(res.Error, `file "huge.txt" is binary`) {
		t.Errorf("read_file of a sparse file: %+v", res)
	}
}
