package gitrepo

import (
	"sync"
	"time"
)

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
