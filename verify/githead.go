package verify

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// headCommit returns the commit the project's .git/HEAD points at, or "" when
// there is no repository, it is not a plain folder (a worktree's .git file
// points elsewhere and is not followed), or the ref cannot be read. Every read
// goes through os.Root inside .git, git is never run, and sizes are bounded.
func headCommit(root *os.Root) string {
	fi, err := root.Lstat(".git")
	if err != nil || !fi.IsDir() {
		return ""
	}
	git, err := root.OpenRoot(".git")
	if err != nil {
		return ""
	}
	defer git.Close()
	head := readSmall(git, "HEAD", 4<<10)
	line := strings.TrimSpace(head)
	ref, ok := strings.CutPrefix(line, "ref: ")
	if !ok {
		if isHash(line) {
			return line
		}
		return ""
	}
	ref = strings.TrimSpace(ref)
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") || !filepath.IsLocal(filepath.FromSlash(ref)) {
		return ""
	}
	if h := strings.TrimSpace(readSmall(git, filepath.FromSlash(ref), 4<<10)); isHash(h) {
		return h
	}
	packed := readSmall(git, "packed-refs", 8<<20)
	sc := bufio.NewScanner(strings.NewReader(packed))
	for sc.Scan() {
		hash, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref && isHash(hash) {
			return hash
		}
	}
	return ""
}

// readSmall reads at most n bytes of a regular file inside r ("" on error).
func readSmall(r *os.Root, name string, n int64) string {
	f, err := r.OpenFile(name, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	var b bytes.Buffer
	if _, err := io.Copy(&b, io.LimitReader(f, n)); err != nil {
		return ""
	}
	return b.String()
}

// isHash reports a SHA-1 or SHA-256 object name in lower-case hex.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
