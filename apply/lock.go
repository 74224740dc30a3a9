package apply

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"fixplan/plan"
)

// lockWait is how long a command waits for another fixplan to release the
// project (a variable only so that the lock's test need not wait as long).
var lockWait = 3 * time.Second

// lock takes the project's apply lock: an OS file lock on .fixplan/lock, released
// by the OS when the holder dies, so there is never a stale lock to judge or delete.
// A symbolic link at .fixplan/lock (shipped by a clone) is removed, never followed.
func (e *Engine) lock() (func(), error) {
	e.mu.Lock()
	if err := e.ensureStateDir(); err != nil {
		e.mu.Unlock()
		return nil, err
	}
	name := stateName("lock")
	if fi, err := e.r.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		if err := e.r.Remove(name); err != nil {
			e.mu.Unlock()
			return nil, fmt.Errorf("take lock: .fixplan/lock is not a regular file and cannot be removed: %w", err)
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		e.mu.Unlock()
		return nil, fmt.Errorf("take lock: %w", err)
	}
	fl := flock.New(filepath.Join(e.root, name), flock.SetFlag(os.O_CREATE|os.O_RDWR|noFollow), flock.SetPermissions(0o644))
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		e.mu.Unlock()
		return nil, fmt.Errorf("take lock: %w", err)
	}
	if !ok {
		e.mu.Unlock()
		return nil, plan.Errorf(plan.ErrIO, "another fixplan is applying or undoing changes in this project").
			WithHint("wait for it to finish and try again")
	}
	return func() { _ = fl.Unlock(); e.mu.Unlock() }, nil
}
