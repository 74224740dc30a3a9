package codectx

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// DefaultExcludes are the folder names never walked (search, file index, recent
// files): VCS data, dependencies, build output, caches and fixplan's own folder.
var DefaultExcludes = []string{
	".git", ".hg", ".svn", "node_modules", "vendor", "dist", "build", "target", "__pycache__",
	".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".gradle", ".idea",
	".next", ".nuxt", ".cache", ".terraform", "bower_components", ".fixplan",
}

// walkDir is one directory to list: its root-relative path ("" for the root), a
// handle confined to it, and the .gitignore patterns in force.
type walkDir struct {
	rel      string
	patterns []gitignore.Pattern
}

// visitFunc is called for every regular file that is not excluded, ignored or
// (unless allowed) secret; dir is a handle on its folder, name its base name.
// It runs on several goroutines at once.
type visitFunc func(dir *os.Root, rel, name string)

// walk visits every regular file of the root in parallel, skipping DefaultExcludes,
// files ignored by .gitignore files (nested ones too), symlinks and secret files.
// It stops early when ctx is done.
func (g *Gatherer) walk(ctx context.Context, visit visitFunc) error {
	excl := make(map[string]bool, len(DefaultExcludes))
	for _, e := range DefaultExcludes {
		excl[e] = true
	}
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		queue   = []walkDir{{rel: ""}}
		pending = 1 // directories queued or being listed
	)
	worker := func() {
		for {
			mu.Lock()
			for len(queue) == 0 && pending > 0 {
				cond.Wait()
			}
			if pending == 0 {
				mu.Unlock()
				return
			}
			d := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			mu.Unlock()

			var subs []walkDir
			if ctx.Err() == nil {
				subs = g.listDir(d, excl, visit)
			}
			mu.Lock()
			queue = append(queue, subs...)
			pending += len(subs) - 1
			cond.Broadcast()
			mu.Unlock()
		}
	}
	n := runtime.GOMAXPROCS(0) * 2
	if n < 4 {
		n = 4
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(worker)
	}
	wg.Wait()
	return ctx.Err()
}

// listDir lists one directory, visits its files and returns its subdirectories.
func (g *Gatherer) listDir(d walkDir, excl map[string]bool, visit visitFunc) []walkDir {
	name := d.rel
	if name == "" {
		name = "."
	}
	dir, err := g.fsys.OpenRoot(name)
	if err != nil {
		return nil
	}
	defer dir.Close()
	f, err := dir.Open(".")
	if err != nil {
		return nil
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil && len(ents) == 0 {
		return nil
	}
	patterns := d.patterns
	for _, e := range ents {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			patterns = appendIgnore(dir, d.rel, patterns)
			break
		}
	}
	var subs []walkDir
	var comps []string
	if d.rel != "" {
		comps = strings.Split(d.rel, "/")
	}
	for _, e := range ents {
		n := e.Name()
		t := e.Type()
		rel := n
		if d.rel != "" {
			rel = d.rel + "/" + n
		}
		switch {
		case t.IsDir():
			if excl[n] || (len(patterns) > 0 && ignored(patterns, append(comps, n), true)) {
				continue
			}
			subs = append(subs, walkDir{rel: rel, patterns: patterns})
		case t.IsRegular():
			if len(patterns) > 0 && ignored(patterns, append(comps, n), false) {
				continue
			}
			if !g.opts.AllowSecrets && IsSecretPath(rel) {
				continue
			}
			visit(dir, rel, n)
		}
		// symlinks, devices, sockets: never followed or read
	}
	return subs
}

// appendIgnore reads dir's .gitignore and appends its patterns (domain = rel).
func appendIgnore(dir *os.Root, rel string, ps []gitignore.Pattern) []gitignore.Pattern {
	f, err := dir.Open(".gitignore")
	if err != nil {
		return ps
	}
	defer f.Close()
	var domain []string
	if rel != "" {
		domain = strings.Split(rel, "/")
	}
	out := append([]gitignore.Pattern(nil), ps...)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// ignored applies the patterns last to first: the last one that matches decides.
func ignored(ps []gitignore.Pattern, p []string, isDir bool) bool {
	for i := len(ps) - 1; i >= 0; i-- {
		switch ps[i].Match(p, isDir) {
		case gitignore.Exclude:
			return true
		case gitignore.Include:
			return false
		}
	}
	return false
}

// globMatcher returns a matcher for a doublestar glob. A glob without a slash
// matches the base name at any depth (`*.py` finds every Python file), like
// .gitignore and ripgrep; an empty glob matches everything.
func globMatcher(glob string) (func(rel, name string) bool, error) {
	glob = strings.TrimPrefix(strings.ReplaceAll(glob, `\`, "/"), "./")
	if glob == "" || glob == "**" || glob == "**/*" {
		return func(string, string) bool { return true }, nil
	}
	if !validGlob(glob) {
		return nil, refusal("invalid glob %q", glob)
	}
	if !strings.Contains(glob, "/") {
		return func(_, name string) bool { return matchDS(glob, name) }, nil
	}
	return func(rel, _ string) bool { return matchDS(glob, rel) }, nil
}

func validGlob(g string) bool { return doublestar.ValidatePattern(g) }

func matchDS(g, s string) bool { ok, _ := doublestar.Match(g, s); return ok }
