package projfs

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Tree is the listing of the project's files one walk gives (the files Walk
// visits), made once, on the first call that needs it, and shared by the
// readers of one operation — in a base context the frames' file index, the
// failing tests' definitions, the definitions' message and name searches and
// the recent files — so the tree is walked once however many of them read it.
// Its files are read again where they are when a reader asks (Scan, Search):
// each folder is opened directly by its path below the root, never through a
// symlink, and not listed again. A file created after the listing is not in
// it; one removed since is skipped. Safe for concurrent use.
type Tree struct {
	r    *Root
	opts TreeOptions
	once sync.Once
	dirs []treeDir // sorted by rel
	n    int       // files
}

// TreeOptions tune a Tree.
type TreeOptions struct {
	// ModTimes records each file's modification time as it is listed (one
	// stat per file, without following a symlink), for ModTimes.
	ModTimes bool
}

// treeDir is one listed folder: its root-relative path ("" for the root) and
// its files' names, sorted, with their modification times (Unix nanoseconds;
// 0 when unknown) when asked.
type treeDir struct {
	rel   string
	names []string
	mods  []int64
}

// Tree returns a listing of r's files, made on its first use.
func (r *Root) Tree(o TreeOptions) *Tree { return &Tree{r: r, opts: o} }

// Root is the root the tree lists.
func (t *Tree) Root() *Root { return t.r }

// list walks the root once; a walk stopped by ctx leaves the listing partial.
func (t *Tree) list(ctx context.Context) {
	t.once.Do(func() {
		var mu sync.Mutex
		_ = t.r.walk(ctx, func(dir Dir, rel string, names []string) {
			d := treeDir{rel: rel, names: slices.Clone(names)}
			slices.Sort(d.names)
			if t.opts.ModTimes {
				d.mods = make([]int64, len(d.names))
				for i, n := range d.names {
					if mt, ok := dir.ModTime(n); ok {
						d.mods[i] = mt.UnixNano()
					}
				}
			}
			mu.Lock()
			t.dirs = append(t.dirs, d)
			t.n += len(names)
			mu.Unlock()
		})
		slices.SortFunc(t.dirs, func(a, b treeDir) int { return cmp.Compare(a.rel, b.rel) })
	})
}

// Len is the number of files listed.
func (t *Tree) Len(ctx context.Context) int {
	t.list(ctx)
	return t.n
}

// Files yields every listed file's root-relative path and base name, folder by
// folder in path order.
func (t *Tree) Files(ctx context.Context) iter.Seq2[string, string] {
	return func(yield func(rel, name string) bool) {
		t.list(ctx)
		for _, d := range t.dirs {
			for _, n := range d.names {
				if !yield(joinRel(d.rel, n), n) {
					return
				}
			}
		}
	}
}

// ModTimes yields every listed file whose modification time is known, with
// it. A tree made without TreeOptions.ModTimes stats its files now (each
// folder opened once, not listed again).
func (t *Tree) ModTimes(ctx context.Context) iter.Seq2[string, time.Time] {
	return func(yield func(string, time.Time) bool) {
		t.list(ctx)
		mods := make([][]int64, len(t.dirs))
		if t.opts.ModTimes {
			for i, d := range t.dirs {
				mods[i] = d.mods
			}
		} else {
			_ = t.eachDir(ctx, nil, func(i int, dir Dir) {
				m := make([]int64, len(t.dirs[i].names))
				for j, n := range t.dirs[i].names {
					if mt, ok := dir.ModTime(n); ok {
						m[j] = mt.UnixNano()
					}
				}
				mods[i] = m
			})
		}
		for i, d := range t.dirs {
			for j, n := range d.names {
				if j < len(mods[i]) && mods[i][j] != 0 && !yield(joinRel(d.rel, n), time.Unix(0, mods[i][j])) {
					return
				}
			}
		}
	}
}

