package codectx

import (
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"time"

	"fixplan/plan"
)

// A hard link inside the project can point at any file of the same file system
// the user can read, ~/.ssh/id_rsa say: unlike a symlink, nothing in the tree
// shows where it leads. So a file with more than one hard link is read only when
// git tracks it (its content is then part of the repository anyway).

// gitLsTimeout bounds the `git ls-files` that asks whether git tracks a file.
const gitLsTimeout = 5 * time.Second

// checkLinks refuses the open file f (clean as asked, real its root-relative
// path, st its information) when it has more than one hard link and git does not
// track it.
func (g *Gatherer) checkLinks(clean, real string, f *os.File, st fs.FileInfo) error {
	n := linkCount(f, st)
	if n <= 1 || gitTracks(g.root, real) {
		return nil
	}
	return refusal(plan.ErrPathOutsideRoot,
		"file %q is not read: it has %d hard links and git does not track it, and a hard link can point at a file outside the project (an SSH key, say). If it belongs to the project, add it to git (git add) or replace the link with a copy (cp --remove-destination)",
		clean, n)
}

// gitTracks reports whether git tracks rel (slash-separated, relative to root).
// It runs `git ls-files`, which runs no hooks; the project's own configuration
// could still start its fsmonitor, so that is switched off, and pathspecs are
// literal. No git, no repository or any failure count as not tracked.
func gitTracks(root, rel string) bool {
	git, err := exec.LookPath("git")
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitLsTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, "--literal-pathspecs", "-c", "core.fsmonitor=false",
		"ls-files", "--error-unmatch", "--", rel)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	return cmd.Run() == nil
}
