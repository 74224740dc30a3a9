package defs

import (
	"context"
	"sync/atomic"

	"fixplan/projfs"
)

// treeScan is one reader of the project's files in the gather's one walk of
// the tree (walkTree): want picks the files it reads (nil: none), scan reads
// one, on several goroutines at once.
type treeScan struct {
	want func(rel, name string) bool
	scan func(rel string, data []byte)
}

// walkTree walks the project once for all of scans, when one of them wants
// files: a file one of them wants is read once (at most defFileCap of it, and
// msgReadBudget bytes in all, so a huge repository is searched in part rather
// than slowly) and given to each scan that wants it.
func (d *defFinder) walkTree(ctx context.Context, scans ...treeScan) {
	var active []treeScan
	for _, s := range scans {
		if s.want != nil {
			active = append(active, s)
		}
	}
	if len(active) == 0 {
		return
	}
	defWalks.Add(1)
	var read atomic.Int64
	_ = d.proj.Walk(ctx, func(dir projfs.Dir, rel, name string) {
		wanted := false
		for _, s := range active {
			wanted = wanted || s.want(rel, name)
		}
		if !wanted || read.Load() >= msgReadBudget {
			return
		}
		var buf []byte
		data, ok := dir.ReadFile(name, &buf, min(d.proj.MaxFileBytes(), defFileCap))
		read.Add(int64(len(data)))
		if !ok || projfs.IsBinary(data) {
			return
		}
		for _, s := range active {
			if s.want(rel, name) {
				s.scan(rel, data)
			}
		}
	})
}
