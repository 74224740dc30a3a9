package verify

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestHeadCommit(t *testing.T) {
	const h1 = "0123456789abcdef0123456789abcdef01234567"
	const h2 = "89abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"branch", map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": h1 + "\n"}, h1},
		{"packed ref", map[string]string{".git/HEAD": "ref: refs/heads/dev\n", ".git/packed-refs": "# pack-refs with: peeled\n" + h1 + " refs/heads/main\n" + h2 + " refs/heads/dev\n"}, h2},
		{"detached", map[string]string{".git/HEAD": h2 + "\n"}, h2},
		{"no repository", map[string]string{"a": "x"}, ""},
		{"worktree .git file is not followed", map[string]string{".git": "gitdir: /elsewhere/.git/worktrees/x\n"}, ""},
		{"ref climbing out", map[string]string{".git/HEAD": "ref: refs/../../../../etc/passwd\n"}, ""},
		{"ref that is not a hash", map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": "hello\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.files)
			root, err := os.OpenRoot(dir)
			must(t, err)
			defer root.Close()
			if got := headCommit(root); got != tt.want {
				t.Errorf("headCommit = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBaselineKey(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.go": "package a\n", "b/c.go": "package b\n"})
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	key := func(cmd string, timeout time.Duration, head string) string {
		m, err := scan(context.Background(), root, CloneOptions{})
		must(t, err)
		return baselineKey(cmd, timeout, head, CloneOptions{}, m)
	}
	k := key("go test ./...", time.Minute, "")
	if !validKey(k) {
		t.Fatalf("key %q is not 64 hex digits", k)
	}
	if k2 := key("go test ./...", time.Minute, ""); k2 != k {
		t.Error("same project, same key expected")
	}
	for name, other := range map[string]string{
		"command": key("go test ./b", time.Minute, ""),
		"timeout": key("go test ./...", time.Hour, ""),
		"head":    key("go test ./...", time.Minute, "0123456789abcdef0123456789abcdef01234567"),
	} {
		if other == k {
			t.Errorf("changing the %s keeps the key", name)
		}
	}
	later := time.Now().Add(time.Hour)
	must(t, os.Chtimes(filepath.Join(dir, "b", "c.go"), later, later))
	if key("go test ./...", time.Minute, "") == k {
		t.Error("touching a file keeps the key")
	}
	must(t, os.WriteFile(filepath.Join(dir, "new.go"), []byte("package a\n"), 0o644))
	if key("go test ./...", time.Minute, "") == k {
		t.Error("adding a file keeps the key")
	}
}

func TestBaselineCaches(t *testing.T) {
	fc, err := NewFileCache(t.TempDir())
	must(t, err)
	caches := []struct {
		name string
		c    BaselineCache
	}{{"memory", NewMemoryCache(2)}, {"file", fc}}
	k := func(c byte) string { return strings.Repeat(string(c), 64) }
	for _, tt := range caches {
		t.Run(tt.name, func(t *testing.T) {
			r := BaselineResult{Command: "go test ./...", ExitCode: 1, Failures: Failures{Formats: []string{"go"}, Names: []string{"m.TestX"}},
				Output: "--- FAIL: TestX", Created: time.Now()}
			if _, ok := tt.c.Load(k('a')); ok {
				t.Fatal("empty cache loaded something")
			}
			must(t, tt.c.Store(k('a'), r))
			got, ok := tt.c.Load(k('a'))
			if !ok || got.Command != r.Command || got.Failures.Names[0] != "m.TestX" || got.ExitCode != 1 {
				t.Fatalf("Load = %+v, %v", got, ok)
			}
			must(t, tt.c.Store(k('b'), r))
			must(t, tt.c.Store(k('c'), r))
			if _, ok := tt.c.Load(k('c')); !ok {
				t.Error("newest entry missing")
			}
		})
	}
	t.Run("memory drops the oldest", func(t *testing.T) {
		c := NewMemoryCache(2)
		for _, ch := range "abc" {
			must(t, c.Store(k(byte(ch)), BaselineResult{}))
		}
		if _, ok := c.Load(k('a')); ok {
			t.Error("oldest entry kept beyond the bound")
		}
	})
	t.Run("file: bad keys, old entries, pruning, foreign content", func(t *testing.T) {
		dir := t.TempDir()
		c, err := NewFileCache(dir)
		must(t, err)
		c.MaxEntries = 2
		if err := c.Store("../../escape", BaselineResult{}); err == nil {
			t.Error("stored under a path-like key")
		}
		if _, ok := c.Load("../../escape"); ok {
			t.Error("loaded a path-like key")
		}
		must(t, c.Store(k('a'), BaselineResult{Created: time.Now().Add(-48 * time.Hour)}))
		if _, ok := c.Load(k('a')); ok {
			t.Error("entry older than MaxAge loaded")
		}
		for i, ch := range "bcd" {
			must(t, c.Store(k(byte(ch)), BaselineResult{Created: time.Now()}))
			old := time.Now().Add(time.Duration(i-10) * time.Minute)
			os.Chtimes(filepath.Join(dir, "verify-baselines", k(byte(ch))+".json"), old, old)
		}
		ents, _ := os.ReadDir(filepath.Join(dir, "verify-baselines"))
		if len(ents) > 2 {
			t.Errorf("%d entries kept, MaxEntries 2", len(ents))
		}
		// An entry stored under another key's name is not trusted.
		b, _ := os.ReadFile(filepath.Join(dir, "verify-baselines", k('d')+".json"))
		must(t, os.WriteFile(filepath.Join(dir, "verify-baselines", k('e')+".json"), b, 0o600))
		if _, ok := c.Load(k('e')); ok {
			t.Error("entry with another key loaded")
		}
		if fi, err := os.Stat(filepath.Join(dir, "verify-baselines", k('d')+".json")); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("cache file mode %v, want private", fi.Mode().Perm())
		}
	})
}
