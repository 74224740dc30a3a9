package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fixplan/plan"
)

// Journal states.
const (
	stateApplying   = "applying"
	stateCommitted  = "committed"
	stateRolledBack = "rolled_back"
	stateUndoing    = "undoing"
	stateUndone     = "undone"
)

// journal is .fixplan/tx/<id>/journal.json: everything needed to put the files
// back, written (and synced) before the first change.
type journal struct {
	ID      string    `json:"id"`
	PlanID  string    `json:"plan_id,omitempty"`
	State   string    `json:"state"`
	Created time.Time `json:"created"`
	Entries []entry   `json:"entries"`
	Memory  []string  `json:"memory,omitempty"`
}

type entry struct {
	Path      string      `json:"path"`
	Op        plan.Op     `json:"op"`
	Existed   bool        `json:"existed"`
	Mode      fs.FileMode `json:"mode"`
	Before    string      `json:"before_sha256,omitempty"`
	After     string      `json:"after_sha256,omitempty"`
	AfterMode fs.FileMode `json:"after_mode,omitempty"`
	Blob      string      `json:"blob,omitempty"`
	Implicit  bool        `json:"implicit,omitempty"` // a parent folder created for a new file
	Diff      string      `json:"diff,omitempty"`
	data      []byte
}

func (en entry) isFile() bool { return en.Op != plan.OpMkdir && en.Op != plan.OpRmdir }

// Result reports a transaction.
type Result struct {
	Transaction string            `json:"transaction"`
	PlanID      string            `json:"plan_id"`
	Applied     []plan.FileChange `json:"applied"`
	Memory      []string          `json:"memory"`
	Recovered   bool              `json:"recovered"`
}

// memoryPath is the one file under .fixplan/ a transaction may write.
const memoryPath = ".fixplan/project.json"

// entries turns changes (plus optional project memory bytes) into journal entries,
// adding the parent folders new files need.
func (e *Engine) entries(cs []Change, memory []byte) ([]entry, error) {
	var out []entry
	made := map[string]bool{}
	for _, c := range cs {
		if c.Op == plan.OpMkdir {
			made[c.Path] = true
		}
	}
	for _, c := range cs {
		if c.Op == plan.OpCreate || c.Op == plan.OpMkdir {
			var missing []string
			for d := path.Dir(c.Path); d != "." && !made[d]; d = path.Dir(d) {
				if _, err := os.Lstat(filepath.Join(e.root, filepath.FromSlash(d))); err == nil {
					break
				}
				missing = append(missing, d)
			}
			for i := len(missing) - 1; i >= 0; i-- {
				made[missing[i]] = true
				out = append(out, entry{Path: missing[i], Op: plan.OpMkdir, AfterMode: 0o755, Implicit: true})
			}
		}
		en := entry{Path: c.Path, Op: c.Op, Existed: c.Existed, Mode: c.BeforeMode, Before: c.BeforeSHA256, AfterMode: c.Mode, data: c.After, Diff: c.Preview().Diff}
		if c.Op == plan.OpCreate || c.Op == plan.OpUpdate {
			en.After = sum(c.After)
		}
		out = append(out, en)
	}
	if memory != nil {
		abs := filepath.Join(e.root, filepath.FromSlash(memoryPath))
		en := entry{Path: memoryPath, Op: plan.OpCreate, AfterMode: 0o644, data: memory, After: sum(memory)}
		if b, err := os.ReadFile(abs); err == nil {
			fi, _ := os.Stat(abs)
			en.Op, en.Existed, en.Before, en.Mode = plan.OpUpdate, true, sum(b), fi.Mode().Perm()
			en.AfterMode = en.Mode
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read project memory: %w", err)
		}
		out = append(out, en)
	}
	return out, nil
}

func (e *Engine) abs(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }

func (e *Engine) writeJournal(j *journal) error {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return fmt.Errorf("encode journal: %w", err)
	}
	return e.fs.WriteFile(filepath.Join(e.txDir(j.ID), "journal.json"), append(b, '\n'), 0o644)
}

