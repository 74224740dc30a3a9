package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
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
	// stateHeld: recovery could not finish (an I/O error); the journal is set
	// aside for the user to inspect or discard, and blocks nothing.
	stateHeld = "held"
)

// journal is the body of .fixplan/tx/<id>/journal.json (sealed, see trust.go):
// everything needed to put the files back, written and synced before the first change.
type journal struct {
	ID      string    `json:"id"`
	PlanID  string    `json:"plan_id,omitempty"`
	State   string    `json:"state"`
	Created time.Time `json:"created"`
	Entries []entry   `json:"entries"`
	Memory  []string  `json:"memory,omitempty"`
	// Kept are files a recovery left alone because they no longer held what the
	// transaction wrote (edited after the crash); their originals stay here.
	Kept []string `json:"kept,omitempty"`
	// Problem says why a held journal could not be recovered.
	Problem string `json:"problem,omitempty"`
	// Interrupted is the state a recovery found ("applying" or "undoing").
	Interrupted string `json:"interrupted,omitempty"`
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
	// Diff is only in journals written before diffs were left out (they are
	// recomputed from the saved original when an undo reports them).
	Diff string `json:"diff,omitempty"`
	data []byte
	// before holds the bytes Before is the hash of, while the change that
	// read them is in memory (nil otherwise): the saved original is compared
	// with them, which costs less than hashing it again.
	before []byte
}

// sameBefore reports whether b are the bytes the change was computed from.
func (en *entry) sameBefore(b []byte) bool {
	if en.before != nil {
		return bytes.Equal(b, en.before)
	}
	return sum(b) == en.Before
}

func (en entry) isFile() bool { return en.Op != plan.OpMkdir && en.Op != plan.OpRmdir }

// blobName is the one form a saved original's name may have.
func blobName(i int) string { return fmt.Sprintf("%04d.orig", i) }

// Result reports a transaction.
type Result struct {
	Transaction string            `json:"transaction"`
	PlanID      string            `json:"plan_id"`
	Applied     []plan.FileChange `json:"applied"`
	Memory      []string          `json:"memory"`
	Recovered   bool              `json:"recovered"`
	// Kept are folders an undo left in place because they hold files it did not create.
	Kept []string `json:"kept,omitempty"`
}

// memoryPath is the one file under .fixplan/ a transaction may write.
const memoryPath = ".fixplan/project.json"

// name is the OS form of a root-relative slash path, for os.Root.
func name(rel string) string { return filepath.FromSlash(rel) }

// txName is the root-relative name of a file in a transaction's folder.
func txName(id string, parts ...string) string {
	return stateName(append([]string{"tx", id}, parts...)...)
}

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
				if _, err := e.r.Lstat(name(d)); err == nil {
					break
				}
				missing = append(missing, d)
			}
			for i := len(missing) - 1; i >= 0; i-- {
				made[missing[i]] = true
				out = append(out, entry{Path: missing[i], Op: plan.OpMkdir, AfterMode: 0o755, Implicit: true})
			}
		}
		en := entry{Path: c.Path, Op: c.Op, Existed: c.Existed, Mode: c.BeforeMode, Before: c.BeforeSHA256, AfterMode: c.Mode, data: c.After}
		if c.Before != nil && c.BeforeSHA256 != "" {
			en.before = c.Before // BeforeSHA256 is always the hash of Before when both are set
		}
		if c.Op == plan.OpCreate || c.Op == plan.OpUpdate {
			en.After = sum(c.After)
		}
		out = append(out, en)
	}
	if memory != nil {
		en := entry{Path: memoryPath, Op: plan.OpCreate, AfterMode: 0o644, data: memory, After: sum(memory)}
		fi, err := e.r.Lstat(name(memoryPath))
		switch {
		case err == nil && !fi.Mode().IsRegular():
			return nil, (&plan.Error{Code: plan.ErrProtectedPath, Msg: memoryPath + " is not a regular file (a link or a folder)", Paths: []string{memoryPath}}).
				WithHint("remove it; fixplan writes project memory only as a plain file")
		case err == nil:
			b, err := e.r.ReadFile(name(memoryPath))
			if err != nil {
				return nil, fmt.Errorf("read project memory: %w", err)
			}
			en.Op, en.Existed, en.Before, en.Mode = plan.OpUpdate, true, sum(b), fi.Mode().Perm()
			en.AfterMode = en.Mode
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("read project memory: %w", err)
		}
		out = append(out, en)
	}
	return out, nil
}

// writeJournal seals and atomically writes the journal (compact JSON: only
// fixplan reads it, and start-up reads just its first bytes, see headState).
func (e *Engine) writeJournal(j *journal) error {
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("encode journal: %w", err)
	}
	if err := e.fs.WriteFile(e.r, txName(j.ID, "journal.json"), e.sealJournal(j.ID, j.State, b), 0o644); err != nil {
		return err
	}
	// The journal's folder also holds the saved originals: one sync makes both durable.
	return e.fs.SyncDir(e.r, txName(j.ID))
}

