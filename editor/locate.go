package editor

import (
	"path/filepath"

	"fixplan/plan"
	"fixplan/projfs"
)

// Locate confines path to the project at root and returns the file's absolute
// path (symlinks resolved; what the editor is given) and its root-relative
// path. path comes from the model, the project or the user and is untrusted: it
// is cleaned like any path the model names (projfs.CleanRel: no absolute path,
// drive letter, `~` or `..`), resolved inside the root (projfs Resolve: a
// symbolic link that leads out of it, or into .git, .hg or .fixplan, is
// refused), and must be a regular file. A secret file (.env, a key) may be
// opened: it stays on the user's machine, in their editor.
//
// The absolute path starts with the root (a "/" or a drive letter), so a file
// named "-e" or "--foo" can never be read by the editor as an option.
//
// Refusals are *plan.Error: ERR_PATH_OUTSIDE_ROOT, ERR_PROTECTED_PATH,
// ERR_NOT_FOUND, ERR_INVALID_INPUT (a folder, a special file).
func Locate(root, path string) (abs, rel string, err error) {
	r, err := projfs.OpenRoot(root, projfs.Options{AllowSecrets: true})
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	clean, err := projfs.CleanRel(path)
	if err != nil {
		return "", "", notInProject(path, err)
	}
	real, err := r.Resolve(clean)
	if err != nil {
		return "", "", notInProject(path, err)
	}
	st, err := r.Stat(real)
	switch {
	case err != nil:
		return "", "", notInProject(path, projfs.Refuse(projfs.IOCode(err), "cannot open %q: %s", clean, projfs.PathErrReason(err)))
	case st.IsDir():
		return "", "", plan.Errorf(plan.ErrInvalidInput, "%s is a folder, not a file", clean).WithHint("open a file of the project")
	case !st.Mode().IsRegular():
		return "", "", plan.Errorf(plan.ErrInvalidInput, "%s is not a regular file (%s)", clean, st.Mode().Type()).
			WithHint("only the project's regular files are opened in the editor")
	}
	return filepath.Join(r.Dir(), filepath.FromSlash(real)), real, nil
}

// notInProject words a refusal of projfs for the user who clicked a link: the
// reason stays, the hint is theirs (projfs's hints speak to the model).
func notInProject(path string, err error) error {
	code := plan.CodeOf(err)
	if code == "" {
		return err
	}
	hint := "only files inside the open project are opened in the editor"
	if code == plan.ErrNotFound {
		hint = "the file is not there (any more): it may have been moved or deleted, or the plan creates it and was not applied"
	}
	return &plan.Error{Code: code, Msg: "not opened in the editor: " + projfs.Reason(err), Hint: hint, Paths: []string{path}}
}
