package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Default bounds of a copy. A project above them is reported as not verified
// rather than copied: on a file system without copy-on-write every byte is
// written twice (baseline and changed copy).
const (
	DefaultMaxFiles = 200_000
	DefaultMaxBytes = 2 << 30 // 2 GiB
)

// maxSkippedListed bounds CloneStats.Skipped; SkippedCount keeps counting.
const maxSkippedListed = 200

// ErrTooLarge is matched (errors.Is) by the *TooLargeError Clone and Verify
// return when the project has more files or bytes than CloneOptions allow.
var ErrTooLarge = errors.New("project too large to verify in a copy")

// TooLargeError says which bound a project crossed. Counting stops at the bound,
// so Files and Bytes are lower bounds of the project's size.
type TooLargeError struct {
	Files, Bytes       int64
	MaxFiles, MaxBytes int64
}

func (e *TooLargeError) Error() string {
	if e.Files > e.MaxFiles {
		return fmt.Sprintf("project too large to verify in a copy: more than %d files", e.MaxFiles)
	}
	return fmt.Sprintf("project too large to verify in a copy: more than %d bytes", e.MaxBytes)
}

// Unwrap makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// CloneOptions bound and shape a copy. The zero value is usable.
type CloneOptions struct {
	// MaxFiles and MaxBytes bound the regular files copied (0: DefaultMaxFiles,
	// DefaultMaxBytes; negative: no bound).
	MaxFiles int64
	MaxBytes int64
	// IncludeGit copies .git folders too (by default they stay out: the checks
	// rarely need history, and a repository can be large).
	IncludeGit bool
	// SkipDirs are folder names (at any depth, compared without case) that are
	// not copied; nil means DefaultSkipDirs(). .fixplan is never copied, and
	// neither is a folder tagged with a CACHEDIR.TAG (Rust's target/, …).
	SkipDirs []string
	// Workers copying files at once (0: twice the CPUs, at least 4, at most 16).
	Workers int
	// NoReflink always copies bytes, never asks the file system for a
	// copy-on-write clone (benchmarks and tests of the fallback).
	NoReflink bool
}

// DefaultSkipDirs are folders tools regenerate and the checks do not need:
// byte-code and tool caches. Dependency folders (node_modules, .venv, venv,
// vendor) are inputs of the checks and are copied; build outputs that carry a
// CACHEDIR.TAG (cargo's target/) are skipped whatever their name.
func DefaultSkipDirs() []string {
	return []string{"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox", ".gradle"}
}

func (o CloneOptions) maxFiles() int64 {
	if o.MaxFiles == 0 {
		return DefaultMaxFiles
	}
	return o.MaxFiles
}

func (o CloneOptions) maxBytes() int64 {
	if o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

func (o CloneOptions) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return min(max(2*runtime.GOMAXPROCS(0), 4), 16)
}

// Skipped is an entry of the project that is not in the copy, and why.
type Skipped struct {
	Path   string `json:"path"` // slash-separated, relative to the project
	Reason string `json:"reason"`
}

// CloneStats describes a copy.
type CloneStats struct {
	Files  int64 `json:"files"`  // regular files in the copy
	Dirs   int64 `json:"dirs"`   // folders created
	Links  int64 `json:"links"`  // symbolic links recreated (they stay inside the copy)
	Bytes  int64 `json:"bytes"`  // bytes of the regular files
	Cloned int64 `json:"cloned"` // files the file system cloned (copy-on-write)
	Copied int64 `json:"copied"` // files whose bytes were copied
	// Reflink says whether the file system cloned files: "yes", "no" (it
	// refused, with why in ReflinkNote), "off" (NoReflink) or "n/a" (no file).
	Reflink     string `json:"reflink"`
	ReflinkNote string `json:"reflink_note,omitempty"`
	// SkippedLinks counts symbolic links not recreated because they lead outside
	// the project (or through too many links).
	SkippedLinks int64 `json:"skipped_links"`
	// SkippedCount counts every skipped entry; Skipped lists the first 200.
	SkippedCount int64     `json:"skipped_count"`
	Skipped      []Skipped `json:"skipped,omitempty"`
	// Changed counts files whose size or modification time changed between the
	// scan and the copy (someone was editing the project).
	Changed  int64         `json:"changed"`
	Duration time.Duration `json:"duration_ns"`
}

