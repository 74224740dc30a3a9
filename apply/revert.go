package apply

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"fixplan/plan"
)

// Reverting a transaction (rollback, undo, recovery) is conflict-aware: a file is
// put back only when it holds exactly what the transaction wrote (or, for a
// deleted file, is still absent); anything else is someone's later edit and is
// kept, its original staying in the journal folder. Created folders are removed
// only when empty. inspectRevert decides everything before the first write.

type revertAct int

const (
	actRestore revertAct = iota + 1 // write the saved original back
	actRemove                       // remove a file the transaction created
	actRmdir                        // remove a folder the transaction created, if empty
	actMkdir                        // recreate a folder the transaction removed
)

type revertStep struct {
	i       int // entry index
	act     revertAct
	cur     []byte // what was on disk before the step (to roll an undo forward)
	curMode fs.FileMode
	existed bool
}

// onDisk is what is at a path now.
type onDisk struct {
	exists, dir bool
	data        []byte
	mode        fs.FileMode
}

func (e *Engine) onDisk(rel string) (onDisk, error) {
	fi, err := e.r.Lstat(name(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return onDisk{}, nil
	}
	if err != nil {
		return onDisk{}, err
	}
	d := onDisk{exists: true, dir: fi.IsDir(), mode: fi.Mode().Perm()}
	if fi.Mode().IsRegular() {
		if d.data, err = e.r.ReadFile(name(rel)); err != nil {
			return d, err
		}
	} else if !d.dir {
		d.data = []byte{0} // a link or device: never what the transaction wrote
	}
	return d, nil
}

// inspectRevert returns the steps that revert j's entries (last first) and the
// files that cannot be reverted because they changed since the transaction
// wrote them. It writes nothing.
func (e *Engine) inspectRevert(j *journal) ([]revertStep, []string, error) {
	var steps []revertStep
	var conflicts []string
	for i := len(j.Entries) - 1; i >= 0; i-- {
		en := j.Entries[i]
		d, err := e.onDisk(en.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("inspect %s: %w", en.Path, err)
		}
		st := revertStep{i: i, cur: d.data, curMode: d.mode, existed: d.exists}
		isFile := d.exists && !d.dir
		switch {
		case en.Op == plan.OpMkdir:
			if d.dir {
				st.act = actRmdir
			}
		case en.Op == plan.OpRmdir:
			switch {
			case !d.exists:
				st.act = actMkdir
			case !d.dir:
				conflicts = append(conflicts, en.Path)
			}
		case en.Existed:
			switch {
			case isFile && sum(d.data) == en.Before:
				// never written, or already put back
			case en.Op == plan.OpUpdate && isFile && sum(d.data) == en.After:
				st.act = actRestore
			case en.Op == plan.OpDelete && !d.exists:
				st.act = actRestore
			default:
				conflicts = append(conflicts, en.Path)
			}
		default: // created by the transaction
			switch {
			case !d.exists:
			case isFile && sum(d.data) == en.After:
				st.act = actRemove
			default:
				conflicts = append(conflicts, en.Path)
			}
		}
		if st.act != 0 {
			steps = append(steps, st)
		}
	}
	sortStrings(conflicts)
	return steps, conflicts, nil
}

// execRevert performs steps in order. It returns how many were done and the
// created folders it kept because they are not empty. With a Stager the saved
// originals are staged like an apply's writes (execRevertStaged).
func (e *Engine) execRevert(j *journal, steps []revertStep) (int, []string, error) {
	if st, ok := e.fs.(Stager); ok && st.CanStage() && mkdirsFirst(steps) {
		return e.execRevertStaged(st, j, steps)
	}
	return e.execRevertEach(j, steps)
}

// mkdirsFirst reports whether every folder to recreate comes before the other
// steps (as reverting entries in reverse order gives), so the staged revert may
// make them before writing the temp files that go inside them.
func mkdirsFirst(steps []revertStep) bool {
	other := false
	for _, st := range steps {
		if st.act != actMkdir {
			other = true
		} else if other {
			return false
		}
	}
	return true
}

// execRevertStaged is execRevert in three passes, like doStaged: the folders
// to recreate are made and every original to restore is checked and written to
// a temp file beside its path (stagedName, kind "r"); then all temp files are
// synced; then the steps run in order, each restore a rename. On failure the
// temp files are removed and the count of steps done covers exactly what
// changed (the recreated folders, then the steps of the last pass).
func (e *Engine) execRevertStaged(st Stager, j *journal, steps []revertStep) (int, []string, error) {
	done := 0
	fail := func(n int, path string, err error) (int, []string, error) {
		e.dropTemps(j)
		return n, nil, fmt.Errorf("restore %s: %w", path, err)
	}
	for n, s := range steps {
		en := j.Entries[s.i]
		switch s.act {
		case actMkdir:
			if err := e.fs.Mkdir(e.r, name(en.Path), dirMode(en.Mode)); err != nil {
				return fail(n, en.Path, err)
			}
			done = n + 1
		case actRestore:
			b, err := e.r.ReadFile(txName(j.ID, en.Blob))
			if err != nil {
				return fail(done, en.Path, fmt.Errorf("read the saved original: %w", err))
			}
			if sum(b) != en.Before {
				return fail(done, en.Path, fmt.Errorf("the saved original %s is damaged (its checksum differs)", en.Blob))
			}
			if err := st.WriteTemp(e.r, name(stagedName(j.ID, s.i, en.Path, "r")), b, en.Mode); err != nil {
				return fail(done, en.Path, err)
			}
		}
	}
	for _, s := range steps {
		if en := j.Entries[s.i]; s.act == actRestore {
			if err := st.SyncFile(e.r, name(stagedName(j.ID, s.i, en.Path, "r"))); err != nil {
				return fail(done, en.Path, err)
			}
		}
	}
	var kept []string
	for n, s := range steps {
		en := j.Entries[s.i]
		p := name(en.Path)
		var err error
		switch s.act {
		case actMkdir:
			continue // made in the first pass
		case actRestore:
			err = st.Rename(e.r, name(stagedName(j.ID, s.i, en.Path, "r")), p)
		case actRemove:
			if err = e.fs.Remove(e.r, p); errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		case actRmdir:
			var empty bool
			if empty, err = e.emptyDir(p); err == nil {
				if empty {
					err = e.fs.Remove(e.r, p)
				} else {
					kept = append(kept, en.Path)
				}
			}
		}
		if err != nil {
			e.dropTemps(j)
			return n, kept, fmt.Errorf("restore %s: %w", en.Path, err)
		}
	}
	if err := e.syncParents(stepEntries(j, steps)); err != nil {
		return len(steps), kept, err
	}
	return len(steps), kept, nil
}

// execRevertEach performs the steps one by one (each restore replaced and
// synced on its own).
func (e *Engine) execRevertEach(j *journal, steps []revertStep) (int, []string, error) {
	var kept []string
	for n, st := range steps {
		en := j.Entries[st.i]
		p := name(en.Path)
		var err error
		switch st.act {
		case actRestore:
			var b []byte
			if b, err = e.r.ReadFile(txName(j.ID, en.Blob)); err != nil {
				err = fmt.Errorf("read the saved original: %w", err)
			} else if sum(b) != en.Before {
				err = fmt.Errorf("the saved original %s is damaged (its checksum differs)", en.Blob)
			} else {
				err = e.fs.WriteFile(e.r, p, b, en.Mode)
			}
		case actRemove:
			err = e.fs.Remove(e.r, p)
		case actRmdir:
			var empty bool
			if empty, err = e.emptyDir(p); err == nil {
				if empty {
					err = e.fs.Remove(e.r, p)
				} else {
					kept = append(kept, en.Path)
				}
			}
		case actMkdir:
			err = e.fs.Mkdir(e.r, p, dirMode(en.Mode))
		}
		if err != nil && !(st.act == actRemove && errors.Is(err, fs.ErrNotExist)) {
			return n, kept, fmt.Errorf("restore %s: %w", en.Path, err)
		}
	}
	if err := e.syncParents(stepEntries(j, steps)); err != nil {
		return len(steps), kept, err
	}
	return len(steps), kept, nil
}

func stepEntries(j *journal, steps []revertStep) []entry {
	out := make([]entry, len(steps))
	for i, st := range steps {
		out[i] = j.Entries[st.i]
	}
	return out
}

func (e *Engine) emptyDir(p string) (bool, error) {
	f, err := e.r.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = f.ReadDir(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	return false, err
}

// rollForward undoes the first done steps of an undo that failed, so the files
// are again as the transaction left them.
func (e *Engine) rollForward(j *journal, steps []revertStep, done int, kept []string) error {
	keptSet := map[string]bool{}
	for _, k := range kept {
		keptSet[k] = true
	}
	var errs []error
	for n := done - 1; n >= 0; n-- {
		st := steps[n]
		en := j.Entries[st.i]
		p := name(en.Path)
		var err error
		switch st.act {
		case actRestore:
			if st.existed {
				err = e.fs.WriteFile(e.r, p, st.cur, st.curMode)
			} else {
				err = e.fs.Remove(e.r, p)
			}
		case actRemove:
			err = e.fs.WriteFile(e.r, p, st.cur, st.curMode)
		case actRmdir:
			if !keptSet[en.Path] {
				err = e.fs.Mkdir(e.r, p, 0o755)
			}
		case actMkdir:
			err = e.fs.Remove(e.r, p)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("put back %s: %w", en.Path, err))
		}
	}
	if err := e.syncParents(stepEntries(j, steps[:done])); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
