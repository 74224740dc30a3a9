package frames

import (
	"context"
	"path"
	"sort"
	"strconv"
	"strings"

	"fixplan/internal/lazyre"
	"fixplan/projfs"
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

// Resolver resolves frames to the files of one project. It indexes the
// listing of the project's files it is given (and reads its go.mod files) on
// first use and keeps them, and finds each failing test's definition once:
// one Resolver serves one operation (a base context), so a later one sees the
// project as it is then. It is not safe for concurrent use.
type Resolver struct {
	files *projfs.Root
	tree  *projfs.Tree
	idx   fileIndex
	// mods are the project's Go modules (read from its go.mod files on first use).
	mods    []goModule
	modsSet bool
	// tests are the definitions of failing tests found so far (TestDefinition).
	tests map[testKey]testDef
}

// NewResolver returns a Resolver of the files tree lists (its listing is
// shared with the operation's other readers: the tree is walked once).
func NewResolver(tree *projfs.Tree) *Resolver { return &Resolver{files: tree.Root(), tree: tree} }

// index returns the file index, built on first use.
func (r *Resolver) index(ctx context.Context) fileIndex {
	if r.idx == nil {
		r.idx = r.listFiles(ctx)
	}
	return r.idx
}

// BestSuffix returns the project file sharing the longest run of trailing path
// components with p, or "" when none shares the base name or the best is a tie.
func (r *Resolver) BestSuffix(ctx context.Context, p string) string {
	return r.index(ctx).bestSuffix(p)
}

// listFiles indexes the project's files (the same files search sees).
func (r *Resolver) listFiles(ctx context.Context) fileIndex {
	idx := fileIndex{}
	for rel, name := range r.tree.Files(ctx) {
		idx[name] = append(idx[name], rel)
	}
	for _, v := range idx {
		sort.Strings(v)
	}
	return idx
}

// goPkgRe finds Go package import paths in `go test`/`go build` output
// ("FAIL\tgithub.com/acme/calc\t0.01s", "ok  \texample.com/x", "# example.com/x").
var goPkgRe = lazyre.New(`(?m)^(?:(?:FAIL|ok)\s+([\w.\-~]+(?:/[\w.\-~]+)+)\s|# ([\w.\-~]+(?:/[\w.\-~]+)+))`)

// Trace parses the frames of text (Parse) and resolves them (Frames). A bare
// file name that several project files share is settled by the Go packages
// the output names (`FAIL\texample.com/x/calc`): the file whose folders best
// match one of them wins.
func (r *Resolver) Trace(ctx context.Context, text string) []ResolvedFrame {
	rs := r.Frames(ctx, Parse(text))
	marks := goPackageMarks(text)
	if len(marks) == 0 {
		return rs
	}
	var pkgs []string
	for _, m := range marks {
		pkgs = append(pkgs, m.pkg)
	}
	for i, rf := range rs {
		if rf.Library || strings.ContainsAny(rf.Path, `/\`) || !strings.HasSuffix(rf.Path, ".go") {
			continue
		}
		// go test prints a test file's name alone, relative to its package's
		// folder: the package of the block the frame is in comes before any
		// file of that name elsewhere (the root's lru_test.go is not
		// simplelru/lru_test.go)
		if pkg := marks.at(frameOffset(text, rf.Frame)); pkg != "" {
			if f := r.goPackageFile(ctx, pkg, rf.Path); f != "" {
				rs[i].File = f
				continue
			}
			if rf.File == "" { // no go.mod maps it: the folders matching the import path
				rs[i].File = r.BestSuffix(ctx, pkg+"/"+rf.Path)
			}
			continue
		}
		if rf.File != "" {
			continue
		}
		idx := r.index(ctx)
		found := ""
		for _, p := range pkgs {
			// the bare name alone ties, so a unique best here matched a folder too
			f := idx.bestSuffix(p + "/" + rf.Path)
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

// goPkgMark is a line of Go tool output that names a package: a `# pkg`
// header (build and vet output follow it) or a `FAIL`/`ok` summary line (the
// package's test output comes before it).
type goPkgMark struct {
	pos    int
	pkg    string
	header bool
}

type goPkgMarks []goPkgMark

func goPackageMarks(text string) goPkgMarks {
	var out goPkgMarks
	for _, m := range goPkgRe.FindAllStringSubmatchIndex(text, -1) {
		if m[2] >= 0 {
			out = append(out, goPkgMark{pos: m[0], pkg: text[m[2]:m[3]]})
		} else {
			out = append(out, goPkgMark{pos: m[0], pkg: text[m[4]:m[5]], header: true})
		}
	}
	return out
}

// at returns the package whose output holds byte pos of the text: the `# pkg`
// header above it when no summary line comes between them, else the first
// FAIL/ok line below it; "" when pos is -1 or no mark applies.
func (ms goPkgMarks) at(pos int) string {
	if pos < 0 {
		return ""
	}
	header := ""
	for _, m := range ms {
		if m.pos <= pos {
			if m.header {
				header = m.pkg
			} else {
				header = ""
			}
			continue
		}
		if header != "" {
			return header
		}
		if !m.header {
			return m.pkg
		}
	}
	return header
}

// frameOffset is where `path:line` of f first appears in text as a whole
// name (not the end of a longer path), -1 when it does not.
func frameOffset(text string, f Frame) int {
	needle := f.Path + ":" + strconv.Itoa(f.Line)
	for off := 0; ; {
		i := strings.Index(text[off:], needle)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(needle)
		if (i == 0 || strings.IndexByte(notPathBytes, text[i-1]) >= 0) && (end == len(text) || !isDigit(text[end])) {
			return i
		}
		off = i + 1
	}
}

// goModule is one go.mod of the project: its module path and folder.
type goModule struct {
	path, dir string
}

// goPackageFile returns the root-relative path of file name in the folder of
// Go package pkg (goPackageDir), "" when no go.mod maps it or the file is not
// there.
func (r *Resolver) goPackageFile(ctx context.Context, pkg, name string) string {
	dir, ok := r.goPackageDir(ctx, pkg)
	if !ok {
		return ""
	}
	f := path.Join(dir, name)
	if !r.files.IsFile(f) {
		return ""
	}
	return f
}

// goPackageDir maps Go import path pkg to its root-relative folder ("" for the
// root) through the go.mod whose module path is the longest prefix of pkg; ok
// is false when no go.mod of the project maps it.
func (r *Resolver) goPackageDir(ctx context.Context, pkg string) (string, bool) {
	if pkg == "" {
		return "", false
	}
	if !r.modsSet {
		r.modsSet = true
		for _, rel := range r.index(ctx)["go.mod"] {
			src, err := r.files.ReadRaw(rel)
			if err != nil {
				continue
			}
			if mod, ok := GoModulePath(src); ok {
				r.mods = append(r.mods, goModule{path: mod, dir: path.Dir(rel)})
			}
		}
	}
	best := -1
	for i, m := range r.mods {
		if (pkg == m.path || strings.HasPrefix(pkg, m.path+"/")) && (best < 0 || len(m.path) > len(r.mods[best].path)) {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	m := r.mods[best]
	dir := path.Join(m.dir, strings.TrimPrefix(pkg[len(m.path):], "/"))
	if dir == "." {
		dir = ""
	}
	if c, err := projfs.CleanRel(dir); dir != "" && (err != nil || c != dir) {
		return "", false // an import path that climbs out
	}
	return dir, true
}

// goModuleRe finds the module path of a go.mod file.
var goModuleRe = lazyre.New(`(?m)^module\s+"?([^\s"]+)"?`)

// GoModulePath returns the module path a go.mod file declares; ok is false
// when it declares none.
func GoModulePath(gomod []byte) (string, bool) {
	if m := goModuleRe.FindSubmatch(gomod); m != nil {
		return string(m[1]), true
	}
	return "", false
}

// Frames resolves each frame to a file of the project: a relative path
// that exists under the root, else the longest path-suffix match among the
// project's files (absolute paths from another machine, Windows paths, bare file
// names, Java classes by package); ties leave the frame unresolved rather than
// guess. Library frames are marked and resolve only when their relative path
// exists under the root (a virtualenv inside the project). The order is kept.
func (r *Resolver) Frames(ctx context.Context, frames []Frame) []ResolvedFrame {
	out := make([]ResolvedFrame, len(frames))
	for i, f := range frames {
		out[i] = ResolvedFrame{Frame: f, Library: isLibraryFrame(f)}
		p := normFramePath(f.Path)
		if p == "" {
			continue
		}
		if !strings.HasPrefix(p, "/") {
			if rel, err := projfs.CleanRel(p); err == nil {
				if real, err := r.files.Resolve(rel); err == nil {
					if st, err := r.files.Stat(real); err == nil && st.Mode().IsRegular() {
						out[i].File = real
						continue
					}
				}
			}
		}
		if out[i].Library { // only a library copy inside the root (e.g. venv/) resolves
			continue
		}
		idx := r.index(ctx)
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
	libPathRe  = lazyre.New(`(?i)(^|/)(site-packages|dist-packages|node_modules|bower_components|\.cargo/registry|\.cargo/git|rustlib|\.rustup|\.m2/repository|\.gradle/caches|pkg/mod|jdk[^/]*|\.nuget/packages|gems)/|^node:|^internal/|^/rustc/|/lib/python\d[^/]*/|^/usr/(local/)?(include|lib)/|(^|/)(go|goroot|libexec)/src/(runtime|testing|reflect|internal|sync|net|os|syscall|fmt|encoding|io|context|crypto|database)/|^<`)
	libClassRe = lazyre.New(`^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|org\.junit|junit|org\.gradle|org\.apache\.maven|org\.springframework|worker\.org\.gradle)\.`)
)

// isLibraryFrame reports whether a frame belongs to a standard library or a dependency.
func isLibraryFrame(f Frame) bool {
	if f.Class != "" && libClassRe.MatchString(f.Class) {
		return true
	}
	return libPathRe.MatchString(strings.ReplaceAll(f.Path, `\`, "/")) ||
		(len(f.Path) > 3 && f.Path[1] == ':' && libPathRe.MatchString(strings.ReplaceAll(f.Path[2:], `\`, "/")))
}
