package codectx

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"fixplan/context/gitrepo"
	"fixplan/context/rules"
	"fixplan/context/section"
	"fixplan/projfs"
)

// maxRecentFiles is how many files the "Recent files" section lists.
const maxRecentFiles = 20

// recentFiles lists the files changed according to git status (also when the
// root is a folder inside a repository; paths relative to the root), else the
// most recently modified files, after a line saying why git status was skipped
// when fixplan chose not to run it.
func (g *Gatherer) recentFiles(ctx context.Context) string {
	status, note := g.git.Status(ctx, maxRecentFiles)
	if status != "" {
		return status
	}
	return note + g.modifiedFiles(ctx)
}

// modifiedFiles lists the most recently modified files of the root.
func (g *Gatherer) modifiedFiles(ctx context.Context) string {
	type fm struct {
		rel string
		t   time.Time
	}
	var (
		mu    sync.Mutex
		files []fm
	)
	_ = g.files.Walk(ctx, func(dir projfs.Dir, rel, name string) {
		if t, ok := dir.ModTime(name); ok {
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

// gitDiffSection is the recent-changes section (gitrepo's Changes) within the
// budget of g's options, with the project's rules files left out of it.
func (g *Gatherer) gitDiffSection(ctx context.Context, inPlay []string) (section.Candidate, bool) {
	return g.git.Changes(ctx, inPlay, gitrepo.ChangesOptions{MaxTotalBytes: g.opts.MaxTotalBytes, IsRuleFile: rules.IsRuleFile,
		RulesOff: g.opts.NoProjectRules})
}
