package verify

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// removeTree deletes a copy. Checks can leave folders without write permission
// (a read-only folder copied from the project, a tool's cache) and a process
// the runner did not kill may still be writing, so a failed removal makes
// every folder writable and tries again a few times. Links are removed, never
// followed.
func removeTree(dir string) error {
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
