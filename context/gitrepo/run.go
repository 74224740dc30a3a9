// Package gitrepo is fixplan's safe access to the project's git repository. The
// repository is found and checked without running git (repo.go: no .git that
// leads out of the project, no alternates or links out of its objects and refs,
// config.go: no config key that names a program); git then runs only on that
// repository, given explicitly, with no fsmonitor, hooks, pager, external diff
// or textconv, no transport, and the scrubbed environment of the env probe
// (run.go). It answers the recent-files status (Status), whether a file is
// tracked (Tracks, the hard-link policy of projfs) and the uncommitted changes
// section, redacted from the whole files it compares (Changes, diff.go).
package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"fixplan/context/envprobe"
	"fixplan/projfs"
)

// Options tune a Git.
type Options struct {
	// Files is the project: git runs on the repository that holds its root,
	// and the working-tree side of a diff is read through it.
	Files *projfs.Root
	// LookPath finds the git program (never inside the project).
	LookPath func(name string) (string, error)
	// PATH is the scrubbed PATH git runs with (envprobe.Probe.PATH).
	PATH func() string
	// Timeout bounds each git run.
	Timeout time.Duration
}

// Git runs git on the project's repository, found and checked without running
// git (repo.go), with every guard of gitArgs and gitEnviron, and only when the
// repository's own config names no program (config.go). It is safe for
// concurrent use.
type Git struct {
	root  string // absolute, symlinks resolved
	files *projfs.Root
	opts  Options
	memo  repoMemo
}

// New returns the Git of the project o.Files.
func New(o Options) *Git {
	return &Git{root: o.Files.Dir(), files: o.Files, opts: o}
}

// repoMemoFor is how long one look at the project's repository serves. Finding
// it reads its config files and walks .git/objects, refs, info and worktrees for
// links leading out (findGitRepo) — ~4 ms on a repository with 2,700 loose
// objects — and one base context asks four times (recent files, the diff, the
// git refusal note, hard-link checks per file read). A few seconds covers one
// gather or one context round; later ones look again, so a repository changed
// between plans is judged as it is then.
const repoMemoFor = 3 * time.Second

type repoMemo struct {
	mu   sync.Mutex
	at   time.Time
	repo gitRepo
	ok   bool
}

// gitRepo is findGitRepo for the project root, looked at again after repoMemoFor.
func (g *Git) gitRepo() (gitRepo, bool) {
	m := &g.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at.IsZero() || time.Since(m.at) > repoMemoFor {
		m.repo, m.ok = findGitRepo(g.root, ceilingDirs())
		m.at = time.Now()
	}
	return m.repo, m.ok
}

// maxGitOutput bounds the output of a git run that is read.
const maxGitOutput = 1 << 20

// runGit runs git on repo with args and the guards of gitArgs and gitEnviron,
// bounded by Options.Timeout, and returns its output (at most maxGitOutput bytes;
// cut is set when there was more).
func (g *Git) runGit(ctx context.Context, git string, repo gitRepo, args ...string) (out string, cut bool, err error) {
	return g.runGitInput(ctx, git, repo, "", args...)
}

// runGitInput is runGit with stdin (for `cat-file --batch`).
func (g *Git) runGitInput(ctx context.Context, git string, repo gitRepo, stdin string, args ...string) (out string, cut bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, g.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, append(gitArgs(g.root, repo), args...)...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	cmd.Dir = g.root
	cmd.Env = gitEnviron(os.Environ(), g.root, g.opts.PATH(), repo)
	cmd.WaitDelay = g.opts.Timeout
	buf := envprobe.NewCappedBuffer(maxGitOutput + 1)
	cmd.Stdout = buf // stderr goes nowhere
	err = cmd.Run()
	if got := buf.Bytes(); len(got) > maxGitOutput {
		return string(got[:maxGitOutput]), true, err
	}
	return string(buf.Bytes()), false, err
}

// gitArgs are the options every git call starts with: the repository that was
// checked, given explicitly (git discovers nothing and ignores core.worktree);
// no fsmonitor, no hooks (core.hooksPath is the null device), no pager, no
// optional locks (status does not rewrite the index), and no transport (a
// partial clone's lazy fetch cannot reach a remote the project chose). Command
// line config outranks the repository's. No diff or log is run; one that is
// must add --no-ext-diff --no-textconv.
func gitArgs(root string, repo gitRepo) []string {
	return []string{"-C", root, "--no-pager", "--no-optional-locks",
		"--git-dir=" + repo.gitDir, "--work-tree=" + repo.top,
		"-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.DevNull, "-c", "protocol.allow=never"}
}

// gitPlaceVars name another repository, index or object store than the one
// checked, or a program; git gets none of them from fixplan's environment.
var gitPlaceVars = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_COMMON_DIR": true, "GIT_INDEX_FILE": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_NAMESPACE": true,
	"GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true, "GIT_PREFIX": true,
	"GIT_QUARANTINE_PATH": true, "GIT_EXTERNAL_DIFF": true, "GIT_GRAFT_FILE": true, "GIT_SHALLOW_FILE": true,
	"GIT_REPLACE_REF_BASE": true,
}

// gitEnviron is git's environment: the probes' (envprobe.Environ: no credentials,
// no variables naming places inside the root, PATH without project entries;
// GIT_CONFIG_NOSYSTEM and the user's own config variables are kept) without
// gitPlaceVars, with the checked common folder, no terminal prompt, no lazy
// fetch, no optional locks and the C locale (porcelain output is parsed).
func gitEnviron(environ []string, root, path string, repo gitRepo) []string {
	env := envprobe.Environ(environ, root, path, root)
	out := env[:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !gitPlaceVars[strings.ToUpper(name)] {
			out = append(out, kv)
		}
	}
	return append(out, "GIT_COMMON_DIR="+repo.common, "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1",
		"GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}
