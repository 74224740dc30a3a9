package projfs

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fixplan/plan"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// DefaultExcludes returns the folder names never walked (search, file index,
// recent files): VCS data, dependencies, build output, caches and fixplan's own
// folder.
func DefaultExcludes() []string {
	return []string{
		".git", ".hg", ".svn", "node_modules", "vendor", "dist", "build", "target", "__pycache__",
		".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".gradle", ".idea",
		".next", ".nuxt", ".cache", ".terraform", "bower_components", ".fixplan",
	}
}

// dirent is one directory entry: its name and whether it is a directory or a
// regular file (anything else is never followed or read).
type dirent struct {
	name string
	dir  bool
	file bool
}

// Dir is an open directory the walker lists and reads files from. Opening a
// child goes one path component at a time without following symlinks, so a walk
// never leaves the root even if the tree changes meanwhile.
type Dir interface {
	// ReadFile reads the regular file name into *bp (grown when needed); false
	// when it cannot be read, exceeds limit bytes or may not be read for the
	// model (a file with more than one hard link that git does not track, as
	// Open decides). It never follows a symlink.
	ReadFile(name string, bp *[]byte, limit int64) ([]byte, bool)
	// ModTime is the modification time of the file name (a visited file); false
	// when it cannot be asked.
	ModTime(name string) (time.Time, bool)
	// read is ReadFile without the hard-link decision: it also returns the
	// file's number of hard links (seen on the open descriptor).
	read(name string, bp *[]byte, limit int64) ([]byte, uint64, bool)
	list() ([]dirent, error)
	sub(name string) (Dir, error)
	// subPath opens the folder rel (slash-separated, below this one) without
	// following a symlink on the way.
	subPath(rel string) (Dir, error)
	close()
}

// subPathByComponent opens the folder rel below d one component at a time
// (sub: never through a symlink).
func subPathByComponent(d Dir, rel string) (Dir, error) {
	cur := d
	for c := range strings.SplitSeq(rel, "/") {
		next, err := cur.sub(c)
		if cur != d {
			cur.close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// walkDir is one directory to list: its root-relative path ("" for the root),
// its parent (open until all its queued children are opened) and the .gitignore
// patterns in force.
type walkDir struct {
	rel      string
	name     string
	parent   *sharedDir
	patterns []ignorePattern
}

// sharedDir is a directory handle shared by its queued children.
type sharedDir struct {
	h    Dir
	refs atomic.Int32
}

func (s *sharedDir) release() {
	if s.refs.Add(-1) == 0 {
		s.h.close()
	}
}

// VisitFunc is called for every regular file that is not excluded, ignored or
// (unless allowed) secret; dir is its folder, name its base name. It runs on
// several goroutines at once.
type VisitFunc func(dir Dir, rel, name string)

// Walk visits every regular file of the root in parallel, skipping DefaultExcludes,
// files ignored by .gitignore files (nested ones too), symlinks and (unless
// allowed) secret files. It stops early when ctx is done.
func (r *Root) Walk(ctx context.Context, visit VisitFunc) error {
	return r.walk(ctx, func(dir Dir, rel string, names []string) {
		for _, n := range names {
			visit(dir, joinRel(rel, n), n)
		}
	})
}

// Walks is how many times the tree has been walked (Walk, Search, a Tree's
// listing) through r: tests count the walks of one operation.
func (r *Root) Walks() int64 { return r.walks.Load() }

// joinRel is the root-relative path of name in the folder rel ("" for the root).
func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// dirFunc is given each listed folder (rel, "" for the root) with the names of
// its regular files that are not excluded, ignored or (unless allowed) secret,
// and the folder opened (with Open's hard-link decision). It runs on several
// goroutines at once; dir is open only during the call.
type dirFunc func(dir Dir, rel string, names []string)

// walk lists every folder of the root in parallel (Walk's rules) and gives
// each one's files to visit.
func (r *Root) walk(ctx context.Context, visit dirFunc) error {
	r.walks.Add(1)
	top, err := r.openTop(r.dir)
	if err != nil {
		return fmt.Errorf("open root: %w", err)
	}
	excl := map[string]bool{}
	for _, e := range DefaultExcludes() {
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
			var h Dir
			switch {
			case d.parent == nil:
				h = top
			case ctx.Err() == nil:
				h, _ = d.parent.h.sub(d.name)
				d.parent.release()
			default: // cancelled: drain the queue without opening anything
				d.parent.release()
			}
			if h != nil && ctx.Err() == nil {
				subs = r.listDir(h, d, excl, visit)
			} else if h != nil {
				h.close()
			}
			mu.Lock()
			queue = append(queue, subs...)
			pending += len(subs) - 1
			if len(subs) > 0 || pending == 0 {
				cond.Broadcast()
			}
			mu.Unlock()
		}
	}
	n := max(runtime.GOMAXPROCS(0), 2)
	var wg sync.WaitGroup
	for range n {
		wg.Go(worker)
	}
	wg.Wait()
	return ctx.Err()
}

// listDir lists one directory, visits its files and returns its subdirectories,
// which keep h open until they are opened themselves.
func (r *Root) listDir(h Dir, d walkDir, excl map[string]bool, visit dirFunc) []walkDir {
	ents, err := h.list()
	if err != nil && len(ents) == 0 {
		h.close()
		return nil
	}
	patterns := d.patterns
	for _, e := range ents {
		if e.name == ".gitignore" && e.file {
			patterns = appendIgnore(h, d.rel, patterns)
			break
		}
	}
	var subs []walkDir
	var names []string
	var comps []string
	if d.rel != "" {
		comps = strings.Split(d.rel, "/")
	}
	// which patterns a component of the folder's path may match (the quick
	// test); the others can match an entry only by its own name
	anc := make([]bool, len(patterns))
	for i, q := range patterns {
		anc[i] = !q.quick || slices.ContainsFunc(comps, q.nameMay)
	}
	shared := &sharedDir{h: h}
	shared.refs.Store(1)
	for _, e := range ents {
		n := e.name
		switch {
		case e.dir:
			if excl[n] || plan.InProtectedFolder(n) || ignored(patterns, anc, comps, n, true) {
				continue
			}
			subs = append(subs, walkDir{rel: joinRel(d.rel, n), name: n, parent: shared, patterns: patterns})
		case e.file:
			if ignored(patterns, anc, comps, n, false) {
				continue
			}
			if !r.opts.AllowSecrets && IsSecretPath(joinRel(d.rel, n)) {
				continue
			}
			names = append(names, n)
		}
	}
	if len(names) > 0 {
		visit(guardedDir{Dir: h, r: r, rel: d.rel}, d.rel, names)
	}
	shared.refs.Add(int32(len(subs)))
	shared.release()
	return subs
}

// ignorePattern is one line of a .gitignore: its pattern and, when the line
// is one name without wildcards or with only a leading * (node_modules/,
// *.log: most lines), the quick test of the path components it can match —
// far cheaper than Match, which tries the glob on every component of every
// path.
type ignorePattern struct {
	p      gitignore.Pattern
	quick  bool   // name (and suffix) say which components it can match
	name   string // the component itself, or (suffix) its end
	suffix bool
}

// nameMay reports whether the pattern of a quick test can match component c.
func (q ignorePattern) nameMay(c string) bool {
	if q.suffix {
		return strings.HasSuffix(c, q.name)
	}
	return c == q.name
}

// newIgnorePattern parses one .gitignore line (gitignore.ParsePattern) and
// works out its quick test from the same text the parser matches with.
func newIgnorePattern(line string, domain []string) ignorePattern {
	q := ignorePattern{p: gitignore.ParsePattern(line, domain)}
	p := strings.TrimPrefix(line, "!")
	if !strings.HasSuffix(p, "\\ ") {
		p = strings.TrimRight(p, " ")
	}
	p = strings.TrimSuffix(p, "/")
	switch {
	case strings.Contains(p, "/"): // matched against the path as a whole
	case !strings.ContainsAny(p, "*?[\\"):
		q.quick, q.name = true, p
	case p[0] == '*' && !strings.ContainsAny(p[1:], "*?[\\"):
		q.quick, q.name, q.suffix = true, p[1:], true
	}
	return q
}

// appendIgnore reads dir's .gitignore and appends its patterns (domain = rel).
func appendIgnore(dir Dir, rel string, ps []ignorePattern) []ignorePattern {
	var buf []byte
	data, ok := dir.ReadFile(".gitignore", &buf, 1<<20)
	if !ok {
		return ps
	}
	var domain []string
	if rel != "" {
		domain = strings.Split(rel, "/")
	}
	out := append([]ignorePattern(nil), ps...)
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, newIgnorePattern(line, domain))
	}
	return out
}

