package verify

import (
	"errors"
	"os"
	"path/filepath"
)

// scratchDir picks the folder the copies go in when the caller named none:
//
//  1. a folder where the file system clones the project's files copy-on-write:
//     the user's cache folder (usually on the same file system as their
//     projects, while /tmp is often another one), then os.TempDir();
//  2. else, on Linux, /dev/shm (tmpfs) when the project is small and memory
//     plentiful (see memoryScratch): creating files there costs a fraction of a
//     disk file system without copy-on-write;
//  3. else os.TempDir().
//
// A candidate inside the project is never used. bytes is the project's size;
// probe opens one regular file of the project (nil: no probe).
func scratchDir(project string, bytes int64, probe func() (*os.File, error)) string {
	tmp := os.TempDir()
	if probe != nil {
		var cands []string
		if cache, err := os.UserCacheDir(); err == nil {
			cands = append(cands, filepath.Join(cache, "fixplan", "verify"))
		}
		cands = append(cands, tmp)
		for _, dir := range cands {
			_, statErr := os.Stat(dir)
			if err := os.MkdirAll(dir, 0o700); err != nil || within(dir, project) {
				continue
			}
			src, err := probe()
			if err != nil {
				break
			}
			ok := reflinkProbe(src, dir)
			src.Close()
			if ok {
				return dir
			}
			if statErr != nil && dir != tmp {
				_ = os.Remove(dir) // made for the probe only
			}
		}
	}
	if dir, ok := memoryScratch(bytes); ok && !within(dir, project) {
		return dir
	}
	return tmp
}

// Bounds for copying into memory: the project at most maxMemoryProject, and
// room for eight times it (two copies, and what the checks write) plus
// memoryMargin both in the tmpfs and in available memory.
const (
	maxMemoryProject = 512 << 20
	memoryMargin     = 2 << 30
)

// someFile opens a non-empty regular file of the project for the probe,
// looking at no more than a few hundred entries near the top.
func someFile(root *os.Root) (*os.File, error) {
	queue := []string{"."}
	for seen := 0; len(queue) > 0 && seen < 500; {
		dir := queue[0]
		queue = queue[1:]
		ents, err := readDir(root, dir)
		if err != nil {
			continue
		}
		for _, de := range ents {
			seen++
			rel := filepath.Join(dir, de.Name())
			switch {
			case de.IsDir() && de.Name() != ".git" && de.Name() != ".fixplan":
				queue = append(queue, rel)
			case de.Type().IsRegular():
				if fi, err := de.Info(); err != nil || fi.Size() == 0 {
					continue
				}
				f, err := root.OpenFile(rel, os.O_RDONLY|openNoBlock, 0)
				if err != nil {
					continue
				}
				if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
					return f, nil
				}
				f.Close()
			}
		}
	}
	return nil, errors.New("find a file to probe: none")
}
