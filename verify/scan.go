package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// entry is one thing in the project tree; rel uses the OS separator.
type entry struct {
	rel    string
	mode   fs.FileMode // type and permission bits (Lstat)
	size   int64
	mtime  time.Time
	target string // symbolic links: the link's text
}

// manifest is the project tree as scanned: what Clone copies and what the
// baseline key hashes. dirs lists parents before their children.
type manifest struct {
	dirs    []entry
	files   []entry
	links   []entry // only links that stay inside the tree
	bytes   int64
	skipped CloneStats // SkippedLinks, SkippedCount, Skipped
}

// cacheDirTag is the signature of the Cache Directory Tagging spec
// (bford.info/cachedir): a folder holding CACHEDIR.TAG with it is a cache.
var cacheDirTag = []byte("Signature: 8a477f597d28d172789f06886806bc55")

// scan walks the tree under root without following links, applying the skip
// rules and the bounds of opt.
func scan(ctx context.Context, root *os.Root, opt CloneOptions) (*manifest, error) {
	m := &manifest{}
	skip := map[string]bool{}
	dirs := opt.SkipDirs
	if dirs == nil {
		dirs = DefaultSkipDirs()
	}
	for _, d := range dirs {
		skip[strings.ToLower(d)] = true
	}
	maxFiles, maxBytes := opt.maxFiles(), opt.maxBytes()
	var links []entry
	queue := []string{"."}
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dir := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		ents, err := readDir(root, dir)
		if err != nil {
			if dir == "." {
				return nil, fmt.Errorf("clone project: read project folder: %w", err)
			}
			m.skipped.skip(dir, "folder cannot be read")
			continue
		}
		if dir != "." && isCacheDir(root, dir, ents) {
			m.skipped.skip(dir, "cache folder (CACHEDIR.TAG)")
			continue
		}
		if dir != "." {
			fi, err := root.Lstat(dir)
			if err != nil {
				return nil, fmt.Errorf("clone project: %w", err)
			}
			m.dirs = append(m.dirs, entry{rel: dir, mode: fi.Mode(), mtime: fi.ModTime()})
		}
		for _, de := range ents {
			name := de.Name()
			rel := name
			if dir != "." {
				rel = filepath.Join(dir, name)
			}
			lower := strings.ToLower(name)
			switch {
			case de.IsDir():
				switch {
				case lower == ".fixplan":
					continue // fixplan's own state: never in a copy
				case lower == ".git" && !opt.IncludeGit:
					continue
				case skip[lower]:
					continue
				}
				queue = append(queue, rel)
			case de.Type()&fs.ModeSymlink != 0:
				fi, err := de.Info()
				if err != nil {
					m.skipped.skip(rel, "link cannot be read")
					continue
				}
				target, err := root.Readlink(rel)
				if err != nil {
					m.skipped.skip(rel, "link cannot be read")
					continue
				}
				links = append(links, entry{rel: rel, mode: fi.Mode(), mtime: fi.ModTime(), target: target})
			case de.Type().IsRegular():
				if lower == ".git" && !opt.IncludeGit {
					continue // a worktree's or submodule's .git file
				}
				fi, err := de.Info()
				if err != nil {
					if errors.Is(err, fs.ErrNotExist) {
						continue // removed while we looked
					}
					m.skipped.skip(rel, "file cannot be read")
					continue
				}
				m.files = append(m.files, entry{rel: rel, mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()})
				m.bytes += fi.Size()
				if (maxFiles >= 0 && int64(len(m.files)) > maxFiles) || (maxBytes >= 0 && m.bytes > maxBytes) {
					return nil, &TooLargeError{Files: int64(len(m.files)), Bytes: m.bytes, MaxFiles: maxFiles, MaxBytes: maxBytes}
				}
			default:
				m.skipped.skip(rel, "not a regular file, folder or link")
			}
		}
	}
	m.links = keepInsideLinks(links, &m.skipped)
	return m, nil
}

// readDir lists one folder of root (unsorted).
func readDir(root *os.Root, dir string) ([]fs.DirEntry, error) {
	f, err := root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// isCacheDir reports a folder tagged as a cache by a CACHEDIR.TAG file that
// starts with the spec's signature.
func isCacheDir(root *os.Root, dir string, ents []fs.DirEntry) bool {
	for _, de := range ents {
		if de.Name() != "CACHEDIR.TAG" || !de.Type().IsRegular() {
			continue
		}
		f, err := root.Open(filepath.Join(dir, de.Name()))
		if err != nil {
			return false
		}
		buf := make([]byte, len(cacheDirTag))
		_, err = io.ReadFull(f, buf)
		f.Close()
		return err == nil && bytes.Equal(buf, cacheDirTag)
	}
	return false
}