// ignored applies the patterns to the entry name of the folder whose path is
// comps, last to first: the last one that matches decides. anc says which
// patterns a component of comps may match (ignorePattern's quick test); a
// quick pattern that neither they nor name may match is not tried.
func ignored(ps []ignorePattern, anc []bool, comps []string, name string, isDir bool) bool {
	for i := len(ps) - 1; i >= 0; i-- {
		q := ps[i]
		if !anc[i] && !q.nameMay(name) {
			continue
		}
		switch q.p.Match(append(comps[:len(comps):len(comps)], name), isDir) {
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
	if !ValidGlob(glob) {
		return nil, Refuse(plan.ErrInvalidInput, "invalid glob %q", glob)
	}
	if !strings.Contains(glob, "/") {
		return func(_, name string) bool { return MatchGlob(glob, name) }, nil
	}
	return func(rel, _ string) bool { return MatchGlob(glob, rel) }, nil
}

// ValidGlob reports whether g is a valid doublestar glob.
func ValidGlob(g string) bool { return doublestar.ValidatePattern(g) }

// MatchGlob reports whether the doublestar glob g matches the slash path s.
func MatchGlob(g, s string) bool { ok, _ := doublestar.Match(g, s); return ok }

// guardedDir is the Dir a VisitFunc gets: its ReadFile makes Open's hard-link
// decision (CheckLinks), so a search or a definition lookup reads, matches and
// counts nothing in a file read_file refuses.
type guardedDir struct {
	Dir
	r   *Root
	rel string // the folder's root-relative path ("" for the root)
}

func (g guardedDir) ReadFile(name string, bp *[]byte, limit int64) ([]byte, bool) {
	data, links, ok := g.Dir.read(name, bp, limit)
	if !ok || links <= 1 {
		return data, ok
	}
	rel := joinRel(g.rel, name)
	if g.r.opts.Tracked == nil {
		return nil, false
	}
	if tracked, _ := g.r.opts.Tracked(rel); !tracked {
		return nil, false
	}
	return data, true
}
