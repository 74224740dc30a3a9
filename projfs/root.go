// Package projfs reads the user's project for the model, confined to its root:
// paths given by the model or the user are cleaned (CleanRel), symlinks are
// resolved and never lead out of the root, `.git/`, `.hg/` and `.fixplan/` are
// never read, secret files are refused unless the user allowed them, a file
// with more than one hard link is read only when version control tracks it,
// and every open goes through an os.Root of the project.
//
// Root.OpenRooted is the one place a project file is opened; Open adds the
// checks above and is what every file shown to the model goes through
// (ReadText, ReadRaw, ReadHead). Walk visits the project's files in parallel
// (by directory handle, one path component at a time, never following a
// symlink; .gitignore files respected), and Search finds a literal in them.
//
// Refusals are *plan.Error values whose Msg is a reason the model can read
// (Refuse, Reason).
package projfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"fixplan/plan"
)

// DefaultMaxFileBytes is the size above which a file is refused (Open's readers)
// and skipped (Search) when Options does not say.
const DefaultMaxFileBytes = 4 << 20

// Options tune a Root.
type Options struct {
	// AllowSecrets lets secret files (.env*, *.pem, id_rsa*, ...; IsSecretPath)
	// be read; their secret-looking values are still redacted by ReadText.
	AllowSecrets bool
	// MaxFileBytes is the size above which a file is refused (ReadText,
	// ReadRaw) and skipped (Search); 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// Tracked reports whether version control tracks the file rel
	// (root-relative, slash-separated); why says why it could not answer. A
	// file with more than one hard link is read only when it is tracked
	// (hardlink.go). nil: no file is tracked.
	Tracked func(rel string) (tracked bool, why string)
}

// Root is a project folder opened for confined reads. It is safe for
// concurrent use.
type Root struct {
	dir  string // absolute, symlinks resolved
	fsys *os.Root
	opts Options
	// openTop opens the root for a walk (tests swap in the portable os.Root
	// walker).
	openTop func(root string) (Dir, error)
	walks   atomic.Int64 // Walks
}

// OpenRoot opens the project folder dir. It fails when dir does not exist or
// is not a folder (a *plan.Error with code ERR_INVALID_INPUT).
func OpenRoot(dir string, o Options) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, &plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the project folder %s does not exist", abs),
			Hint: "open an existing project folder", Err: err}
	}
	st, err := os.Stat(real)
	if err != nil || !st.IsDir() {
		return nil, &plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the project folder %s is not a folder", abs),
			Hint: "open an existing project folder", Err: err}
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("open root: %w", err)
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	return &Root{dir: real, fsys: r, opts: o, openTop: openTopFunc}, nil
}

// Dir returns the absolute project folder (symlinks resolved).
func (r *Root) Dir() string { return r.dir }

// MaxFileBytes returns the size above which a file is refused.
func (r *Root) MaxFileBytes() int64 { return r.opts.MaxFileBytes }

// Close releases the root handle.
func (r *Root) Close() error { return r.fsys.Close() }

// Stat stats rel (slash-separated, root-relative) through the root, following
// symlinks that stay inside it.
func (r *Root) Stat(rel string) (fs.FileInfo, error) { return r.fsys.Stat(filepath.FromSlash(rel)) }

// Lstat is Stat without following a final symlink.
func (r *Root) Lstat(rel string) (fs.FileInfo, error) { return r.fsys.Lstat(filepath.FromSlash(rel)) }

// ReadDir lists the folder rel (slash-separated; "." for the root) through the
// root: at most n entries (n <= 0: all), in directory order, as
// os.File.ReadDir returns them (entries read before an error come with it).
func (r *Root) ReadDir(rel string, n int) ([]fs.DirEntry, error) {
	f, err := r.fsys.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(n)
}