// ScanOptions tune Scan.
type ScanOptions struct {
	// Want picks the files read (rel root-relative, name its base name); nil
	// reads every file.
	Want func(rel, name string) bool
	// MaxFileBytes skips bigger files; 0 means the Root's MaxFileBytes.
	MaxFileBytes int64
	// MaxReadBytes stops reading more files once this many bytes were read in
	// all (a huge tree is read in part rather than slowly); 0: no bound.
	MaxReadBytes int64
	// Rank orders the folders read (lower first; folders of equal rank in path
	// order), so that the files that matter most are read before MaxReadBytes
	// runs out; nil: path order.
	Rank func(dir string) int
}

// scanned counts the folders of trees read by Scan, for tests.
var scanned atomic.Int64

// Scan reads the listed files o.Want picks, in parallel, and gives each one's
// bytes to fn (on several goroutines at once; data is valid only during the
// call). Files that cannot be read, are not regular files, are bigger than the
// bound or may not be read for the model (Open's hard-link decision) are
// skipped; binary files are not (IsBinary is the caller's choice). It stops
// early when ctx is done.
func (t *Tree) Scan(ctx context.Context, o ScanOptions, fn func(rel string, data []byte)) error {
	t.list(ctx)
	limit := o.MaxFileBytes
	if limit <= 0 {
		limit = t.r.opts.MaxFileBytes
	}
	// the files each folder gives, and the folders to open
	want := make([][]string, len(t.dirs))
	var order []int
	for i, d := range t.dirs {
		for _, n := range d.names {
			if o.Want == nil || o.Want(joinRel(d.rel, n), n) {
				want[i] = append(want[i], n)
			}
		}
		if len(want[i]) > 0 {
			order = append(order, i)
		}
	}
	if o.Rank != nil {
		ranks := make([]int, len(t.dirs))
		for _, i := range order {
			ranks[i] = o.Rank(t.dirs[i].rel)
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	}
	scanned.Add(int64(len(order)))
	var read atomic.Int64
	pool := sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}
	return t.eachDir(ctx, order, func(i int, dir Dir) {
		bp := pool.Get().(*[]byte)
		defer pool.Put(bp)
		for _, n := range want[i] {
			if o.MaxReadBytes > 0 && read.Load() >= o.MaxReadBytes || ctx.Err() != nil {
				return
			}
			data, ok := dir.ReadFile(n, bp, limit)
			read.Add(int64(len(data)))
			if ok {
				fn(joinRel(t.dirs[i].rel, n), data)
			}
		}
	})
}

// scanWorkers is how many folders of a tree are read at once (a variable so a
// test can read one at a time).
var scanWorkers = func(folders int) int { return min(max(runtime.GOMAXPROCS(0), 2), folders) }

// eachDir opens the listed folders of order (indices of t.dirs; nil: all),
// in parallel, roughly in that order, and calls fn with each (with Open's
// hard-link decision; open only during the call). A folder that cannot be
// opened (removed, replaced by a symlink) is skipped.
func (t *Tree) eachDir(ctx context.Context, order []int, fn func(i int, dir Dir)) error {
	if order == nil {
		order = make([]int, len(t.dirs))
		for i := range order {
			order[i] = i
		}
	}
	if len(order) == 0 {
		return ctx.Err()
	}
	top, err := t.r.openTop(t.r.dir)
	if err != nil {
		return fmt.Errorf("open root: %w", err)
	}
	defer top.close()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range scanWorkers(len(order)) {
		wg.Go(func() {
			for ctx.Err() == nil {
				k := int(next.Add(1)) - 1
				if k >= len(order) {
					return
				}
				i := order[k]
				rel := t.dirs[i].rel
				h := top
				if rel != "" {
					sub, err := top.subPath(rel)
					if err != nil {
						continue
					}
					h = sub
				}
				fn(i, guardedDir{Dir: h, r: t.r, rel: rel})
				if rel != "" {
					h.close()
				}
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}
