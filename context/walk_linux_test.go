//go:build linux

package codectx

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
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
	writeTree(t, root, files)
	g := newGatherer(t, root, Options{})
	openFDs := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := openFDs()
	res, err := g.Search(context.Background(), "needle", SearchOptions{})
	if err != nil || res.Total != 150 {
		t.Fatalf("search: %v, %d matches", err, res.Total)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	_ = g.walk(ctx, func(dirHandle, string, string) {
		if n.Add(1) == 10 {
			cancel()
		}
	})
	cancel()
	if after := openFDs(); after != before {
		t.Errorf("%d file descriptors open after the walks, %d before", after, before)
	}
}
