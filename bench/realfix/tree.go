package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// repos finds the git history of a case's repository: a bare mirror in
// REALFIX_GIT (<dir>/<owner>+<name>/repo, <dir>/<owner>+<name>,
// <dir>/<owner>+<name>.git or <dir>/<owner>/<name>.git), or, when REALFIX_GIT
// is not set, a bare clone from https://github.com kept in cache.
type repos struct {
	mirrors string // REALFIX_GIT
	cache   string // clones, when mirrors is ""
}

func newRepos() (*repos, error) {
	r := &repos{mirrors: os.Getenv("REALFIX_GIT")}
	if r.mirrors != "" {
		return r, nil
	}
	r.cache = os.Getenv("REALFIX_CACHE")
	if r.cache == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache folder for the clones (set REALFIX_GIT or REALFIX_CACHE): %w", err)
		}
		r.cache = filepath.Join(d, "fixplan-realfix")
	}
	return r, os.MkdirAll(r.cache, 0o755)
}

// gitDir returns the bare git folder of repo ("owner/name") holding commits.
func (r *repos) gitDir(repo string, commits ...string) (string, error) {
	owner, name, _ := strings.Cut(repo, "/")
	if r.mirrors != "" {
		for _, d := range []string{
			filepath.Join(r.mirrors, owner+"+"+name, "repo"),
			filepath.Join(r.mirrors, owner+"+"+name),
			filepath.Join(r.mirrors, owner+"+"+name+".git"),
			filepath.Join(r.mirrors, owner, name+".git"),
		} {
			if _, err := os.Stat(filepath.Join(d, "HEAD")); err == nil {
				return d, nil
			}
		}
		return "", fmt.Errorf("%s: no bare mirror of it in REALFIX_GIT=%s (looked for %s+%s/repo, %s+%s, %s+%s.git, %s/%s.git)",
			repo, r.mirrors, owner, name, owner, name, owner, name, owner, name)
	}
	d := filepath.Join(r.cache, owner+"+"+name+".git")
	if _, err := os.Stat(filepath.Join(d, "HEAD")); err != nil {
		if _, err := git("", "clone", "--quiet", "--bare", "https://github.com/"+repo, d); err != nil {
			return "", fmt.Errorf("clone %s: %w", repo, err)
		}
	}
	for _, c := range commits {
		if _, err := git(d, "cat-file", "-e", c+"^{commit}"); err != nil {
			if _, err := git(d, "fetch", "--quiet", "origin", "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"); err != nil {
				return "", fmt.Errorf("fetch %s: %w", repo, err)
			}
			break
		}
	}
	return d, nil
}

// git runs git on the bare repository gitDir ("" for none) and returns its
// standard output.
func git(gitDir string, args ...string) ([]byte, error) {
	return gitEnv(gitDir, nil, args...)
}

