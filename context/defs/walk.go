package defs

import (
	"context"
	"path"

	"fixplan/projfs"
)

// treeScan is one reader of the project's files in the gather's one read of
// the tree (walkTree): want picks the files it reads (nil: none), scan reads
// one, on several goroutines at once.
type treeScan struct {
	want func(rel, name string) bool
	scan func(rel string, data []byte)
}

// walkTree reads the project's files once for all of scans, when one of them
// wants files: from the gather's listing of the tree (Request.Tree, not walked
// again), a file one of them wants is read once (at most defFileCap of it, and
// msgReadBudget bytes in all, the folders nearest the failure points first, so
// a huge repository is searched in part rather than slowly) and given to each
// scan that wants it.
func (d *defFinder) walkTree(ctx context.Context, points []defPoint, scans ...treeScan) {
	var active []treeScan
	for _, s := range scans {
		if s.want != nil {
			active = append(active, s)
		}
	}
	if len(active) == 0 || msgReadBudget <= 0 {
		return
	}
	defWalks.Add(1)
	want := func(rel, name string) bool {
		for _, s := range active {
			if s.want(rel, name) {
				return true
			}
		}
		return false
	}
	near := func(dir string) int {
		best := -1
		for _, p := range points {
			if n := pathDistance(path.Join(dir, "f"), p.file); best < 0 || n < best {
				best = n
			}
		}
		return best
	}
	_ = d.tree.Scan(ctx, projfs.ScanOptions{Want: want, MaxFileBytes: min(d.proj.MaxFileBytes(), defFileCap),
		MaxReadBytes: msgReadBudget, Rank: near}, func(rel string, data []byte) {
		if projfs.IsBinary(data) {
			return
		}
		name := path.Base(rel)
		for _, s := range active {
			if s.want(rel, name) {
				s.scan(rel, data)
			}
		}
	})
}
