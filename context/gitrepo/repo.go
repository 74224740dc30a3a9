package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"fixplan/projfs"
)

// gitRepo is the repository enclosing the root, found and checked without
// running git. git is then given exactly this repository (--git-dir,
// --work-tree), so it discovers nothing by itself.
type gitRepo struct {
	top    string // the work tree: the folder holding .git (absolute, symlinks resolved)
	gitDir string // the repository folder: .git, or where a .git file points
	// common is the folder of the shared config, objects and refs: gitDir, or
	// for a linked worktree the folder its commondir file names. git is given it
	// (GIT_COMMON_DIR), so it reads the config that was checked.
	common string
	// programs lists the keys of the repository's own config that name a program
	// or pull in more config (see namesProgram), sorted; git must not run then.
	programs []string
	// unreadable says why the repository's config could not be read safely
	// ("" when it was); git must not run then either.
	unreadable string
	// untrusted says why the repository is not used at all ("" when it is): the
	// project's own .git leads out of the project (see findGitRepo). git must not
	// run then, and nothing of the repository is shown.
	untrusted string
}

// Bounds of the files read while looking for the repository.
const (
	maxGitConfigBytes = 1 << 20  // config, config.worktree
	maxGitPointerSize = 64 << 10 // a .git file, commondir
)

// findGitRepo finds the repository git would use for root (absolute, symlinks
// resolved), looking in root and its parents as git does: a folder holding a
// .git folder or a .git file ("gitdir: <path>"), not going up into a folder of
// ceilings (GIT_CEILING_DIRECTORIES). ok is false when there is none, when the
// first one found is not a work tree (root inside a bare repository or a .git
// folder), or when a .git file is malformed (git would fail too). It reads the
// repository's config files (see readRepoConfig) and runs nothing.
func findGitRepo(root string, ceilings []string) (gitRepo, bool) {
	if why := untrustedDotGit(root); why != "" {
		return gitRepo{top: root, untrusted: why}, true
	}
	d, gd, ok := findDotGit(root, ceilings)
	if !ok {
		return gitRepo{}, false
	}
	repo := gitRepo{top: d, gitDir: gd}
	repo.common, repo.programs, repo.unreadable = readRepoConfig(gd)
	if d == root && repo.unreadable == "" && !within(root, repo.common) {
		return gitRepo{top: d, untrusted: "its .git folder's commondir file points outside the project"}, true
	}
	if repo.unreadable == "" {
		if why := repoReadsOutside(repo); why != "" {
			return gitRepo{top: d, untrusted: why}, true
		}
	}
	return repo, true
}

// findDotGit looks for the .git git would use for root, as findGitRepo
// describes, without checking the repository: top is the folder holding it
// and gitDir the repository folder; ok is false when there is none git could
// use.
func findDotGit(root string, ceilings []string) (top, gitDir string, ok bool) {
	ceil := map[string]bool{}
	for _, c := range ceilings {
		if filepath.IsAbs(c) {
			ceil[filepath.Clean(c)] = true
			if real, err := filepath.EvalSymlinks(c); err == nil {
				ceil[real] = true
			}
		}
	}
	for d := root; ; {
		if gd, found, ok := dotGit(d); found {
			return d, gd, ok
		}
		if isGitDir(d) { // a bare repository, or inside a .git folder: no work tree
			return "", "", false
		}
		parent := filepath.Dir(d)
		if parent == d || ceil[parent] {
			return "", "", false
		}
		d = parent
	}
}

// untrustedDotGit says why the project's own .git (root/.git) is not used, or
// "" when it is a folder inside the project, or absent. A .git symlink or a .git
// file ("gitdir: <path>") whose repository is outside the project is project
// content pointing elsewhere: git would show another repository's files and
// history (and read its config). A project that is a linked worktree or a
// submodule checkout has such a .git file too; it is refused as well — safety
// first: fixplan shows no git sections then (docs: SECURITY.md). A project that
// is a folder inside a repository is different: the .git above the root is not
// part of the project, it is the user's own layout, and is used.
func untrustedDotGit(root string) string {
	p := filepath.Join(root, ".git")
	st, err := os.Lstat(p)
	switch {
	case err != nil:
		return ""
	case st.Mode()&fs.ModeSymlink != 0:
		return "the project's .git is a symbolic link"
	case st.IsDir():
		return ""
	}
	gd, found, ok := dotGit(root)
	if found && ok && !within(root, gd) {
		return "the project's .git file points to a repository outside the project (a linked worktree or a submodule is refused too)"
	}
	return ""
}