func (s *CloneStats) skip(rel, reason string) {
	s.SkippedCount++
	if len(s.Skipped) < maxSkippedListed {
		s.Skipped = append(s.Skipped, Skipped{Path: filepath.ToSlash(rel), Reason: reason})
	}
}

// Clone copies the project tree at src into dst, a folder the caller created
// and owns, that must be empty and must be neither inside src nor contain it
// (os.MkdirTemp outside the project). Regular files are cloned copy-on-write
// where the file system offers it (Linux FICLONE, macOS clonefile) and copied
// otherwise; file modes and modification times are kept. Symbolic links that
// stay inside the tree are recreated as links; links leading outside, special
// files and unreadable files are skipped and listed in the stats. .fixplan is
// never copied, .git only with IncludeGit, and never a hard link or a link back
// into src: every write goes to dst through os.Root.
//
// Clone returns a *TooLargeError (errors.Is ErrTooLarge) when the project has
// more files or bytes than opt allows, ctx.Err() when cancelled, and "clone
// project: …" errors when src or dst cannot be read or written. On error dst may
// hold part of the copy; the caller removes it.
func Clone(ctx context.Context, src, dst string, opt CloneOptions) (CloneStats, error) {
	start := time.Now()
	srcRoot, err := os.OpenRoot(src)
	if err != nil {
		return CloneStats{}, fmt.Errorf("clone project: %w", err)
	}
	defer srcRoot.Close()
	if err := checkDestination(src, dst); err != nil {
		return CloneStats{}, err
	}
	m, err := scan(ctx, srcRoot, opt)
	if err != nil {
		return CloneStats{}, err
	}
	st, err := copyTree(ctx, srcRoot, dst, m, opt)
	st.Duration = time.Since(start)
	return st, err
}

// checkDestination refuses a dst that is not an empty folder, or that is inside
// src or contains it (copying into itself, or deleting the project later).
func checkDestination(src, dst string) error {
	fi, err := os.Stat(dst)
	if err != nil {
		return fmt.Errorf("clone project: destination: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("clone project: destination %s is not a folder", dst)
	}
	d, err := os.Open(dst)
	if err != nil {
		return fmt.Errorf("clone project: destination: %w", err)
	}
	names, _ := d.Readdirnames(1)
	d.Close()
	if len(names) > 0 {
		return fmt.Errorf("clone project: destination %s is not empty", dst)
	}
	if overlaps(src, dst) {
		return fmt.Errorf("clone project: destination %s overlaps the project %s", dst, src)
	}
	return nil
}

// overlaps reports whether a is inside b or b inside a, after resolving links.
func overlaps(a, b string) bool {
	ra, erra := realPath(a)
	rb, errb := realPath(b)
	if erra != nil || errb != nil {
		return true // cannot tell: refuse
	}
	return inside(ra, rb) || inside(rb, ra)
}

// within reports whether p is inside base (or is base), after resolving links;
// true when either cannot be resolved.
func within(p, base string) bool {
	rp, errp := realPath(p)
	rb, errb := realPath(base)
	if errp != nil || errb != nil {
		return true
	}
	return inside(rp, rb)
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// inside reports whether p is base or below it (both cleaned absolute paths).
func inside(p, base string) bool {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return false
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		// Case-insensitive file systems by default: compare without case too.
		if r2, err2 := filepath.Rel(strings.ToLower(base), strings.ToLower(p)); err2 == nil && filepath.IsLocal(r2) || r2 == "." {
			return true
		}
	}
	return rel == "." || filepath.IsLocal(rel)
}

// dirPerm is the mode folders get while files are copied into them; the
// project's own mode is set once they are full (a read-only folder would
// refuse the copy otherwise).
const dirPerm fs.FileMode = 0o700
