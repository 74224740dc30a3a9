package codectx

import (
	"context"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// ResolvedFrame is a frame with the project file it points to.
type ResolvedFrame struct {
	Frame
	// File is the root-relative path of the frame's file, "" when it is not in the
	// project (library frames, files of another project, ambiguous names).
	File string `json:"file"`
	// Library marks standard-library and dependency frames (site-packages,
	// node_modules, node: internals, GOROOT, the module cache, rustlib, the JDK).
	Library bool `json:"library"`
}

// fileIndex maps base names to the root-relative paths of the project's files.
type fileIndex map[string][]string

// lazyIndex builds the file index on first use and keeps it for one operation.
type lazyIndex struct {
	g   *Gatherer
	idx fileIndex
}

func (l *lazyIndex) get(ctx context.Context) fileIndex {
	if l.idx == nil {
		l.idx = l.g.index(ctx)
	}
	return l.idx
}

// index lists the project's files (the same files search sees).
func (g *Gatherer) index(ctx context.Context) fileIndex {
	var mu sync.Mutex
	idx := fileIndex{}
	_ = g.walk(ctx, func(_ dirHandle, rel, name string) {
		mu.Lock()
		idx[name] = append(idx[name], rel)
		mu.Unlock()
	})
	for _, v := range idx {
		sort.Strings(v)
	}
	return idx
}

// goPkgRe finds Go package import paths in `go test`/`go build` output
// ("FAIL\tgithub.com/acme/calc\t0.01s", "ok  \texample.com/x", "# example.com/x").
var goPkgRe = regexp.MustCompile(`(?m)^(?:(?:FAIL|ok)\s+([\w.\-~]+(?:/[\w.\-~]+)+)\s|# ([\w.\-~]+(?:/[\w.\-~]+)+))`)

// ResolveTrace parses the frames of text (ParseFrames) and resolves them
// (ResolveFrames). A bare file name that several project files share is settled
// by the Go packages the output names (`FAIL\texample.com/x/calc`): the file
// whose folders best match one of them wins.
func (g *Gatherer) ResolveTrace(ctx context.Context, text string) []ResolvedFrame {
	return g.resolveTrace(ctx, text, &lazyIndex{g: g})
}

func (g *Gatherer) resolveTrace(ctx context.Context, text string, li *lazyIndex) []ResolvedFrame {
	rs := g.resolveFrames(ctx, ParseFrames(text), li)
	var pkgs []string
	for _, m := range goPkgRe.FindAllStringSubmatch(text, -1) {
		pkgs = append(pkgs, m[1]+m[2])
	}
	if len(pkgs) == 0 {
		return rs
	}
	for i, r := range rs {
		if r.File != "" || r.Library || strings.ContainsAny(r.Path, `/\`) || !strings.HasSuffix(r.Path, ".go") {
			continue
		}
		idx := li.get(ctx)
		found := ""
		for _, p := range pkgs {
			// the bare name alone ties, so a unique best here matched a folder too
			f := idx.bestSuffix(p + "/" + r.Path)
			if f == "" || f == found {
				continue
			}
			if found != "" { // two packages point at different files
				found = ""
				break
			}
			found = f
		}
		rs[i].File = found
	}
	return rs
}

// ResolveFrames resolves each frame to a file of the project: a relative path
// that exists under the root, else the longest path-suffix match among the
// project's files (absolute paths from another machine, Windows paths, bare file
// names, Java classes by package); ties leave the frame unresolved rather than
// guess. Library frames are marked and resolve only when their relative path
// exists under the root (a virtualenv inside the project). The order is kept.
func (g *Gatherer) ResolveFrames(ctx context.Context, frames []Frame) []ResolvedFrame {
	return g.resolveFrames(ctx, frames, &lazyIndex{g: g})
}

func (g *Gatherer) resolveFrames(ctx context.Context, frames []Frame, li *lazyIndex) []ResolvedFrame {
	out := make([]ResolvedFrame, len(frames))
	for i, f := range frames {
		out[i] = ResolvedFrame{Frame: f, Library: isLibraryFrame(f)}
		p := normFramePath(f.Path)
		if p == "" {
			continue
		}
		if !strings.HasPrefix(p, "/") {
			if rel, err := CleanRel(p); err == nil {
				if r, err := g.resolve(rel); err == nil {
					if st, err := g.fsys.Stat(r); err == nil && st.Mode().IsRegular() {
						out[i].File = r
						continue
					}
				}
			}
		}
		if out[i].Library { // only a library copy inside the root (e.g. venv/) resolves
			continue
		}
		idx := li.get(ctx)
		if f.Class != "" {
			if j := strings.LastIndexByte(f.Class, '.'); j > 0 {
				p = strings.ReplaceAll(f.Class[:j], ".", "/") + "/" + path.Base(p)
			}
		}
		out[i].File = idx.bestSuffix(p)
	}
	return out
}

// bestSuffix returns the file sharing the longest run of trailing path components
// with p, or "" when none shares the base name or the best is a tie.
func (idx fileIndex) bestSuffix(p string) string {
	comps := strings.Split(strings.Trim(p, "/"), "/")
	cands := idx[comps[len(comps)-1]]
	best, bestN, tie := "", 0, false
	for _, c := range cands {
		cc := strings.Split(c, "/")
		n := 0
		for n < len(cc) && n < len(comps) && cc[len(cc)-1-n] == comps[len(comps)-1-n] {
			n++
		}
		switch {
		case n > bestN:
			best, bestN, tie = c, n, false
		case n == bestN:
			tie = true
		}
	}
	if tie || bestN == 0 {
		return ""
	}
	return best
}

// normFramePath turns a frame path into a slash path: backslashes become slashes,
// drive letters and leading ./ are dropped (an absolute path keeps its leading /).
func normFramePath(p string) string {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = "/" + strings.TrimLeft(p[2:], "/")
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

var (
	libPathRe  = regexp.MustCompile(`(?i)(^|/)(site-packages|dist-packages|node_modules|bower_components|\.cargo/registry|\.cargo/git|rustlib|\.rustup|\.m2/repository|\.gradle/caches|pkg/mod|jdk[^/]*|\.nuget/packages|gems)/|^node:|^internal/|^/rustc/|/lib/python\d[^/]*/|^/usr/(local/)?(include|lib)/|(^|/)(go|goroot|libexec)/src/(runtime|testing|reflect|internal|sync|net|os|syscall|fmt|encoding|io|context|crypto|database)/|^<`)
	libClassRe = regexp.MustCompile(`^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|org\.junit|junit|org\.gradle|org\.apache\.maven|org\.springframework|worker\.org\.gradle)\.`)
)

// isLibraryFrame reports whether a frame belongs to a standard library or a dependency.
func isLibraryFrame(f Frame) bool {
	if f.Class != "" && libClassRe.MatchString(f.Class) {
		return true
	}
	return libPathRe.MatchString(strings.ReplaceAll(f.Path, `\`, "/")) ||
		(len(f.Path) > 3 && f.Path[1] == ':' && libPathRe.MatchString(strings.ReplaceAll(f.Path[2:], `\`, "/")))
}
