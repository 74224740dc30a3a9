// Package apply turns a plan's actions and unified patches into file changes,
// previews them as diffs, and applies a selection as one journaled transaction:
// validated first, re-checked against the preview's hashes, journaled with the
// original bytes before the first write, written atomically, rolled back in reverse
// on any error, recovered after a crash, and undoable. It also stores plan records.
package apply

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fixplan/internal/fsutil"
	"fixplan/plan"
)

// Options tune an Engine.
type Options struct {
	// Keep is how many finished transactions are kept (undo history); 0 → 20.
	Keep int
	// FS performs every write; nil → the real filesystem. Tests inject failures.
	FS FS
	// Now gives the time (nil → time.Now).
	Now func() time.Time
	// Key is the per-user key that seals journals and plans (LoadKey). Required:
	// state without this user's seal is never obeyed.
	Key []byte
	// Redact, when set, is how previews show the project's own text (shown.go):
	// the lines of a preview diff that come from the files — context, removed
	// lines, added lines copied from a file the plan changes (a moved file's) — and
	// a hand edit's diff appear as Redact returns them for the whole file, so the
	// plan records that keep those diffs hold no secret values. It must keep the
	// number of lines (redact.File does). What is written is never redacted.
	Redact func(path, text string) string
	// Hidden, when set with Redact, names the files whose text the model may
	// not read (a secret, a hard link git does not track: the read path's
	// decision). A preview shows none of their lines — nor those lines copied
	// into another file of the plan — so neither a plan record nor a re-plan's
	// review quotes a byte the read path refuses. Asked once per file per
	// preview.
	Hidden func(path string) bool
}

// Engine applies changes inside one project root.
type Engine struct {
	root string
	r    *os.Root // every project read and write goes through it
	opt  Options
	fs   FS
	mu   sync.Mutex
}

// Open returns an Engine for root, which must be an existing folder. Nothing is
// created until the first write.
func Open(root string, opt Options) (*Engine, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open engine: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.IsDir() {
		return nil, plan.Errorf(plan.ErrInvalidInput, "project folder %s does not exist", abs)
	}
	if len(opt.Key) < 16 {
		return nil, fmt.Errorf("open engine: no per-user state key")
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open engine: %w", err)
	}
	if opt.Keep <= 0 {
		opt.Keep = 20
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	e := &Engine{root: abs, r: r, opt: opt, fs: opt.FS}
	if e.fs == nil {
		e.fs = OSFS{}
	}
	return e, nil
}

// Root is the project root.
func (e *Engine) Root() string { return e.root }

// Close releases the root handle.
func (e *Engine) Close() error { return e.r.Close() }

// stateIgnore keeps fixplan's own state out of the project's git history, except
// the project memory, which a team may want to share.
const stateIgnore = "# fixplan's plans, journals and logs stay local; project.json is shareable.\n*\n!.gitignore\n!project.json\n"

// ensureStateDir creates .fixplan/ and the given subfolders when missing (with
// its .gitignore; the parent of each new folder is fsynced so it is durable). A
// .fixplan or subfolder that is not a real folder (a symbolic link a clone
// shipped, a file) is refused: fixplan keeps state only in real folders.
func (e *Engine) ensureStateDir(sub ...string) error {
	// mkState syncs the parent of a folder it creates (the project root here).
	if _, err := e.mkState(stateName()); err != nil {
		return err
	}
	gi := stateName(".gitignore")
	if _, err := e.r.Lstat(gi); errors.Is(err, fs.ErrNotExist) {
		write := fsutil.WriteFileAtomicIn
		if len(sub) > 0 {
			// Only a lost .gitignore is at stake; a new subfolder below syncs
			// .fixplan anyway, so its own sync is left out.
			write = fsutil.ReplaceFileIn
		}
		if err := write(e.r, gi, []byte(stateIgnore), 0o644); err != nil {
			return fmt.Errorf("create .fixplan/.gitignore: %w", err)
		}
	}
	p := stateName()
	for _, s := range sub {
		p = filepath.Join(p, s)
		if _, err := e.mkState(p); err != nil {
			return err
		}
	}
	return nil
}

// mkState makes one state folder, or checks that it is a real folder.
func (e *Engine) mkState(name string) (bool, error) {
	fi, err := e.r.Lstat(name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 && name != stateName() {
		// A link in place of one of fixplan's own folders (shipped with a clone)
		// is removed, never followed: the link goes, its target is untouched.
		if rerr := e.r.Remove(name); rerr == nil {
			fi, err = nil, fs.ErrNotExist
		}
	}
	switch {
	case err == nil && fi.IsDir():
		return false, nil
	case err == nil:
		return false, (&plan.Error{Code: plan.ErrProtectedPath, Msg: filepath.ToSlash(name) + " is not a real folder (a symbolic link or a file); fixplan keeps its state only in a real folder",
			Paths: []string{filepath.ToSlash(name)}}).WithHint("remove it (it may have come with the project) and run fixplan again")
	case !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("inspect %s: %w", name, err)
	}
	if err := fsutil.MkdirIn(e.r, name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return false, fmt.Errorf("create %s: %w", name, err)
	}
	return true, nil
}

// stateReal reports whether every folder of the state path name (relative to the
// root) is a real folder, so listing or reading it cannot be redirected by a link.
func (e *Engine) stateReal(name string) bool {
	p := ""
	for _, seg := range strings.Split(filepath.ToSlash(name), "/") {
		p = filepath.Join(p, seg)
		fi, err := e.r.Lstat(p)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// stateName is the root-relative name of a path under .fixplan/.
func stateName(parts ...string) string {
	return filepath.Join(append([]string{".fixplan"}, parts...)...)
}

// NewID returns a sortable unique id: UTC time and random hex.
func NewID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405.000000") + "-" + hex.EncodeToString(b[:])
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Change is one file change computed from a plan: what is there now and what
// will be written.
type Change struct {
	Path         string      `json:"path"`
	Op           plan.Op     `json:"op"`
	Before       []byte      `json:"-"`
	BeforeSHA256 string      `json:"before_sha256"`
	BeforeMode   fs.FileMode `json:"before_mode"`
	Existed      bool        `json:"existed"`
	After        []byte      `json:"-"`
	Mode         fs.FileMode `json:"mode"`
	// Placement says how each patch hunk was placed ("exact", "offset +5", ...).
	Placement []string `json:"placement,omitempty"`
	FromPatch bool     `json:"from_patch"`
	// Flags are risk notes (lock file, large change).
	Flags []string `json:"flags,omitempty"`
	// pv memoises the preview diff (computed once per change, see memo).
	pv *plan.FileChange
	// shown redacts the project's text in the preview (Options.Redact; nil: shown as is).
	shown *shown
	// patchLines counts the +/- lines of the patch hunks an update came from.
	patchLines int
}

// Selection is what the user ticked.
type Selection struct {
	// Paths are the changes to apply; nil means every change of the plan.
	Paths []string
	// ProjectMemory, when not nil, is the new content of .fixplan/project.json,
	// written inside the same transaction.
	ProjectMemory []byte
	// MemoryKeys are reported back in Result.Memory.
	MemoryKeys []string
	// Files narrow ticked changes to some of their hunks, or replace their
	// proposed content with the user's own (selection.go).
	Files []FileChoice
}
