package codectx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"fixplan/context/envprobe"
	"fixplan/context/section"
	"fixplan/projfs"
)

// recentFiles lists the files changed according to git status (also when the
// root is a folder inside a repository; paths relative to the root), else the
// most recently modified files, after a line saying why git status was skipped
// when fixplan chose not to run it.
func (g *Gatherer) recentFiles(ctx context.Context) string {
	status, note := g.gitStatus(ctx)
	if status != "" {
		return status
	}
	return note + g.modifiedFiles(ctx)
}

// modifiedFiles lists the most recently modified files of the root.
func (g *Gatherer) modifiedFiles(ctx context.Context) string {
	type fm struct {
		rel string
		t   time.Time
	}
	var (
		mu    sync.Mutex
		files []fm
	)
	_ = g.files.Walk(ctx, func(dir projfs.Dir, rel, name string) {
		if t, ok := dir.ModTime(name); ok {
			mu.Lock()
			files = append(files, fm{rel, t})
			mu.Unlock()
		}
	})
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

// maxGitOutput bounds the output of git status that is read.
const maxGitOutput = 1 << 20

// gitStatus runs `git status --porcelain` limited to the root, on the repository
// findGitRepo found, and only when the repository's own config names no program
// (git obeys that config: core.fsmonitor runs on every status, a filter's clean
// command on racily-clean files, ...). status is "" when git is missing, there
// is no repository, git fails or times out, or git was not run; note then says
// why git was not run when that was fixplan's choice.
func (g *Gatherer) gitStatus(ctx context.Context) (status, note string) {
	git, err := g.lookPath("git")
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
	lines, _ := lastLines(out, 1<<30)
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
	case len(lines) > maxRecentFiles && cut:
		lines = append(lines[:maxRecentFiles], "…[more]")
	case len(lines) > maxRecentFiles:
		lines = append(lines[:maxRecentFiles], fmt.Sprintf("…[%d more]", len(lines)-maxRecentFiles))
	case cut:
		lines = append(lines, "…[more]")
	}
	return "git status --porcelain:\n" + strings.Join(lines, "\n") + "\n", ""
}

// gitRefusal is the warning shown when the project's own .git leads out of the
// project (findGitRepo's untrusted), or "".
func (g *Gatherer) gitRefusal() string {
	repo, ok := g.gitRepo()
	if !ok || repo.untrusted == "" {
		return ""
	}
	if strings.HasPrefix(repo.untrusted, "its git folder") {
		return "git sections left out: " + repo.untrusted + ". fixplan reads no objects or refs from outside the repository; to see its changes, copy the objects in (git repack -a -d) and remove objects/info/alternates, or replace the link with the folder it names"
	}
	return "git sections left out: " + repo.untrusted + ". fixplan reads no repository outside the project; open the repository's main folder to see its changes"
}

// runGit runs git on repo with args and the guards of gitArgs and gitEnviron,
// bounded by ToolTimeout, and returns its output (at most maxGitOutput bytes;
// cut is set when there was more).
func (g *Gatherer) runGit(ctx context.Context, git string, repo gitRepo, args ...string) (out string, cut bool, err error) {
	return g.runGitInput(ctx, git, repo, "", args...)
}

// runGitInput is runGit with stdin (for `cat-file --batch`).
func (g *Gatherer) runGitInput(ctx context.Context, git string, repo gitRepo, stdin string, args ...string) (out string, cut bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, g.opts.ToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, append(gitArgs(g.root, repo), args...)...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	cmd.Dir = g.root
	cmd.Env = gitEnviron(os.Environ(), g.root, g.env.PATH(), repo)
	cmd.WaitDelay = g.opts.ToolTimeout
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
