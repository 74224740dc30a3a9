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
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

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
}

// Engine applies changes inside one project root.
type Engine struct {
	root     string
	realRoot string
	opt      Options
	fs       FS
	mu       sync.Mutex
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
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("open engine: %w", err)
	}
	if opt.Keep <= 0 {
		opt.Keep = 20
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	e := &Engine{root: abs, realRoot: real, opt: opt, fs: opt.FS}
	if e.fs == nil {
		e.fs = OSFS{}
	}
	return e, nil
}

// Root is the project root.
func (e *Engine) Root() string { return e.root }

// stateIgnore keeps fixplan's own state out of the project's git history, except
// the project memory, which a team may want to share.
const stateIgnore = "# fixplan's plans, journals and logs stay local; project.json is shareable.\n*\n!.gitignore\n!project.json\n"

// ensureStateDir creates .fixplan/ (with its .gitignore) when missing.
func (e *Engine) ensureStateDir() error {
	dir := e.stateDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create .fixplan: %w", err)
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); os.IsNotExist(err) {
		_ = os.WriteFile(gi, []byte(stateIgnore), 0o644)
	}
	return nil
}

func (e *Engine) stateDir(parts ...string) string {
	return filepath.Join(append([]string{e.root, ".fixplan"}, parts...)...)
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
}
