package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestRecentFiles(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"top.txt":         "a\n",
		"svc/api/main.go": "package main\n",
		"svc/api/old.go":  "package main\n",
		"svc/other.go":    "package svc\n",
	})
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-qm", "init")
	writeTree(t, repo, map[string]string{
		"top.txt":         "changed\n",
		"svc/api/main.go": "package main // changed\n",
		"svc/api/new.go":  "package main\n",
	})
	if err := os.Remove(filepath.Join(repo, "svc/api/old.go")); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	writeTree(t, plain, map[string]string{"a.txt": "a", "b.txt": "b", "c/d.txt": "d"})
	for i, p := range []string{"b.txt", "c/d.txt", "a.txt"} {
		ts := time.Date(2024, 1, 1, 0, 0, i, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(plain, p), ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		root string
		want string
	}{
		{"repository root", repo, "git status --porcelain:\n M svc/api/main.go\n D svc/api/old.go\n M top.txt\n?? svc/api/new.go\n"},
		{"folder inside a repository", filepath.Join(repo, "svc/api"), "git status --porcelain:\n M main.go\n D old.go\n?? new.go\n"},
		{"no repository: newest first", plain, "most recently modified:\na.txt (2024-01-01 00:00:02)\nc/d.txt (2024-01-01 00:00:01)\nb.txt (2024-01-01 00:00:00)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGatherer(t, tt.root, Options{})
			g.lookPath = exec.LookPath
			if tt.root == plain { // keep a repository that may enclose the temp dir out of it
				g.lookPath = func(string) (string, error) { return "", exec.ErrNotFound }
			}
			if got := g.recentFiles(context.Background(), g.tree()); got != tt.want {
				t.Errorf("recentFiles =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