// saveOriginal keeps the bytes of en.Path as .fixplan/tx/<id>/<en.Blob> and checks
// they are still the preview's (ERR_BASE_MISMATCH otherwise). Where it is safe the
// original is kept as a hard link, without copying or syncing its bytes: every
// write of a transaction replaces a file by renaming a new one over it and a
// removal only drops the name, so the linked inode keeps the original bytes. That
// needs a file with no other link (nobody else can write those bytes through
// another name), the journal on the same filesystem and an FS that can link
// (OSFS off Windows); otherwise the bytes are copied and fsynced. The link's
// folder entry becomes durable with the journal's folder sync.
func (e *Engine) saveOriginal(txr *os.Root, id string, en *entry) error {
	blob := txName(id, en.Blob)
	if l, ok := e.fs.(Linker); ok {
		if fi, err := e.r.Lstat(name(en.Path)); err == nil && fi.Mode().IsRegular() && linkCount(fi) == 1 {
			err := l.Link(e.r, name(en.Path), blob)
			if err == nil {
				b, err := readIn(txr, en.Blob)
				switch {
				case err != nil:
					return ioErr("read the original of "+en.Path, err)
				case !en.sameBefore(b):
					return baseMismatch([]string{en.Path})
				}
				return nil
			}
			if !linkRefused(err) {
				return ioErr("save the original of "+en.Path, err)
			}
			// Another filesystem, or links not allowed there: copy instead.
		}
	}
	b, err := readIn(e.r, name(en.Path))
	if err != nil {
		return ioErr("read "+en.Path, err)
	}
	if !en.sameBefore(b) {
		return baseMismatch([]string{en.Path})
	}
	if err := e.fs.WriteFile(e.r, blob, b, 0o600); err != nil {
		return ioErr("save the original of "+en.Path, err)
	}
	return nil
}

