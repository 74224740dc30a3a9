package codectx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"
)

// recentFiles lists the files changed according to git status (also when the
// root is a folder inside a repository; paths relative to the root), else the
// most recently modified files.
func (g *Gatherer) recentFiles(ctx context.Context) string {
	if s, ok := g.gitStatus(ctx); ok {
		return s
	}
	type fm struct {
		rel string
		t   time.Time
	}
	var (
		mu    sync.Mutex
		files []fm
	)
	_ = g.walk(ctx, func(dir dirHandle, rel, name string) {
		if t, ok := dir.modTime(name); ok {
			mu.Lock()
			files = append(files, fm{rel, t})
			mu.Unlock()
		}
	})
	if len(files) == 0 {
		return ""
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].t.Equal(files[j].t) {
			return files[i].t.After(files[j].t)
		}
		return files[i].rel < files[j].rel
	})
	var b strings.Builder
	b.WriteString("most recently modified:\n")
	for i, f := range files {
		if i == maxRecentFiles {
			break
		}
		fmt.Fprintf(&b, "%s (%s)\n", f.rel, f.t.UTC().Format(time.DateTime))
	}
	return b.String()
}

// gitStatus runs `git status --porcelain` limited to the root; ok is false when
// git is missing, the root is not in a repository, or git fails or times out.
func (g *Gatherer) gitStatus(ctx context.Context) (string, bool) {
	git, err := g.lookPath("git")
	if err != nil {
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, g.opts.ToolTimeout)
	defer cancel()
	runGit := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, git, append([]string{"-C", g.root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
		out, err := cmd.Output()
		return string(out), err
	}
	prefix, err := runGit("rev-parse", "--show-prefix")
	if err != nil {
		return "", false
	}
	prefix = strings.TrimSpace(prefix)
	out, err := runGit("status", "--porcelain=v1", "--untracked-files=normal", "--", ".")
	if err != nil {
		return "", false
	}
	lines, _ := lastLines(out, 1<<30)
	if len(lines) == 0 {
		return "git status: no changes\n", true
	}
	for i, l := range lines {
		if len(l) > 3 {
			// "XY path" or "XY old -> new"; paths are relative to the repository
			l = l[:3] + strings.ReplaceAll(strings.TrimPrefix(l[3:], prefix), " -> "+prefix, " -> ")
		}
		lines[i] = l
	}
	if len(lines) > maxRecentFiles {
		lines = append(lines[:maxRecentFiles], fmt.Sprintf("…[%d more]", len(lines)-maxRecentFiles))
	}
	return "git status --porcelain:\n" + strings.Join(lines, "\n") + "\n", true
}
