package codectx

import (
	"bytes"
	"errors"
	"fixplan/plan"
	"fixplan/redact"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// CleanRel checks a path given by the model or the user and returns it as a clean,
// slash-separated path relative to the root. It refuses (with a reason the model
// can read) empty paths, NUL bytes, `~`, absolute paths, drive letters, UNC paths
// and any `..` that climbs out of the root. Backslashes count as separators.
func CleanRel(p string) (string, error) {
	switch {
	case p == "":
		return "", refusal(plan.ErrInvalidInput, "empty path: give a path relative to the project root")
	case strings.ContainsRune(p, 0):
		return "", refusal(plan.ErrInvalidInput, "path %q contains a NUL byte", strings.ReplaceAll(p, "\x00", `\0`))
	case strings.HasPrefix(p, "~"):
		return "", refusal(plan.ErrPathOutsideRoot, "path %q starts with ~: give a path relative to the project root", p)
	case strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//"):
		return "", refusal(plan.ErrPathOutsideRoot, "path %q is a UNC/network path: only files inside the project root can be read", p)
	case len(p) >= 2 && p[1] == ':' && isLetter(p[0]):
		return "", refusal(plan.ErrPathOutsideRoot, "path %q has a drive letter: give a path relative to the project root", p)
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(s, "/") {
		return "", refusal(plan.ErrPathOutsideRoot, "path %q is absolute: give a path relative to the project root", p)
	}
	for _, c := range strings.Split(s, "/") {
		if c == ".." {
			return "", refusal(plan.ErrPathOutsideRoot, "path %q is outside the project root (contains ..)", p)
		}
	}
	s = path.Clean(s)
	if s == "." {
		return "", refusal(plan.ErrInvalidInput, "path %q is the project root itself, not a file", p)
	}
	if !filepath.IsLocal(filepath.FromSlash(s)) {
		return "", refusal(plan.ErrPathOutsideRoot, "path %q is outside the project root", p)
	}
	return s, nil
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// isProtected reports whether rel (clean, slash-separated) is inside .git, .hg or
// .fixplan at any depth, in any spelling an OS treats as the same name: git's
// internals, another tool's config and fixplan's own (possibly shipped) state are
// never read for the model.
func isProtected(rel string) bool { return plan.InProtectedFolder(rel) }

// secretSuffixes and secretPrefixes classify secret file names (lower-cased).
var (
	secretSuffixes = []string{".env", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"}
	secretPrefixes = []string{".env.", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}
	secretNames    = []string{".env", "credentials", "credentials.json", "credentials.yaml", "credentials.yml",
		"credentials.toml", "credentials.ini", "credentials.xml", "credentials.csv", ".netrc", ".pgpass", ".htpasswd",
		"secret.json", "secrets.json", "secret.yaml", "secrets.yaml", "secret.yml", "secrets.yml", "secret.toml", "secrets.toml"}
)

// isSecretName reports whether a base name is a secret file's.
func isSecretName(b string) bool {
	b = strings.ToLower(b)
	for _, n := range secretNames {
		if b == n {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(b, s) {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

// IsSecretPath reports whether rel (slash-separated, relative to the root) names a
// secret file: .env*, *.pem, *.key, *.p12, id_rsa*, credentials files, .netrc, or
// anything under a secrets/ folder.
func IsSecretPath(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, c := range parts[:len(parts)-1] {
		if strings.EqualFold(c, "secrets") || strings.EqualFold(c, ".ssh") {
			return true
		}
	}
	return isSecretName(parts[len(parts)-1])
}

// resolve confines rel to the root: it resolves symlinks, refuses targets outside
// the root, inside .git or (unless allowed) secret files, and returns the final
// root-relative path.
func (g *Gatherer) resolve(rel string) (string, error) {
	if isProtected(rel) {
		return "", refusal(plan.ErrProtectedPath, "path %q is inside .git/, .hg/ or .fixplan/, which are never read", rel)
	}
	if !g.opts.AllowSecrets && IsSecretPath(rel) {
		return "", refusal(plan.ErrSecretPath, "path %q is a secret file (keys, credentials, .env); the user has not allowed reading secret files", rel)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(g.root, filepath.FromSlash(rel)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", refusal(plan.ErrNotFound, "file %q does not exist in the project", rel)
		}
		return "", refusal(ioCode(err), "cannot resolve %q: %s", rel, pathErrReason(err))
	}
	r, err := filepath.Rel(g.root, real)
	if err != nil || !filepath.IsLocal(r) {
		return "", refusal(plan.ErrPathOutsideRoot, "path %q leads outside the project root (symlink)", rel)
	}
	r = filepath.ToSlash(r)
	if r != rel {
		if isProtected(r) {
			return "", refusal(plan.ErrProtectedPath, "path %q leads into .git/, .hg/ or .fixplan/, which are never read", rel)
		}
		if !g.opts.AllowSecrets && IsSecretPath(r) {
			return "", refusal(plan.ErrSecretPath, "path %q leads to a secret file; the user has not allowed reading secret files", rel)
		}
	}
	return r, nil
}

// openFile opens a confined regular file for reading: the open itself goes
// through os.Root, so a symlink swapped in after resolve still cannot escape the
// root. It refuses directories, special files, and files with more than one hard
// link that git does not track (hardlink.go). It returns the cleaned path as
// asked, the real root-relative path, the open file (to be closed) and its size.
func (g *Gatherer) openFile(rel string) (clean, real string, f *os.File, size int64, err error) {
	clean, err = CleanRel(rel)
	if err != nil {
		return "", "", nil, 0, err
	}
	real, err = g.resolve(clean)
	if err != nil {
		return "", "", nil, 0, err
	}
	f, err = g.fsys.Open(filepath.FromSlash(real))
	if err != nil {
		return "", "", nil, 0, refusal(ioCode(err), "cannot open %q: %s", clean, pathErrReason(err))
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		err = refusal(plan.ErrIO, "cannot stat %q: %s", clean, pathErrReason(err))
	case st.IsDir():
		err = refusal(plan.ErrInvalidInput, "%q is a directory, not a file (use search with a glob to list its files)", clean)
	case !st.Mode().IsRegular():
		err = refusal(plan.ErrInvalidInput, "%q is not a regular file", clean)
	default:
		err = g.checkLinks(clean, real, f, st)
	}
	if err != nil {
		f.Close()
		return "", "", nil, 0, err
	}
	return clean, real, f, st.Size(), nil
}

// fileText is a file as the model may see it: redacted whole (so a line range
// that starts inside a private key block is still redacted), then split in lines
// (redaction keeps the number of lines, so line numbers stay right).
type fileText struct {
	real  string   // root-relative path of the file read (symlinks resolved)
	lines []string // redacted lines without their endings
	red   redact.Lines
}

// readFile reads a confined, non-binary text file of at most MaxFileBytes and
// redacts it whole.
func (g *Gatherer) readFile(rel string) (fileText, error) {
	clean, real, f, size, err := g.openFile(rel)
	if err != nil {
		return fileText{}, err
	}
	defer f.Close()
	return g.readOpen(clean, real, f, size)
}

// readOpen is readFile of an open file (see openFile).
func (g *Gatherer) readOpen(clean, real string, f *os.File, size int64) (fileText, error) {
	if size > g.opts.MaxFileBytes {
		return fileText{}, refusal(plan.ErrInvalidInput, "file %q is too big (%d bytes, limit %d): ask for a line range or search it", clean, size, g.opts.MaxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, g.opts.MaxFileBytes+1))
	if err != nil {
		return fileText{}, refusal(plan.ErrIO, "cannot read %q: %s", clean, pathErrReason(err))
	}
	if int64(len(data)) > g.opts.MaxFileBytes {
		return fileText{}, refusal(plan.ErrInvalidInput, "file %q is too big (limit %d bytes)", clean, g.opts.MaxFileBytes)
	}
	if IsBinary(data) {
		return fileText{}, refusal(plan.ErrBinaryContent, "file %q is binary, not text", clean)
	}
	text, red := redact.Whole(real, string(data))
	return fileText{real: real, lines: splitLines([]byte(text)), red: red}, nil
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

// ioCode is the code of a failed open: ERR_NOT_FOUND for a missing file, else ERR_IO.
func ioCode(err error) plan.Code {
	if errors.Is(err, fs.ErrNotExist) {
		return plan.ErrNotFound
	}
	return plan.ErrIO
}

// pathErrReason words a filesystem error without the absolute root path.
func pathErrReason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case strings.Contains(err.Error(), "escapes"):
		return "it leads outside the project root"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return "I/O error"
}

// MayQuote reports whether lines of rel may be shown to the model (nil), or why
// not: the same checks as a read_file (confinement, .git/.hg/.fixplan, secret
// files unless allowed, hard links git does not track). The session uses it
// before sending a patch failure that quotes the file's lines back to the model.
func (g *Gatherer) MayQuote(rel string) error {
	_, _, f, _, err := g.openFile(rel)
	if err != nil {
		return err
	}
	return f.Close()
}

// Exists reports whether rel (slash-separated) names a file or folder in the
// project, looked up through the root (nothing outside it is ever stat-ed).
func (g *Gatherer) Exists(rel string) bool {
	if plan.PathProblem(rel) != "" {
		return false
	}
	_, err := g.fsys.Lstat(filepath.FromSlash(rel))
	return err == nil
}