func gitEnv(gitDir string, env []string, args ...string) ([]byte, error) {
	if gitDir != "" {
		args = append([]string{"--git-dir=" + gitDir}, args...)
	}
	// No hooks, pager or system/global configuration: only the mirror's own.
	args = append([]string{"-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat"}, args...)
	cmd := exec.Command("git", args...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0")
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("git %s: %w: %s", strings.Join(args[4:], " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// writeTree checks commit out into dst (created; it must not exist), every
// file of the commit, through a temporary index (git archive would leave out
// export-ignore files).
func writeTree(gitDir, commit, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	idx := dst + ".index"
	defer os.Remove(idx)
	env := []string{"GIT_INDEX_FILE=" + idx}
	if _, err := gitEnv(gitDir, env, "read-tree", commit); err != nil {
		return err
	}
	if err := dropMissing(gitDir, env); err != nil {
		return err
	}
	if _, err := gitEnv(gitDir, env, "checkout-index", "-a", "-f", "--prefix="+dst+string(filepath.Separator)); err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	// Every file dated the commit's time, as a checkout that was not touched
	// since would be (the base context lists recently changed files).
	when, err := commitTime(gitDir, commit)
	if err != nil {
		return err
	}
	return filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Type()&os.ModeSymlink != 0 {
			return err
		}
		return os.Chtimes(p, when, when)
	})
}

func commitTime(gitDir, commit string) (time.Time, error) {
	out, err := git(gitDir, "log", "-1", "--format=%ct", commit)
	if err != nil {
		return time.Time{}, err
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("commit time of %s: %w", commit, err)
	}
	return time.Unix(sec, 0), nil
}

// dropMissing removes from the index the files whose content the repository
// lacks (a mirror may leave out files of 4 MiB and more), so the rest of the
// tree is checked out.
func dropMissing(gitDir string, env []string) error {
	staged, err := gitEnv(gitDir, env, "ls-files", "-s", "-z")
	if err != nil {
		return err
	}
	var ids, paths []string
	for _, rec := range strings.Split(string(staged), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[0] != "160000" { // not a submodule
			ids, paths = append(ids, f[1]), append(paths, p)
		}
	}
	cmd := exec.Command("git", "--git-dir="+gitDir, "cat-file", "--batch-check=%(objectname)")
	cmd.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git cat-file --batch-check: %w", err)
	}
	var missing []string
	for i, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasSuffix(l, " missing") && i < len(paths) {
			missing = append(missing, paths[i])
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = gitEnv(gitDir, env, append([]string{"update-index", "--force-remove", "--"}, missing...)...)
	return err
}

// overlay writes commit's version of each file into dst, or removes the file
// when commit does not have it; the files written are dated the commit's time
// (in the pre-fix tree: the regression test is what was changed last).
func overlay(gitDir, commit, dst string, files []string) error {
	when, err := commitTime(gitDir, commit)
	if err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(dst, filepath.FromSlash(f))
		data, err := git(gitDir, "cat-file", "blob", commit+":"+f)
		if err != nil {
			if rmErr := os.Remove(p); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
				return rmErr
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		if err := os.Chtimes(p, when, when); err != nil {
			return err
		}
	}
	return nil
}

// preFixTree writes the case's pre-fix tree into dst: the parent commit, the
// fix commit's test files, and a go.mod when the case names one.
func preFixTree(gitDir string, c *Case, dst string) error {
	if err := writeTree(gitDir, c.Parent, dst); err != nil {
		return err
	}
	if err := overlay(gitDir, c.Fix, dst, c.TestFiles); err != nil {
		return err
	}
	return writeGoMod(c, dst)
}

// fixTree writes the fix commit's tree into dst.
func fixTree(gitDir string, c *Case, dst string) error {
	if err := writeTree(gitDir, c.Fix, dst); err != nil {
		return err
	}
	return writeGoMod(c, dst)
}

// goModVersion is the language version of the go.mod written into a tree from
// before modules: the semantics those trees were written for (loop variables
// shared across iterations).
const goModVersion = "1.16"

func writeGoMod(c *Case, dst string) error {
	if c.GoMod == "" {
		return nil
	}
	p := filepath.Join(dst, "go.mod")
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	return os.WriteFile(p, []byte("module "+c.GoMod+"\n\ngo "+goModVersion+"\n"), 0o644)
}

// removeTree removes a tree the runner wrote (tests may leave read-only
// folders behind, such as Go's module cache entries).
func removeTree(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

// testTimeout bounds one run of a case's tests.
const testTimeout = 3 * time.Minute

// maxOutput bounds a recorded output (a runaway test prints megabytes): its
// head and its tail are kept.
const maxOutput = 48 << 10

// runTest runs the case's setup commands and then its test command in the
// tree at dir, and returns the test's output with the tree's folder written as
// $ROOT and its exit code (-1 when it did not end by itself).
func runTest(c *Case, dir string) (string, int, error) {
	for _, s := range c.Setup {
		out, code, err := runCmd(c, dir, s)
		if err == nil && code != 0 {
			err = fmt.Errorf("exit code %d", code)
		}
		if err != nil {
			return out, -1, fmt.Errorf("setup %s failed: %w\n%s", strings.Join(s, " "), err, tail(out, 2000))
		}
	}
	return runCmd(c, dir, c.Test)
}

func runCmd(c *Case, dir string, argv []string) (string, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	argv = append([]string{}, argv...)
	if argv[0] == "python3" {
		argv[0] = python()
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOSUMDB=off", "GOWORK=off",
		"PYTHONDONTWRITEBYTECODE=1", "PYTHONHASHSEED=0", "NO_COLOR=1", "FORCE_COLOR=0", "CI=true", "TZ=UTC")
	if c.Lang == "python" {
		cmd.Env = append(cmd.Env, "PYTHONPATH="+dir+string(os.PathListSeparator)+filepath.Join(dir, "src"))
	}
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	text := strings.ReplaceAll(string(out), filepath.Join(filepath.Dir(dir), "node_modules")+string(filepath.Separator),
		filepath.Join(dir, "node_modules")+string(filepath.Separator)) // see npmInstall
	text = strings.ReplaceAll(text, dir, RootMark)
	if len(text) > maxOutput {
		text = text[:maxOutput/2] + "\n…[output cut]…\n" + text[len(text)-maxOutput/2:]
	}
	if ctx.Err() != nil {
		return text, -1, fmt.Errorf("timed out after %s", testTimeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return text, exit.ExitCode(), nil
	}
	if err != nil {
		return text, -1, err
	}
	return text, 0, nil
}

// python is the interpreter the Python cases' tests run with: REALFIX_PYTHON,
// else the system's /usr/bin/python3 (where apt installs pytest), else python3.
func python() string {
	if p := os.Getenv("REALFIX_PYTHON"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
