package projfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"fixplan/plan"
)

// CleanRel checks a path given by the model or the user and returns it as a clean,
// slash-separated path relative to the root. It refuses (with a reason the model
// can read) empty paths, NUL bytes, `~`, absolute paths, drive letters, UNC paths
// and any `..` that climbs out of the root. Backslashes count as separators.
func CleanRel(p string) (string, error) {
	switch {
	case p == "":
		return "", Refuse(plan.ErrInvalidInput, "empty path: give a path relative to the project root")
	case strings.ContainsRune(p, 0):
		return "", Refuse(plan.ErrInvalidInput, "path %q contains a NUL byte", strings.ReplaceAll(p, "\x00", `\0`))
	case strings.HasPrefix(p, "~"):
		return "", Refuse(plan.ErrPathOutsideRoot, "path %q starts with ~: give a path relative to the project root", p)
	case strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//"):
		return "", Refuse(plan.ErrPathOutsideRoot, "path %q is a UNC/network path: only files inside the project root can be read", p)
	case len(p) >= 2 && p[1] == ':' && isLetter(p[0]):
		return "", Refuse(plan.ErrPathOutsideRoot, "path %q has a drive letter: give a path relative to the project root", p)
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(s, "/") {
		return "", Refuse(plan.ErrPathOutsideRoot, "path %q is absolute: give a path relative to the project root", p)
	}
	for _, c := range strings.Split(s, "/") {
		if c == ".." {
			return "", Refuse(plan.ErrPathOutsideRoot, "path %q is outside the project root (contains ..)", p)
		}
	}
	s = path.Clean(s)
	if s == "." {
		return "", Refuse(plan.ErrInvalidInput, "path %q is the project root itself, not a file", p)
	}
	if !filepath.IsLocal(filepath.FromSlash(s)) {
		return "", Refuse(plan.ErrPathOutsideRoot, "path %q is outside the project root", p)
	}
	return s, nil
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// IsProtected reports whether rel (clean, slash-separated) is inside .git, .hg or
// .fixplan at any depth, in any spelling an OS treats as the same name: git's
// internals, another tool's config and fixplan's own (possibly shipped) state are
// never read for the model.
func IsProtected(rel string) bool { return plan.InProtectedFolder(rel) }

// IsSecretPath reports whether rel (slash-separated, relative to the root) names a
// secret file (plan.IsSecretPath: the one list, which apply's write guard uses
// too).
func IsSecretPath(rel string) bool { return plan.IsSecretPath(rel) }

// Exists reports whether rel (slash-separated) names a file or folder in the
// project, looked up through the root (nothing outside it is ever stat-ed).
func (r *Root) Exists(rel string) bool {
	if plan.PathProblem(rel) != "" {
		return false
	}
	_, err := r.fsys.Lstat(filepath.FromSlash(rel))
	return err == nil
}

// IsFile reports whether rel (clean, slash-separated) is a regular file inside
// the root, outside .git/.hg/.fixplan (links that lead out are not).
func (r *Root) IsFile(rel string) bool {
	clean, err := CleanRel(rel)
	if err != nil || clean != rel || IsProtected(rel) {
		return false
	}
	st, err := r.Stat(rel)
	return err == nil && st.Mode().IsRegular()
}

// MayRead reports whether the path rel, as written, may be read for the model:
// clean and relative (CleanRel gives it back unchanged), outside .git, .hg and
// .fixplan, and not a secret file unless allowed. Nothing is opened.
func (r *Root) MayRead(rel string) bool {
	c, err := CleanRel(rel)
	return err == nil && c == rel && !IsProtected(rel) && (r.opts.AllowSecrets || !IsSecretPath(rel))
}

// Resolve confines rel (clean, slash-separated) to the root: it resolves
// symlinks, refuses targets outside the root, inside .git or (unless allowed)
// secret files, and returns the final root-relative path.
func (r *Root) Resolve(rel string) (string, error) {
	if IsProtected(rel) {
		return "", Refuse(plan.ErrProtectedPath, "path %q is inside .git/, .hg/ or .fixplan/, which are never read", rel)
	}
	if !r.opts.AllowSecrets && IsSecretPath(rel) {
		return "", Refuse(plan.ErrSecretPath, "path %q is a secret file (keys, credentials, .env); the user has not allowed reading secret files", rel)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(r.dir, filepath.FromSlash(rel)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", Refuse(plan.ErrNotFound, "file %q does not exist in the project", rel)
		}
		return "", Refuse(IOCode(err), "cannot resolve %q: %s", rel, PathErrReason(err))
	}
	res, err := filepath.Rel(r.dir, real)
	if err != nil || !filepath.IsLocal(res) {
		return "", Refuse(plan.ErrPathOutsideRoot, "path %q leads outside the project root (symlink)", rel)
	}
	res = filepath.ToSlash(res)
	if res != rel {
		if IsProtected(res) {
			return "", Refuse(plan.ErrProtectedPath, "path %q leads into .git/, .hg/ or .fixplan/, which are never read", rel)
		}
		if !r.opts.AllowSecrets && IsSecretPath(res) {
			return "", Refuse(plan.ErrSecretPath, "path %q leads to a secret file; the user has not allowed reading secret files", rel)
		}
	}
	return res, nil
}

// File is a project file opened by Open.
type File struct {
	*os.File
	Clean string // the path as asked, cleaned (CleanRel)
	Real  string // the root-relative path of the file opened (symlinks resolved)
	Size  int64
}

// Open opens a confined regular file for reading: rel is cleaned (CleanRel)
// and resolved (Resolve), and the open itself goes through the root
// (OpenRooted), so a symlink swapped in after Resolve still cannot escape it.
// It refuses directories, special files, and files with more than one hard
// link that version control does not track (hardlink.go). The File is to be
// closed.
func (r *Root) Open(rel string) (*File, error) {
	clean, err := CleanRel(rel)
	if err != nil {
		return nil, err
	}
	real, err := r.Resolve(clean)
	if err != nil {
		return nil, err
	}
	f, err := r.fsys.OpenFile(filepath.FromSlash(real), os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, Refuse(IOCode(err), "cannot open %q: %s", clean, PathErrReason(err))
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		err = Refuse(plan.ErrIO, "cannot stat %q: %s", clean, PathErrReason(err))
	case st.IsDir():
		err = Refuse(plan.ErrInvalidInput, "%q is a directory, not a file (use search with a glob to list its files)", clean)
	case !st.Mode().IsRegular():
		err = NotRegular(fmt.Sprintf("%q", clean), st.Mode())
	default:
		err = r.CheckLinks(clean, real, f, st)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{File: f, Clean: clean, Real: real, Size: st.Size()}, nil
}

// OpenRooted opens rel (slash-separated, root-relative) for reading through
// the root with the one reader's checks (OpenIn: a non-blocking open, regular
// files only, the type seen on the open descriptor) and nothing else: every
// open of a project file goes through here or Open. Open adds the checks of a
// file shown to the model; the files fixplan reads for itself
// (.fixplan/project.json) or only parses (a virtualenv's pyvenv.cfg, a
// configured log after Resolve) are opened here directly. shown names the file
// in the refusal; read the file with ReadBounded.
func (r *Root) OpenRooted(rel, shown string) (*os.File, fs.FileInfo, error) {
	return OpenIn(r.fsys, filepath.FromSlash(rel), shown)
}

// IsBinary reports whether data looks binary: a NUL byte anywhere (search skips
// the same files), or more than 10% of invalid UTF-8 in the first 8 KiB.
func IsBinary(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	head := data
	if len(head) > 8192 {
		head = head[:8192]
	}
	if utf8.Valid(head) {
		return false
	}
	bad := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 && len(head)-i >= utf8.UTFMax {
			bad++
		}
		i += n
	}
	return bad*10 > len(head)
}
