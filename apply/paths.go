package apply

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"fixplan/plan"
)

// cleanRel turns a path written by the model or the user into a clean, slash-
// separated path relative to the root, or fails with ERR_PATH_OUTSIDE_ROOT.
func cleanRel(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", plan.Errorf(plan.ErrPathOutsideRoot, "an empty path was given").WithHint("use a path relative to the project root")
	}
	if why := plan.PathProblem(p); why != "" {
		return "", (&plan.Error{Code: plan.ErrPathOutsideRoot, Msg: "path " + quote(p) + " " + why, Paths: []string{p}}).
			WithHint("only files inside the project folder can be changed")
	}
	rel := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if rel == "." || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", (&plan.Error{Code: plan.ErrPathOutsideRoot, Msg: "path " + quote(p) + " does not name a file inside the project", Paths: []string{p}}).
			WithHint("only files inside the project folder can be changed")
	}
	return rel, nil
}

func quote(s string) string { return "\"" + s + "\"" }

// protected reports why no plan may write rel (a .git, .hg or .fixplan segment
// at any depth in any spelling, a Windows device or short name, a stream), or "".
func protected(rel string) string { return plan.ProtectedProblem(rel) }

// secret reports files that hold credentials; writing them is refused. It is
// the read path's list (plan.IsSecretPath): a file the model may not read is
// never previewed, so its content is quoted nowhere.
func secret(rel string) bool { return plan.IsSecretPath(rel) }

var lockFiles = map[string]bool{"go.sum": true, "package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"cargo.lock": true, "poetry.lock": true, "pipfile.lock": true, "gemfile.lock": true, "composer.lock": true,
	"uv.lock": true, "bun.lockb": true, "flake.lock": true}

func isLockFile(rel string) bool { return lockFiles[strings.ToLower(path.Base(rel))] }

// checkTarget validates a path for writing: inside the root after resolving
// symlinks of its existing parents, not protected, not a secret, and not itself a
// symlink. It returns the absolute path.
func (e *Engine) checkTarget(rel string) (string, error) {
	if why := protected(rel); why != "" {
		return "", (&plan.Error{Code: plan.ErrProtectedPath, Msg: "path " + rel + ": " + why, Paths: []string{rel}}).
			WithHint("change files of the project itself")
	}
	if secret(rel) {
		return "", (&plan.Error{Code: plan.ErrSecretPath, Msg: rel + " looks like a secrets file; fixplan does not write secrets", Paths: []string{rel}}).
			WithHint("edit it by hand if the change is really wanted")
	}
	// No folder on the way may be a symbolic link, even one that stays inside the
	// project: the preview would name one file and the write would change another.
	segs := strings.Split(rel, "/")
	for i := 1; i < len(segs); i++ {
		dir := strings.Join(segs[:i], "/")
		fi, err := e.r.Lstat(filepath.FromSlash(dir))
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", (&plan.Error{Code: plan.ErrPathOutsideRoot, Msg: rel + " goes through the symbolic link " + dir + "; fixplan does not write through links", Paths: []string{rel}}).
				WithHint("change the file by its real path")
		}
	}
	// The file itself must not be a link either. With no link on the way, the path
	// resolves to the folder the root holds open (os.Root), so it cannot lead
	// outside the project; every read and write goes through that root anyway.
	// (Resolving the absolute path again, component by component from /, cost
	// one lstat per folder above the project for every file of a patch.)
	fi, err := e.r.Lstat(filepath.FromSlash(rel))
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return "", (&plan.Error{Code: plan.ErrPathOutsideRoot, Msg: rel + " is a symbolic link; fixplan does not write through links", Paths: []string{rel}}).
			WithHint("change the file the link points to, by its own path")
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", &plan.Error{Code: plan.ErrIO, Msg: "cannot inspect " + rel, Err: err, Paths: []string{rel}}
	}
	return filepath.Join(e.root, filepath.FromSlash(rel)), nil
}
