package projfs

import (
	"io"
	"os"
	"time"
)

// rootDir is the portable Dir, built on os.Root: every open is confined to
// the directory and symlinks that leave it are refused.
type rootDir struct{ r *os.Root }

func openRootTop(root string) (Dir, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	return rootDir{r}, nil
}

func (d rootDir) list() ([]dirent, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	out := make([]dirent, 0, len(ents))
	for _, e := range ents {
		t := e.Type()
		out = append(out, dirent{name: e.Name(), dir: t.IsDir(), file: t.IsRegular()})
	}
	return out, err
}

func (d rootDir) sub(name string) (Dir, error) {
	st, err := d.r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() { // replaced by a symlink or a file since the listing
		return nil, os.ErrNotExist
	}
	r, err := d.r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	return rootDir{r}, nil
}

func (d rootDir) subPath(rel string) (Dir, error) { return subPathByComponent(d, rel) }

// ReadFile reads name when it has one hard link (no policy here to ask).
func (d rootDir) ReadFile(name string, bp *[]byte, limit int64) ([]byte, bool) {
	data, links, ok := d.read(name, bp, limit)
	return data, ok && links <= 1
}

func (d rootDir) read(name string, bp *[]byte, limit int64) ([]byte, uint64, bool) {
	st, err := d.r.Lstat(name)
	if err != nil || !st.Mode().IsRegular() || st.Size() > limit {
		return nil, 0, false
	}
	f, st, err := OpenIn(d.r, name, name) // the type seen on the descriptor
	if err != nil {
		return nil, 0, false
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, 0, false
	}
	data, ok := readAllLimit(f, bp, limit)
	return data, linkCount(f, st), ok
}

func (d rootDir) ModTime(name string) (time.Time, bool) {
	st, err := d.r.Lstat(name)
	if err != nil {
		return time.Time{}, false
	}
	return st.ModTime(), true
}

func (d rootDir) close() { d.r.Close() }

// readAllLimit reads r to the end into *bp (grown when needed); false when
// reading fails or more than limit bytes come.
func readAllLimit(r io.Reader, bp *[]byte, limit int64) ([]byte, bool) {
	if cap(*bp) < 64<<10 {
		*bp = make([]byte, 0, 64<<10)
	}
	buf := (*bp)[:cap(*bp)]
	n := 0
	for {
		m, err := r.Read(buf[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false
		}
		if int64(n) > limit {
			return nil, false
		}
		if n == len(buf) {
			nb := make([]byte, 2*len(buf))
			copy(nb, buf[:n])
			buf = nb
			*bp = nb[:0]
		}
	}
	return buf[:n], true
}