// within reports whether p is root or inside it (both absolute, symlinks
// resolved).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ceilingDirs is GIT_CEILING_DIRECTORIES as a list.
func ceilingDirs() []string {
	return filepath.SplitList(os.Getenv("GIT_CEILING_DIRECTORIES"))
}

// dotGit looks at dir/.git: found is false when there is none (or it is a
// folder that is not a repository, which git passes over too); ok is false when
// it is there but git could not use it (a malformed .git file, a pointer to
// something that is not a repository).
func dotGit(dir string) (gitDir string, found, ok bool) {
	p := filepath.Join(dir, ".git")
	st, err := os.Stat(p) // a .git symlink is followed, as git does
	if err != nil {
		return "", false, false
	}
	if st.IsDir() {
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !isGitDir(real) {
			return "", false, false
		}
		return real, true, true
	}
	if !st.Mode().IsRegular() {
		return "", true, false
	}
	data, err := readBounded(dir, ".git", maxGitPointerSize, true)
	if err != nil {
		return "", true, false
	}
	target, found := strings.CutPrefix(string(data), "gitdir: ")
	target = strings.TrimRight(target, "\r\n") // as git does: a trailing space is part of the path
	if !found || target == "" || strings.ContainsAny(target, "\x00\n") {
		return "", true, false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	real, err := filepath.EvalSymlinks(target)
	if err != nil || !isGitDir(real) {
		return "", true, false
	}
	return real, true, true
}

// isGitDir reports whether d looks like a repository folder to git: a HEAD, and
// objects/ and refs/ (in the common folder for a linked worktree).
func isGitDir(d string) bool {
	if _, err := os.Lstat(filepath.Join(d, "HEAD")); err != nil {
		return false
	}
	if st, err := os.Lstat(filepath.Join(d, "commondir")); err == nil && st.Mode().IsRegular() {
		return true
	}
	for _, sub := range []string{"objects", "refs"} {
		if st, err := os.Stat(filepath.Join(d, sub)); err != nil || !st.IsDir() {
			return false
		}
	}
	return true
}

// readRepoConfig reads the config git would read from the repository gitDir —
// its common folder's config (for a linked worktree, the folder its commondir
// names) and the config.worktree files — and returns that common folder and the
// keys that name a program, or why the config could not be read safely. Each
// file is read through an os.Root of its folder, only if it is a regular file
// (not a symlink, FIFO or device) of at most maxGitConfigBytes; nothing the
// config names (include.path, ...) is read.
func readRepoConfig(gitDir string) (common string, programs []string, unreadable string) {
	common = gitDir
	if data, err := readBounded(gitDir, "commondir", maxGitPointerSize, false); err != nil {
		return "", nil, "its commondir file " + readProblem(err)
	} else if data != nil {
		c := strings.TrimRight(string(data), "\r\n")
		if c == "" || strings.ContainsAny(c, "\x00\n") {
			return "", nil, "its commondir file is malformed"
		}
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		real, err := filepath.EvalSymlinks(c)
		if err != nil {
			return "", nil, "the folder its commondir file names cannot be found"
		}
		common = real
	}
	files := []struct{ dir, name string }{{common, "config"}, {common, "config.worktree"}}
	if gitDir != common {
		files = append(files, struct{ dir, name string }{gitDir, "config.worktree"})
	}
	var entries []configEntry
	for _, f := range files {
		data, err := readBounded(f.dir, f.name, maxGitConfigBytes, false)
		if err != nil {
			return "", nil, fmt.Sprintf("its %s file %s", f.name, readProblem(err))
		}
		e, err := parseGitConfig(data)
		if err != nil {
			return "", nil, fmt.Sprintf("its %s file is not valid git config (%v)", f.name, err)
		}
		entries = append(entries, e...)
	}
	return common, programNames(entries), ""
}

// errNotRegular and errTooBig are the reasons readBounded refuses a file.
var (
	errNotRegular = errors.New("not a regular file")
	errTooBig     = errors.New("too big")
)

// readBounded reads dir/name through an os.Root of dir: a regular file of at
// most limit bytes (not a symlink, FIFO or device). A missing file gives nil and
// no error unless must is set.
func readBounded(dir, name string, limit int64, must bool) ([]byte, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	st, err := r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) && !must {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	if st.Size() > limit {
		return nil, errTooBig
	}
	// the one reader's open: it cannot block on a FIFO swapped in since the
	// Lstat, and the type is checked again on the descriptor
	f, st2, err := projfs.OpenIn(r, name, name)
	if err != nil {
		return nil, errNotRegular
	}
	defer f.Close()
	if !os.SameFile(st, st2) {
		return nil, errNotRegular // replaced since the Lstat
	}
	data, err := projfs.ReadBounded(f, limit, name)
	if projfs.IsTooLong(err) {
		return nil, errTooBig
	}
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// readProblem words a readBounded error for the recent-changes section; it
// names no path.
func readProblem(err error) string {
	switch {
	case errors.Is(err, errNotRegular):
		return "is not a regular file"
	case errors.Is(err, errTooBig):
		return "is too big"
	case errors.Is(err, fs.ErrPermission):
		return "cannot be read (permission denied)"
	}
	return "cannot be read"
}

// maxGitEntries bounds the entries repoReadsOutside looks at; a repository
// with more (in objects, refs, info and worktrees) is not used.
const maxGitEntries = 200000

// gitReadFolders are the folders of a repository whose files git reads objects
// and refs from (objects/info/alternates, loose objects, packs, loose refs,
// info/grafts, linked worktrees' HEAD and index): each entry in them, at any
// depth, must not be a symbolic link leading out.
var gitReadFolders = map[string]bool{"objects": true, "refs": true, "info": true, "worktrees": true}

// repoReadsOutside says why git, given the repository repo, would read objects
// or refs from outside it, or "" when it would not: an objects/info/alternates
// (or http-alternates) file that is not empty names another object store; a
// symbolic link at the top of the git folder (and of its common folder) that
// leads outside the work tree and the repository, or any symbolic link inside
// its objects, refs, info or worktrees folders that leads outside or to a
// folder (whose entries would not be checked), points git at another
// repository's content (a legitimate repository has none there). Links are
// only read (Lstat, Readlink through EvalSymlinks), never opened; at most
// maxGitEntries entries are looked at. It applies to a repository above the
// root too: its alternates can point anywhere.
func repoReadsOutside(repo gitRepo) string {
	dirs := []string{repo.gitDir}
	if repo.common != repo.gitDir {
		dirs = append(dirs, repo.common)
	}
	inside := func(p string) bool {
		return within(repo.top, p) || within(repo.gitDir, p) || within(repo.common, p)
	}
	for _, d := range dirs {
		for _, name := range []string{"alternates", "http-alternates"} {
			st, err := os.Lstat(filepath.Join(d, "objects", "info", name))
			if err == nil && (!st.Mode().IsRegular() || st.Size() > 0) {
				return "its git folder's objects/info/" + name + " file makes git read objects from another repository"
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "its git folder's objects/info/" + name + " file cannot be checked"
			}
		}
	}
	seen := 0
	for _, d := range dirs {
		if why := linksOut(d, "", 0, inside, &seen); why != "" {
			return why
		}
	}
	return ""
}

// linksOut checks the entries of dir/rel (depth 0: the top of a git folder,
// where only symbolic links are looked at and the folders of gitReadFolders
// entered; deeper: every entry) and says why one leads out, or "".
func linksOut(dir, rel string, depth int, inside func(string) bool, seen *int) string {
	f, err := os.Open(filepath.Join(dir, rel))
	if err != nil {
		if depth == 0 {
			return "its git folder cannot be listed"
		}
		return "its git folder's " + filepath.ToSlash(rel) + " folder cannot be listed"
	}
	defer f.Close()
	for {
		ents, err := f.ReadDir(1024)
		for _, e := range ents {
			*seen++
			if *seen > maxGitEntries {
				return fmt.Sprintf("its git folder has more than %d entries in objects, refs, info and worktrees to check", maxGitEntries)
			}
			link := e.Type()&fs.ModeSymlink != 0
			if !link && !e.IsDir() {
				continue // a file (a loose object, a pack, a ref): nothing to follow
			}
			sub := filepath.Join(rel, e.Name())
			p := filepath.Join(dir, sub)
			switch {
			case link:
				real, err := filepath.EvalSymlinks(p)
				if err != nil || !inside(real) {
					return "its git folder holds a symbolic link (" + filepath.ToSlash(sub) + ") leading outside the project"
				}
				if depth > 0 || gitReadFolders[e.Name()] {
					if st, err := os.Stat(real); err != nil || st.IsDir() {
						return "its git folder holds a symbolic link to a folder (" + filepath.ToSlash(sub) + "); git would read objects or refs through it"
					}
				}
			case e.IsDir() && (depth > 0 || gitReadFolders[e.Name()]):
				if why := linksOut(dir, sub, depth+1, inside, seen); why != "" {
					return why
				}
			}
		}
		if err == io.EOF || len(ents) == 0 {
			return ""
		}
		if err != nil {
			return "its git folder cannot be listed"
		}
	}
}
