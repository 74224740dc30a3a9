package codectx

import (
	"context"
	"fmt"
	"sort"
	"strings"
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
// most recently modified files of tree, after a line saying why git status was
// skipped when fixplan chose not to run it.
func (g *Gatherer) recentFiles(ctx context.Context, tree *projfs.Tree) string {
	status, note := g.git.Status(ctx, maxRecentFiles)
	if status != "" {
		return status
	}
	return note + modifiedFiles(ctx, tree)
}

// modifiedFiles lists the most recently modified files of tree.
func modifiedFiles(ctx context.Context, tree *projfs.Tree) string {
	type fm struct {
		rel string
		t   time.Time
	}
	var files []fm
	for rel, t := range tree.ModTimes(ctx) {
		files = append(files, fm{rel, t})
	}
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