func (e *Engine) mkdirAll(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := e.mkdirAll(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := e.fs.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// run executes entries as one transaction: journal first, then each change; on
// any error everything done is restored and the error returned with nothing changed.
func (e *Engine) run(ctx context.Context, j *journal) error {
	if err := ctx.Err(); err != nil {
		return plan.Errorf(plan.ErrCancelled, "apply was cancelled before it started")
	}
	dir := e.txDir(j.ID)
	if err := e.mkdirAll(dir); err != nil {
		return ioErr("create the journal", err)
	}
	for i := range j.Entries {
		en := &j.Entries[i]
		if !en.Existed || !en.isFile() {
			continue
		}
		b, err := os.ReadFile(e.abs(en.Path))
		if err != nil {
			e.discard(j.ID)
			return ioErr("read "+en.Path, err)
		}
		if sum(b) != en.Before {
			e.discard(j.ID)
			return baseMismatch([]string{en.Path})
		}
		en.Blob = fmt.Sprintf("%04d.orig", i)
		if err := e.fs.WriteFile(filepath.Join(dir, en.Blob), b, 0o600); err != nil {
			e.discard(j.ID)
			return ioErr("save the original of "+en.Path, err)
		}
	}
	j.State = stateApplying
	if err := e.writeJournal(j); err != nil {
		e.discard(j.ID)
		return ioErr("write the journal", err)
	}
	for i, en := range j.Entries {
		if err := e.do(en); err != nil {
			rerr := e.restore(j.ID, j.Entries[:i+1])
			j.State = stateRolledBack
			_ = e.writeJournal(j)
			if rerr != nil {
				return &plan.Error{Code: plan.ErrIO, Msg: fmt.Sprintf("applying %s failed and the rollback could not restore everything", en.Path),
					Err: errors.Join(err, rerr), Hint: "the originals are kept in .fixplan/tx/" + j.ID, Paths: []string{en.Path}}
			}
			return &plan.Error{Code: plan.ErrIO, Msg: fmt.Sprintf("writing %s failed; every file was restored, nothing changed", en.Path),
				Err: err, Paths: []string{en.Path}, Hint: "check permissions and free space, then apply again"}
		}
	}
	j.State = stateCommitted
	if err := e.writeJournal(j); err != nil {
		rerr := e.restore(j.ID, j.Entries)
		if rerr != nil {
			return &plan.Error{Code: plan.ErrIO, Msg: "committing the journal failed and the rollback could not restore everything", Err: errors.Join(err, rerr),
				Hint: "the originals are kept in .fixplan/tx/" + j.ID}
		}
		j.State = stateRolledBack
		_ = e.writeJournal(j)
		return ioErr("commit the journal (every file was restored)", err)
	}
	e.prune()
	return nil
}

func ioErr(what string, err error) error {
	return &plan.Error{Code: plan.ErrIO, Msg: "could not " + what + "; nothing was changed", Err: err, Hint: "check permissions and free space"}
}

func baseMismatch(paths []string) error {
	return (&plan.Error{Code: plan.ErrBaseMismatch, Msg: "changed since the preview: " + strings.Join(paths, ", "), Paths: paths}).
		WithHint("nothing was written; re-plan so the changes are computed from the files as they are now")
}

// discard removes a transaction folder that never started.
func (e *Engine) discard(id string) { _ = os.RemoveAll(e.txDir(id)) }

// do performs one entry.
func (e *Engine) do(en entry) error {
	p := e.abs(en.Path)
	switch en.Op {
	case plan.OpCreate, plan.OpUpdate:
		return e.fs.WriteFile(p, en.data, en.AfterMode)
	case plan.OpDelete, plan.OpRmdir:
		return e.fs.Remove(p)
	case plan.OpMkdir:
		return e.fs.Mkdir(p, 0o755)
	}
	return fmt.Errorf("unknown op %q", en.Op)
}

// restore puts entries back to their original state, last first, and verifies the
// result. It is idempotent, so recovery can run it on a half-applied journal.
func (e *Engine) restore(id string, ens []entry) error {
	var errs []error
	for i := len(ens) - 1; i >= 0; i-- {
		if err := e.undoEntry(id, ens[i]); err != nil {
			errs = append(errs, fmt.Errorf("restore %s: %w", ens[i].Path, err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return e.verify(ens)
}

func (e *Engine) undoEntry(id string, en entry) error {
	p := e.abs(en.Path)
	fi, statErr := os.Lstat(p)
	exists := statErr == nil
	switch en.Op {
	case plan.OpMkdir:
		if exists && fi.IsDir() {
			if err := e.fs.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	case plan.OpRmdir:
		if !exists {
			return e.fs.Mkdir(p, dirMode(en.Mode))
		}
		return nil
	}
	if !en.Existed {
		if exists {
			return e.fs.Remove(p)
		}
		return nil
	}
	if exists {
		if b, err := os.ReadFile(p); err == nil && sum(b) == en.Before && fi.Mode().Perm() == en.Mode.Perm() {
			return nil
		}
	}
	b, err := os.ReadFile(filepath.Join(e.txDir(id), en.Blob))
	if err != nil {
		return fmt.Errorf("read the saved original: %w", err)
	}
	return e.fs.WriteFile(p, b, en.Mode)
}

func dirMode(m fs.FileMode) fs.FileMode {
	if m.Perm() == 0 {
		return 0o755
	}
	return m.Perm()
}

// verify checks every file is back to its original bytes (or absent).
func (e *Engine) verify(ens []entry) error {
	var bad []string
	for _, en := range ens {
		if !en.isFile() {
			continue
		}
		b, err := os.ReadFile(e.abs(en.Path))
		switch {
		case en.Existed && (err != nil || sum(b) != en.Before):
			bad = append(bad, en.Path)
		case !en.Existed && err == nil:
			bad = append(bad, en.Path)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("not restored: %s", strings.Join(bad, ", "))
	}
	return nil
}

// journals lists transaction journals, newest first.
func (e *Engine) journals() ([]*journal, []string, error) {
	ents, err := os.ReadDir(e.stateDir("tx"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list transactions: %w", err)
	}
	var out []*journal
	var orphans []string
	names := make([]string, 0, len(ents))
	for _, d := range ents {
		if d.IsDir() {
			names = append(names, d.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(e.txDir(n), "journal.json"))
		if err != nil {
			orphans = append(orphans, n)
			continue
		}
		var j journal
		if err := json.Unmarshal(b, &j); err != nil {
			orphans = append(orphans, n)
			continue
		}
		out = append(out, &j)
	}
	return out, orphans, nil
}

// prune keeps the newest Keep finished transactions.
func (e *Engine) prune() {
	js, _, err := e.journals()
	if err != nil {
		return
	}
	kept := 0
	for _, j := range js {
		if j.State == stateApplying || j.State == stateUndoing {
			continue
		}
		kept++
		if kept > e.opt.Keep {
			_ = os.RemoveAll(e.txDir(j.ID))
		}
	}
}
