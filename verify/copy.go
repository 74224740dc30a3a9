package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// filesPerTask bounds one worker's share of a folder, so that a folder with
// thousands of files (node_modules/.bin, a generated tree) is spread out.
const filesPerTask = 128

// copier copies the files of one manifest; its counters are shared by the
// workers.
type copier struct {
	src, dst *os.Root
	opt      CloneOptions
	maxBytes int64

	reflinkOff    atomic.Bool // the file system refused: stop asking
	reflinkWorked atomic.Bool
	noteOnce      sync.Once
	note          string

	cloned, copied, bytes, files, changed atomic.Int64

	mu   sync.Mutex
	stat *CloneStats // skipped entries
}

type copyTask struct {
	dir   string
	files []entry
}

// copyTree writes the tree m describes into the empty folder dst.
func copyTree(ctx context.Context, srcRoot *os.Root, dst string, m *manifest, opt CloneOptions) (CloneStats, error) {
	st := CloneStats{SkippedLinks: m.skipped.SkippedLinks, SkippedCount: m.skipped.SkippedCount,
		Skipped: append([]Skipped(nil), m.skipped.Skipped...)}
	dstRoot, err := os.OpenRoot(dst)
	if err != nil {
		return st, fmt.Errorf("clone project: %w", err)
	}
	defer dstRoot.Close()
	for _, d := range m.dirs {
		if err := dstRoot.Mkdir(d.rel, dirPerm); err != nil {
			return st, fmt.Errorf("clone project: create folder %s: %w", d.rel, err)
		}
	}
	st.Dirs = int64(len(m.dirs))
	c := &copier{src: srcRoot, dst: dstRoot, opt: opt, maxBytes: opt.maxBytes(), stat: &st}
	if err := c.run(ctx, tasksOf(m.files)); err != nil {
		c.fill(&st)
		return st, err
	}
	for _, l := range m.links {
		if err := dstRoot.Symlink(l.target, l.rel); err != nil {
			// Windows without the privilege to create links, mostly.
			st.skip(l.rel, "symbolic link could not be created in the copy")
			continue
		}
		st.Links++
	}
	for i := len(m.dirs) - 1; i >= 0; i-- {
		if d := m.dirs[i]; d.mode.Perm() != dirPerm {
			if err := dstRoot.Chmod(d.rel, d.mode.Perm()); err != nil {
				return st, fmt.Errorf("clone project: set mode of %s: %w", d.rel, err)
			}
		}
	}
	c.fill(&st)
	return st, nil
}

func (c *copier) fill(st *CloneStats) {
	st.Files, st.Bytes = c.files.Load(), c.bytes.Load()
	st.Cloned, st.Copied, st.Changed = c.cloned.Load(), c.copied.Load(), c.changed.Load()
	switch {
	case c.opt.NoReflink:
		st.Reflink = "off"
	case c.reflinkWorked.Load():
		st.Reflink = "yes"
	case c.note != "":
		st.Reflink, st.ReflinkNote = "no", c.note
	default:
		st.Reflink = "n/a"
	}
}

// tasksOf groups files by folder, at most filesPerTask in a task.
func tasksOf(files []entry) []copyTask {
	byDir := map[string]int{}
	var tasks []copyTask
	for _, f := range files {
		dir := filepath.Dir(f.rel)
		i, ok := byDir[dir]
		if !ok || len(tasks[i].files) >= filesPerTask {
			tasks = append(tasks, copyTask{dir: dir})
			i = len(tasks) - 1
			byDir[dir] = i
		}
		tasks[i].files = append(tasks[i].files, f)
	}
	return tasks
}

// run copies the tasks with a small pool of workers; the first error stops
// the others.
func (c *copier) run(ctx context.Context, tasks []copyTask) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan copyTask)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	for range min(c.opt.workers(), max(len(tasks), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range ch {
				if err := c.copyDir(ctx, t); err != nil {
					fail(err)
				}
			}
		}()
	}
