package codectx

import (
	"context"
	"io/fs"
	"os"

	"fixplan/plan"
)

// A hard link inside the project can point at any file of the same file system
// the user can read, ~/.ssh/id_rsa say: unlike a symlink, nothing in the tree
// shows where it leads. So a file with more than one hard link is read only when
// git tracks it (its content is then part of the repository anyway).

// checkLinks refuses the open file f (clean as asked, real its root-relative
// path, st its information) when it has more than one hard link and git does not
// track it.
func (g *Gatherer) checkLinks(clean, real string, f *os.File, st fs.FileInfo) error {
	n := linkCount(f, st)
	if n <= 1 {
		return nil
	}
	tracked, why := g.gitTracks(real)
	if tracked {
		return nil
	}
	if why != "" {
		why = " (" + why + ")"
	}
	return refusal(plan.ErrPathOutsideRoot,
		"file %q is not read: it has %d hard links and git does not track it%s, and a hard link can point at a file outside the project (an SSH key, say). If it belongs to the project, add it to git (git add) or replace the link with a copy (cp --remove-destination)",
		clean, n, why)
}

// gitTracks reports whether git tracks rel (slash-separated, relative to the
// root): `git ls-files --error-unmatch` with literal pathspecs, run like every
// git call of the package (runGit: on the repository found without running git,
// no fsmonitor, no hooks, bounded by ToolTimeout) and only when the repository's
// own config names no program. why says why git could not answer.
func (g *Gatherer) gitTracks(rel string) (tracked bool, why string) {
	git, err := g.lookPath("git")
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
	_, _, err = g.runGit(context.Background(), git, repo, "--literal-pathspecs", "ls-files", "--error-unmatch", "--", rel)
	return err == nil, ""
}
