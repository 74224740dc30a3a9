package projfs

import (
	"io/fs"
	"os"

	"fixplan/plan"
)

// A hard link inside the project can point at any file of the same file system
// the user can read, ~/.ssh/id_rsa say: unlike a symlink, nothing in the tree
// shows where it leads. So a file with more than one hard link is read only when
// git tracks it (its content is then part of the repository anyway): the
// Options.Tracked policy says.

// CheckLinks refuses the open file f (clean as asked, real its root-relative
// path, st its information) when it has more than one hard link and git does not
// track it (Options.Tracked).
func (r *Root) CheckLinks(clean, real string, f *os.File, st fs.FileInfo) error {
	n := linkCount(f, st)
	if n <= 1 {
		return nil
	}
	tracked, why := false, ""
	if r.opts.Tracked != nil {
		tracked, why = r.opts.Tracked(real)
	}
	if tracked {
		return nil
	}
	if why != "" {
		why = " (" + why + ")"
	}
	return Refuse(plan.ErrPathOutsideRoot,
		"file %q is not read: it has %d hard links and git does not track it%s, and a hard link can point at a file outside the project (an SSH key, say). If it belongs to the project, add it to git (git add) or replace the link with a copy (cp --remove-destination)",
		clean, n, why)
}
