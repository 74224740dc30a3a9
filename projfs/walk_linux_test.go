//go:build linux

package projfs

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"fixplan/internal/testtree"
)

// TestWalkClosesDirectories checks that every directory handle the fd walker
// opens is closed again, also when the walk is cancelled midway.
func TestWalkClosesDirectories(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		for j := range 5 {
			files[fmt.Sprintf("d%d/e%d/f.txt", i, j)] = "needle\n"
		}
	}
	testtree.Write(t, root, files)
	r := openRoot(t, root, Options{})
	openFDs := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := openFDs()
	res, err := r.Search(context.Background(), "needle", SearchOptions{})
	if err != nil || res.Total != 150 {
		t.Fatalf("search: %v, %d matches", err, res.Total)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	_ = r.Walk(ctx, func(Dir, string, string) {
		if n.Add(1) == 10 {
			cancel()
		}
	})
	cancel()
	if after := openFDs(); after != before {
		t.Errorf("%d file descriptors open after the walks, %d before", after, before)
	}
}

// TestTreeSearchWithoutOpenat2: where openat2 is refused (an old kernel, a
// sandbox), a tree's folders are opened one component at a time and its
// search still finds what the root's finds.
func TestTreeSearchWithoutOpenat2(t *testing.T) {
	noOpenat2.Store(true)
	defer noOpenat2.Store(false)
	treeSearchIsRootSearch(t, openRoot(t, searchFixture(t), Options{}))
}
