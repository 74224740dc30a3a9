//go:build unix

package projfs_test

import (
	"context"
	"path/filepath"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// TestPortableWalkSkipsNamedPipes: the os.Root walker (used off Linux) opens a
// file without blocking and checks its type on the descriptor, so a named
// pipe is skipped, not waited on.
func TestPortableWalkSkipsNamedPipes(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"a/ok.txt": "needle\n"})
	projfstest.Mkfifo(t, filepath.Join(root, "a", "pipe.txt"))
	r := projfstest.Open(t, root, projfs.Options{})
	projfs.UsePortableWalk(r)
	var res projfs.SearchResult
	var err error
	projfstest.NoHang(t, "the portable walk", func() { res, err = r.Search(context.Background(), "needle", projfs.SearchOptions{}) })
	if err != nil || res.Total != 1 {
		t.Fatalf("search = %+v, %v; want one match", res, err)
	}
}
