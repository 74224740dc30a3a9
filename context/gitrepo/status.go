package gitrepo

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"fixplan/context/section"
	"fixplan/projfs"
)

// Status runs `git status --porcelain` limited to the root, on the repository
// findGitRepo found, and only when the repository's own config names no program
// (git obeys that config: core.fsmonitor runs on every status, a filter's clean
// command on racily-clean files, ...). status is "" when git is missing, there
// is no repository, git fails or times out, or git was not run; note then says
// why git was not run when that was fixplan's choice. At most max lines are
// listed, then how many more.
func (g *Git) Status(ctx context.Context, max int) (status, note string) {
	git, err := g.opts.LookPath("git")
	if err != nil {
		return "", ""
	}
	repo, ok := g.gitRepo()
	switch {
	case !ok:
		return "", ""
	case repo.untrusted != "":
		return "", "git status skipped: " + repo.untrusted + "; fixplan reads no repository outside the project\n"
	case len(repo.programs) > 0:
		return "", fmt.Sprintf("git status skipped: the repository's own config names programs (%s); fixplan runs nothing a project chooses\n",
			section.List(repo.programs, 6))
	case repo.unreadable != "":
		return "", fmt.Sprintf("git status skipped: the repository's own config could not be checked (%s); fixplan runs nothing a project chooses\n",
			repo.unreadable)
	}
	out, cut, err := g.runGit(ctx, git, repo, "status", "--porcelain=v1", "--untracked-files=normal", "--ignore-submodules=all", "--", ".")
	if err != nil {
		return "", ""
	}
	prefix := ""
	if rel, err := filepath.Rel(repo.top, g.root); err == nil && rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	var lines []string
	if t := strings.TrimRight(out, "\n"); t != "" {
		lines = projfs.SplitLines([]byte(t))
	}
	if cut && len(lines) > 0 {
		lines = lines[:len(lines)-1] // the last one may be partial
	}
	if len(lines) == 0 && !cut {
		return "git status: no changes\n", ""
	}
	for i, l := range lines {
		if len(l) > 3 {
			// "XY path" or "XY old -> new"; paths are relative to the repository
			l = l[:3] + strings.ReplaceAll(strings.TrimPrefix(l[3:], prefix), " -> "+prefix, " -> ")
		}
		lines[i] = l
	}
	switch {
	case len(lines) > max && cut:
		lines = append(lines[:max], "…[more]")
	case len(lines) > max:
		lines = append(lines[:max], fmt.Sprintf("…[%d more]", len(lines)-max))
	case cut:
		lines = append(lines, "…[more]")
	}
	return "git status --porcelain:\n" + strings.Join(lines, "\n") + "\n", ""
}

// Found reports whether git is installed and a .git encloses the root, found
// as git would find it but not checked (Status and Changes may still refuse
// the repository). Nothing is read but the .git files or folders on the way.
func (g *Git) Found() bool {
	if _, err := g.opts.LookPath("git"); err != nil {
		return false
	}
	_, _, ok := findDotGit(g.root, ceilingDirs())
	return ok
}

// Refusal is the warning shown when the project's own .git leads out of the
// project (findGitRepo's untrusted), or "".
func (g *Git) Refusal() string {
	repo, ok := g.gitRepo()
	if !ok || repo.untrusted == "" {
		return ""
	}
	if strings.HasPrefix(repo.untrusted, "its git folder") {
		return "git sections left out: " + repo.untrusted + ". fixplan reads no objects or refs from outside the repository; to see its changes, copy the objects in (git repack -a -d) and remove objects/info/alternates, or replace the link with the folder it names"
	}
	return "git sections left out: " + repo.untrusted + ". fixplan reads no repository outside the project; open the repository's main folder to see its changes"
}

// Tracks reports whether git tracks rel (slash-separated, relative to the
// root): its index entry (`git ls-files --stage --error-unmatch` with literal
// pathspecs) names a blob the object store has and that is the file's content
// now (`git hash-object`), run like every
// git call of the package (runGit: on the repository found without running git,
// no fsmonitor, no hooks, bounded by Options.Timeout) and only when the repository's
// own config names no program. why says why git could not answer.
func (g *Git) Tracks(rel string) (tracked bool, why string) {
	git, err := g.opts.LookPath("git")
	if err != nil {
		return false, "git is not installed"
	}
	repo, ok := g.gitRepo()
	switch {
	case !ok:
		return false, "the project is not in a git repository"
	case repo.untrusted != "":
		return false, "git was not asked: " + repo.untrusted
	case len(repo.programs) > 0 || repo.unreadable != "":
		return false, "git was not asked: the repository's own config names programs or could not be checked"
	}
	// The index is the project's own file, and a shipped repository can forge
	// an entry for any path: the entry counts only when its blob is in the
	// object store and is the file's content now (then the content is the
	// repository's anyway).
	ctx := context.Background()
	out, _, err := g.runGit(ctx, git, repo, "--literal-pathspecs", "ls-files", "--stage", "--error-unmatch", "--", rel)
	if err != nil {
		return false, ""
	}
	sha, ok := indexBlob(out, rel)
	if !ok {
		return false, "its index entry is not one blob"
	}
	if _, _, err := g.runGit(ctx, git, repo, "cat-file", "-e", sha+"^{blob}"); err != nil {
		return false, "its index entry names a blob the repository does not have"
	}
	// --no-filters: the bytes as they are, with no clean filter (a program the
	// project's .gitattributes would pick) run on them; a filtered file then
	// counts as untracked, the safe side.
	now, _, err := g.runGit(ctx, git, repo, "--literal-pathspecs", "hash-object", "--no-filters", "--", rel)
	if err != nil || strings.TrimSpace(now) != sha {
		return false, "its content is not the blob its index entry names"
	}
	return true, ""
}

// indexBlob is the object name of the one stage-0 blob `git ls-files --stage`
// printed for rel ("<mode> <object> <stage>\t<path>").
func indexBlob(out, rel string) (string, bool) {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 1 {
		return "", false
	}
	meta, p, ok := strings.Cut(lines[0], "\t")
	f := strings.Fields(meta)
	if !ok || p != rel || len(f) != 3 || f[2] != "0" || (f[0] != "100644" && f[0] != "100755") {
		return "", false
	}
	for _, c := range f[1] {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return "", false
		}
	}
	if len(f[1]) != 40 && len(f[1]) != 64 {
		return "", false
	}
	return f[1], true
}