feed:
	for _, t := range tasks {
		select {
		case ch <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func (c *copier) skip(rel, reason string) {
	c.mu.Lock()
	c.stat.skip(rel, reason)
	c.mu.Unlock()
}

// copyDir copies one task's files, opening the folder once on each side so
// that each file is opened by its single name.
func (c *copier) copyDir(ctx context.Context, t copyTask) error {
	srcDir, dstDir := c.src, c.dst
	if t.dir != "." {
		var err error
		if srcDir, err = c.src.OpenRoot(t.dir); err != nil {
			for _, f := range t.files {
				c.skip(f.rel, "folder cannot be read")
			}
			return nil
		}
		defer srcDir.Close()
		if dstDir, err = c.dst.OpenRoot(t.dir); err != nil {
			return fmt.Errorf("clone project: open folder %s in the copy: %w", t.dir, err)
		}
		defer dstDir.Close()
	}
	pl := &placer{}
	defer pl.close()
	for _, f := range t.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.copyFile(srcDir, dstDir, pl, f); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies one regular file. Problems on the project's side (the file
// vanished, became a link or a pipe, cannot be read) skip it; problems writing
// the copy are errors.
func (c *copier) copyFile(srcDir, dstDir *os.Root, pl *placer, f entry) error {
	name := filepath.Base(f.rel)
	src, err := srcDir.OpenFile(name, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			c.skip(f.rel, "removed during the copy")
		case errors.Is(err, fs.ErrPermission):
			c.skip(f.rel, "file cannot be read")
		default:
			c.skip(f.rel, "changed during the copy and cannot be opened safely")
		}
		return nil
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		c.skip(f.rel, "not a regular file")
		return nil
	}
	size := fi.Size()
	if size != f.size || !fi.ModTime().Equal(f.mtime) {
		c.changed.Add(1)
	}
	if n := c.bytes.Add(size); c.maxBytes >= 0 && n > c.maxBytes {
		return &TooLargeError{Files: c.files.Load(), Bytes: n, MaxFiles: c.opt.maxFiles(), MaxBytes: c.maxBytes}
	}
	cloned, err := c.place(src, dstDir, pl, name, size, fi.Mode().Perm(), fi.ModTime())
	if err != nil {
		return fmt.Errorf("clone project: copy %s: %w", f.rel, err)
	}
	if cloned {
		c.cloned.Add(1)
	} else {
		c.copied.Add(1)
	}
	c.files.Add(1)
	return nil
}

// tryReflink says whether to ask the file system for a clone.
func (c *copier) tryReflink() bool {
	return !c.opt.NoReflink && !c.reflinkOff.Load()
}

// reflinkFailed records why the file system did not clone; when the reason is
// the file system itself (unsupported is true), no later file asks again.
func (c *copier) reflinkFailed(err error, unsupported bool) {
	c.noteOnce.Do(func() { c.note = err.Error() })
	if unsupported {
		c.reflinkOff.Store(true)
	}
}

// createCopy creates name in dstDir and copies size bytes of src into it (the
// kernel copies where it can: copy_file_range on Linux), with mode perm and
// modification time mtime. before, when not nil, may fill the new file instead
// and returns true when it did.
func createCopy(dstDir *os.Root, name string, src *os.File, size int64, perm fs.FileMode, mtime time.Time, before func(dst *os.File) bool) (filled bool, err error) {
	dst, err := dstDir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, err
	}
	if before != nil && size > 0 {
		filled = before(dst)
	}
	if !filled {
		if _, err := io.Copy(dst, io.LimitReader(src, size)); err != nil {
			dst.Close()
			return false, err
		}
	}
	if err := dst.Chmod(perm); err != nil {
		dst.Close()
		return false, err
	}
	if err := setTimes(dst, dstDir, name, mtime); err != nil {
		dst.Close()
		return false, err
	}
	return filled, dst.Close()
}
