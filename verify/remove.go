package verify

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// removeTree deletes a copy. Checks can leave folders without write permission
// (a read-only folder copied from the project, a tool's cache) and a process
// the runner did not kill may still be writing, so a failed removal makes
// every folder writable and tries again a few times. Links are removed, never
// followed.
func removeTree(dir string) error {
	removeParallel(dir)
	err := os.RemoveAll(dir)
	for i := 0; err != nil && i < 5; i++ {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, werr error) error {
			if werr == nil && d.IsDir() {
				_ = os.Chmod(p, 0o700)
			}
			return nil
		})
		time.Sleep(time.Duration(i*50) * time.Millisecond)
		err = os.RemoveAll(dir)
	}
	if err != nil {
		return fmt.Errorf("remove copy: %w", err)
	}
	return nil
}

// removeParallel removes the subtrees of dir with a few workers (folders are
// independent in the kernel, and a copy has thousands): it splits the tree
// breadth-first until there are enough subtrees to share. Files of the folders
// split, and anything that failed, are left for the final os.RemoveAll.
func removeParallel(dir string) {
	workers := max(2*runtime.GOMAXPROCS(0), 4)
	frontier := []string{dir}
	for depth := 0; depth < 6 && len(frontier) < 4*workers; depth++ {
		var next []string
		for _, d := range frontier {
			ents, err := os.ReadDir(d)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if e.IsDir() {
					next = append(next, filepath.Join(d, e.Name()))
				}
			}
		}
		if len(next) == 0 {
			break
		}
		frontier = next
	}
	if len(frontier) < 2 {
		return
	}
	ch := make(chan string)
	var wg sync.WaitGroup
	for range min(len(frontier), workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range ch {
				_ = os.RemoveAll(p)
			}
		}()
	}
	for _, p := range frontier {
		ch <- p
	}
	close(ch)
	wg.Wait()
}
