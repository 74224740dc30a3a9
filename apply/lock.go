package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"fixplan/plan"
)

// staleLock is the age after which a lock whose owner cannot be checked is taken over.
const staleLock = 10 * time.Minute

// lock takes the project's apply lock (.fixplan/lock, created exclusively, holding
// the pid). A lock left by a dead process is taken over.
func (e *Engine) lock() (func(), error) {
	e.mu.Lock()
	if err := e.ensureStateDir(); err != nil {
		e.mu.Unlock()
		return nil, err
	}
	p := e.stateDir("lock")
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(p); e.mu.Unlock() }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			e.mu.Unlock()
			return nil, fmt.Errorf("take lock: %w", err)
		}
		if !lockIsStale(p) {
			break
		}
		os.Remove(p)
	}
	e.mu.Unlock()
	return nil, plan.Errorf(plan.ErrIO, "another fixplan is applying changes in this project").
		WithHint("wait for it to finish; if none runs, delete .fixplan/lock")
}

func lockIsStale(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return true
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		fi, err := os.Stat(p)
		return err != nil || time.Since(fi.ModTime()) > staleLock
	}
	return pid != os.Getpid() && !pidAlive(pid)
}
