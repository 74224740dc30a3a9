package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"fixplan/plan"
)

// ErrBadChange is matched by the errors writing the changes into the copy
// returns for a path that is not a clean relative path, names a protected
// folder (.git, .hg, .fixplan), or would be written through a link.
var ErrBadChange = errors.New("change cannot be written")

// applyChanges writes changes into the copy under root: nil deletes the file
// (a file already absent is fine), other bytes create or replace it. A new
// file gets modes[path] or 0644; a replaced file keeps its mode unless
// modes names one. Parent folders are created. Every write goes through root,
// so nothing outside the copy is touched whatever the paths say.
func applyChanges(root *os.Root, changes map[string]*[]byte, modes map[string]fs.FileMode) error {
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if p == "" || p != path.Clean(p) || strings.ContainsRune(p, '\\') || !filepath.IsLocal(filepath.FromSlash(p)) {
			return fmt.Errorf("apply change %q: %w: not a clean relative path", p, ErrBadChange)
		}
		if why := plan.ProtectedProblem(p); why != "" {
			return fmt.Errorf("apply change %q: %w: %s", p, ErrBadChange, why)
		}
		rel := filepath.FromSlash(p)
		if link := linkedParent(root, p); link != "" {
			return fmt.Errorf("apply change %q: %w: %s is a symbolic link", p, ErrBadChange, link)
		}
		fi, statErr := root.Lstat(rel)
		exists := statErr == nil
		if exists && fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("apply change %q: %w: it is a symbolic link", p, ErrBadChange)
		}
		if exists && fi.IsDir() {
			return fmt.Errorf("apply change %q: %w: it is a folder", p, ErrBadChange)
		}
		data := changes[p]
		if data == nil {
			if !exists {
				continue
			}
			if err := root.Remove(rel); err != nil {
				return fmt.Errorf("apply change %q: %w", p, err)
			}
			continue
		}
		mode, ok := modes[p]
		switch {
		case ok:
			mode = mode.Perm()
		case exists:
			mode = fi.Mode().Perm()
		default:
			mode = 0o644
		}
		if dir := filepath.Dir(rel); dir != "." {
			if err := root.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("apply change %q: %w", p, err)
			}
		}
		f, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
		if err != nil {
			return fmt.Errorf("apply change %q: %w", p, err)
		}
		_, err = f.Write(*data)
		if err == nil {
			err = f.Chmod(mode)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("apply change %q: %w", p, err)
		}
	}
	return nil
}

// linkedParent returns the first parent folder of p (slash-separated) that is a
// symbolic link in root, or "": the apply engine never writes through a link,
// so neither does the copy.
func linkedParent(root *os.Root, p string) string {
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		fi, err := root.Lstat(filepath.FromSlash(p[:i]))
		if err != nil {
			return ""
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return p[:i]
		}
	}
	return ""
}