// syncParents fsyncs, once each, the folders holding the entries' paths, so every
// rename, removal and new folder of a transaction is durable before its next state.
func (e *Engine) syncParents(ens []entry) error {
	seen := map[string]bool{}
	var dirs []string
	for _, en := range ens {
		d := path.Dir(en.Path)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sortStrings(dirs)
	for _, d := range dirs {
		if _, err := e.r.Lstat(name(d)); errors.Is(err, fs.ErrNotExist) {
			continue // removed by the transaction itself; its parent is synced
		}
		if err := e.fs.SyncDir(e.r, name(d)); err != nil {
			return fmt.Errorf("sync %s: %w", d, err)
		}
	}
	return nil
}

// run executes entries as one transaction: journal first, then each change; on
// any error everything done is restored and the error returned with nothing changed.
func (e *Engine) run(ctx context.Context, j *journal) error {
	if err := ctx.Err(); err != nil {
		return plan.Errorf(plan.ErrCancelled, "apply was cancelled before it started")
	}
	if err := e.ensureStateDir("tx"); err != nil {
		return err
	}
	// 0700: the originals inside may be hard links that keep their file's mode;
	// the folder keeps other users of the machine out of the old versions.
	if err := e.fs.Mkdir(e.r, txName(j.ID), 0o700); err != nil {
		return ioErr("create the journal", err)
	}
	// The saved originals are read back from the transaction's folder, held open
	// here instead of walking .fixplan/tx/<id> for each one.
	txr, err := e.r.OpenRoot(txName(j.ID))
	if err != nil {
		e.discard(j.ID)
		return ioErr("open the journal's folder", err)
	}
	for i := range j.Entries {
		en := &j.Entries[i]
		if !en.Existed || !en.isFile() {
			continue
		}
		en.Blob = blobName(i)
		if err := e.saveOriginal(txr, j.ID, en); err != nil {
			txr.Close()
			e.discard(j.ID)
			return err
		}
	}
	txr.Close()
	j.State = stateApplying
	if err := e.writeJournal(j); err != nil {
		e.discard(j.ID)
		return ioErr("write the journal", err)
	}
	// The journal's own folder entry too, before the first change (the journal
	// file and the originals were synced with their folder by writeJournal).
	if err := e.fs.SyncDir(e.r, stateName("tx")); err != nil {
		e.discard(j.ID)
		return ioErr("write the journal", err)
	}
	var n int
	var failed string
	if st, ok := e.fs.(Stager); ok && st.CanStage() {
		n, failed, err = e.doStaged(st, j)
	} else {
		n, failed, err = e.doEach(j)
	}
	if err == nil {
		// Every rename, removal and new folder durable before the commit.
		if err = e.syncParents(j.Entries); err != nil {
			n, failed = len(j.Entries), "the changed folders"
		}
	}
	if err != nil {
		e.dropTemps(j)
		rerr := e.rollback(j, n)
		j.State = stateRolledBack
		_ = e.writeJournal(j)
		if rerr != nil {
			return &plan.Error{Code: plan.ErrIO, Msg: fmt.Sprintf("applying %s failed and the rollback could not restore everything", failed),
				Err: errors.Join(err, rerr), Hint: "the originals are kept in .fixplan/tx/" + j.ID, Paths: []string{failed}}
		}
		return &plan.Error{Code: plan.ErrIO, Msg: fmt.Sprintf("writing %s failed; every file was restored, nothing changed", failed),
			Err: err, Paths: []string{failed}, Hint: "check permissions and free space, then apply again"}
	}
	j.State = stateCommitted
	if err := e.writeJournal(j); err != nil {
		if rerr := e.rollback(j, len(j.Entries)); rerr != nil {
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

// doEach performs the entries one by one (each file replaced atomically and
// synced on its own). On failure it returns how many entries a rollback must
// look at and the path that failed.
func (e *Engine) doEach(j *journal) (int, string, error) {
	for i, en := range j.Entries {
		if err := e.do(en); err != nil {
			return i + 1, en.Path, err
		}
	}
	return len(j.Entries), "", nil
}

// doStaged performs the entries in three passes: new folders are made and every
// new file content is written to a temp file beside its target (stagedName); then
// every temp file is synced; then, in order, each temp file is renamed over its
// target and the removals are done. The content of every file is durable before
// the first target changes, and on a journaling filesystem the syncs cost about
// one commit instead of one per file. A failure leaves temp files that dropTemps
// removes (recovery does the same after a crash).
func (e *Engine) doStaged(st Stager, j *journal) (int, string, error) {
	writes := func(en entry) bool { return en.Op == plan.OpCreate || en.Op == plan.OpUpdate }
	for i, en := range j.Entries {
		var err error
		switch {
		case en.Op == plan.OpMkdir:
			err = e.fs.Mkdir(e.r, name(en.Path), 0o755)
		case writes(en):
			err = st.WriteTemp(e.r, name(stagedName(j.ID, i, en.Path, "")), en.data, en.AfterMode)
		}
		if err != nil {
			return i + 1, en.Path, err
		}
	}
	for i, en := range j.Entries {
		if writes(en) {
			if err := st.SyncFile(e.r, name(stagedName(j.ID, i, en.Path, ""))); err != nil {
				return len(j.Entries), en.Path, err
			}
		}
	}
	for i, en := range j.Entries {
		var err error
		switch {
		case writes(en):
			err = st.Rename(e.r, name(stagedName(j.ID, i, en.Path, "")), name(en.Path))
		case en.Op == plan.OpDelete || en.Op == plan.OpRmdir:
			err = e.fs.Remove(e.r, name(en.Path))
		}
		if err != nil {
			return len(j.Entries), en.Path, err
		}
	}
	return len(j.Entries), "", nil
}

// stagedName is where doStaged writes the new content of entry i (slash path,
// beside the target; kind "r" for a restore of its original): a name fixed by
// the transaction, so a recovery finds it.
func stagedName(id string, i int, rel, kind string) string {
	return path.Join(path.Dir(rel), fmt.Sprintf(".fixplan-%s-%04d%s.tmp", id, i, kind))
}

// dropTemps removes the temp files a staged apply or revert may have left for
// j's entries.
func (e *Engine) dropTemps(j *journal) {
	for i, en := range j.Entries {
		if !en.isFile() {
			continue
		}
		for _, kind := range []string{"", "r"} {
			t := name(stagedName(j.ID, i, en.Path, kind))
			if fi, err := e.r.Lstat(t); err == nil && fi.Mode().IsRegular() {
				_ = e.fs.Remove(e.r, t)
			}
		}
	}
}

// rollback reverts the first n entries of a transaction that is being applied.
func (e *Engine) rollback(j *journal, n int) error {
	part := *j
	part.Entries = j.Entries[:n]
	steps, conflicts, err := e.inspectRevert(&part)
	if err != nil {
		return err
	}
	if _, _, err := e.execRevert(&part, steps); err != nil {
		return err
	}
	if len(conflicts) > 0 {
		return fmt.Errorf("changed by someone else during the apply, kept: %s", strings.Join(conflicts, ", "))
	}
	return nil
}

func ioErr(what string, err error) error {
	return &plan.Error{Code: plan.ErrIO, Msg: "could not " + what + "; nothing was changed", Err: err, Hint: "check permissions and free space"}
}

func baseMismatch(paths []string) error {
	return (&plan.Error{Code: plan.ErrBaseMismatch, Msg: "changed since the preview: " + strings.Join(paths, ", "), Paths: paths}).
		WithHint("nothing was written; re-plan so the changes are computed from the files as they are now")
}

// discard removes a transaction folder that never started (ids here are ours).
func (e *Engine) discard(id string) {
	if validTxID(id) {
		_ = e.r.RemoveAll(txName(id))
	}
}

// do performs one entry.
func (e *Engine) do(en entry) error {
	p := name(en.Path)
	switch en.Op {
	case plan.OpCreate, plan.OpUpdate:
		return e.fs.WriteFile(e.r, p, en.data, en.AfterMode)
	case plan.OpDelete, plan.OpRmdir:
		return e.fs.Remove(e.r, p)
	case plan.OpMkdir:
		return e.fs.Mkdir(e.r, p, 0o755)
	}
	return fmt.Errorf("unknown op %q", en.Op)
}

func dirMode(m fs.FileMode) fs.FileMode {
	if m.Perm() == 0 {
		return 0o755
	}
	return m.Perm()
}
