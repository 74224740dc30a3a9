// Package defs finds the definitions of what the failing lines use (a light
// repository map) and shows them as sections of the base context (Sections).
//
// For every failure point — a stack frame resolved to a project file, or the
// failing test when no frame resolved — the function around the point is read
// and the names it uses are looked up, nearest first:
//
//	tier 0: the same file
//	tier 1: the same package (Go) or folder (Python, TypeScript/JavaScript)
//	tier 2: the files the point's file imports from the project
//	tier 3: the whole project (one bounded walk; not for Go, whose names are
//	        always in the package or an import)
//
// The definitions that write a message the failure shows or its test expects
// (msg.go) rank with tier 1. Within a tier, a name used closer to the
// failing line comes first. Then up to
// maxHops more hops: the names the nearest maxParents definitions of the hop
// before use themselves, looked up in their file, folder and imports, ranked
// after all of the hop before (a test calls a helper, the helper calls F, F
// calls the broken G) — but right after the definition that uses it when it
// is in a file a section before cuts at the cap (chain.go), and the calls
// that make the value the failing lines check (what Diff returns: the
// String it returns, the FormatDiff that builds it) rank right after that
// value's path so far and are expanded first (flow.go). Each
// definition's span (the function, method, type or class, at most maxDefLines of its lines, long.go)
// becomes one section, unless the base context already shows it; together they
// stay within MaxResultBytes (one section's budget), and those that do not fit
// are left out in rank order with a warning. Go is read with go/parser and,
// where that works, resolved by type with go/types (gotypes.go: other imports
// are opaque stand-ins, nothing is run); a long definition shows its head and
// the lines that matter (long.go), and the builders of a value the failing
// lines format are shown with it (producer.go). Python and TypeScript/JavaScript use the documented
// line heuristics of py.go and ts.go. Every file is read through the
// confined projfs.Root.Open (no link leads out of the project, secret files are
// refused) and shown through ReadText, redacted whole before it is cut.
package defs

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/bits"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"fixplan/context/frames"
	"fixplan/context/section"
	"fixplan/internal/lazyre"
	"fixplan/plan"
	"fixplan/projfs"
)

const (
	maxDefPoints      = 6    // failure points whose names are looked up
	maxDefLines       = 100  // lines shown of one definition, unless it is shown whole (maxWholeLong)
	testShare         = 4    // the failing tests' own definitions get a 1/testShare of the definitions' room in rank order, the rest after the code under test
	maxTestParentUses = 6    // uses of one test-file definition ranked in its hop (a table of cases uses dozens)
	maxWholeLong      = 2    // definitions over maxDefLines lines shown whole when they fit in half the room left
	maxDefsPerName    = 2    // definitions shown for one name (methods share names)
	maxWideNames      = 16   // names looked up project-wide
	maxDirFiles       = 200  // files of one folder or package read
	maxUseSpan        = 150  // lines of the enclosing function scanned for names
	maxHops           = 8    // hops beyond the failing lines' own names (each ranks after the one before: deep ones only fill the room left)
	maxParents        = 24   // nearest definitions of one hop whose own uses are looked up
	hopTier           = 10   // a hop's hits rank after every tier of the hop before
	maxTestData       = 10   // lines above which a test file's variable (a table of cases) is not shown
	testPointDist     = 1000 // a failing test's uses rank after the frames' uses of the same tier
	nameOnlyTier      = 4    // added to the tier of a method found by name only where the types are known (after every typed hit of the hop)
)

// lineRange is an inclusive 1-based range of lines of a definition's file.
type lineRange struct{ from, to int }

// defPoint is a place in the project where the failure shows.
type defPoint struct {
	file string
	line int
}

// defUse is a name used near a failure point: name alone (f(), T{}) or after a
// qualifier (pkg.F, obj.method, ns.f).
type defUse struct {
	name, qual string
	dist       int  // lines from the failure point
	call       bool // called, constructed or capitalised: worth a project-wide search
	point      int  // index of the failure point
	// Go, type-checked (gotypes.go): typed says what the use refers to is
	// known — targets are its project definitions (none for another
	// package's); typedFile says the file was type-checked (an untyped
	// member use then ranks after the typed ones, nameOnlyTier)
	typed, typedFile bool
	targets          []goTarget
	// Python and TS/JS (recv.go): prev is the name before qual in a chain
	// (self.a.m: prev self, qual a); recv is the class qual is known to be
	// (self/this, a variable made by a constructor or annotated with a class,
	// an attribute so assigned or declared), "" when unknown
	prev, recv string
}

// defSpan is one definition in a file.
type defSpan struct {
	name     string
	from, to int  // 1-based, inclusive
	member   bool // a method (Go receiver, indented def, class member)
	dflt     bool // TS/JS export default
	data     bool // a variable or constant (not a function or type)
	// a Python or TS/JS class (recv.go): its base classes as written,
	// comma-separated (B,mod.C), and the last line of its body, however long
	// (to is capped)
	class bool
	bases string
	end   int
}

// defImport is one name a file imports from project files: local is the name
// used in the file, orig the name in the imported file. module marks a
// namespace (pkg.F, mod.f, ns.f) whose members are in files.
type defImport struct {
	local, orig string
	module      bool
	files       []string
}

// defLang is what one language contributes.
type defLang interface {
	// uses returns the span of the function around line and the names used in
	// it, with their distance from line; of a function longer than 2*around
	// lines, only the part within around lines of line.
	uses(f *defFile, line, around int) (lineRange, []defUse)
	// defs returns the definitions of a file.
	defs(f *defFile) []defSpan
	// imports returns what file imports from the project's files.
	imports(proj *projfs.Root, file string, src []byte) []defImport
	// folder returns the files of file's package or folder (file excluded).
	folder(proj *projfs.Root, file string) []string
	// wide returns the pattern of a definition line of one of names (the name is
	// its first group) and the extensions of files to search; nil when the
	// language needs no project-wide search.
	wide(names []string) (*regexp.Regexp, []string)
	// builtin reports names never looked up project-wide (keywords, builtins).
	builtin(name string) bool
}

// langFor returns the language of a file, nil when definitions are not looked
// up for it.
func langFor(file string) defLang {
	switch path.Ext(file) {
	case ".go":
		return goLang{}
	case ".py":
		return pyLang{}
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs":
		return tsLang{}
	}
	return nil
}

// defFile is a project file read for definitions (raw bytes: spans are found on
// them, the redacted text is read only for what is shown).
type defFile struct {
	src   []byte
	lines []string
	defs  []defSpan
	ok    bool
	// parsed is what the language keeps of the file between calls (Go: the
	// syntax tree, with function bodies only in the packages in play,
	// gotypes.go's goSyntax; TS/JS and Python: what the line scans need, ts.go's
	// tsLines and py.go's pyLines).
	parsed any
	// skip are the lines whose uses are not read: the cases of a Go test
	// table the failure does not name (testtables.go); nil until set
	skip []lineRange
	// byName are the indexes in defs of each name's definitions (defAt),
	// made when first asked
	byName map[string]namedDefs
}

// defHit is a definition found for a use, with its rank.
type defHit struct {
	file       string
	span       defSpan
	tier, dist int
	point      int
	usedAt     defPoint
	pathDist   int
	via        string // the definition that uses it (second hop), "" for the failing lines
	msg        string // the message fragment it holds (msg.go), "" for a name's definition
	loose      bool   // found by name only where types are known, or one of many implementations of an interface
	spare      bool   // one of many implementations when the code read builds others (goimpl.go): after every hop
	builds     string // the type whose value it builds for a formatter the failing lines use (producer.go)
	generates  string // the generated file (and a name it defines) it writes (generated.go)
	later      bool   // ranked after every hop: behind an option the failing lines do not set, constructed into a registry, … (hopnotes.go)
	flow       int    // on the path of the value the failing lines check: 1 for a definition they use, n for one n-1 calls below it (flow.go); 0 off it
	flowRound  int    // how directly its result makes its parent's return values (0: called in a return statement)
	flowAt     int    // the line of its parent that calls it
}

// defFinder holds one Sections call's reads.
type defFinder struct {
	proj    *projfs.Root
	tree    *projfs.Tree // the listing the message and name searches read
	req     Request
	files   map[string]*defFile
	imports map[string][]defImport
	folders map[string][]string
	// the read bounds of limits.go: bytes read, files left out
	readBytes          int64
	tooBig, overBudget []string
	hopBytes           int64                // bytes of the definitions' lines the hops read the uses of
	hopUnread          []string             // definitions past the hops' budget
	gt                 *goTyped             // Go type information (gotypes.go)
	texts              map[string]shownText // the files sections are cut from, read once
	inPlay             map[string]bool      // Go folders whose files keep their function bodies (gotypes.go)
	pointNames         map[string]bool      // the names the failing lines use (long.go: the lines of a long type that matter)
	cases              *caseState           // the failing cases of Go test tables (testtables.go)
	failText           *string              // the failure's text and its tests' lines (funcvalues.go)
	writes             map[goTarget]bool    // whether a definition writes the failure's text (gocache.go)
	failHas            func(string) bool    // whether the failure's text holds a string (gocache.go)
}

// context returns what file imports from the project and the other files of its
// package or folder (read once per Base call).
func (d *defFinder) context(lang defLang, file string, src []byte) ([]defImport, []string) {
	imps, ok := d.imports[file]
	if !ok {
		imps = lang.imports(d.proj, file, src)
		d.imports[file] = imps
	}
	folder, ok := d.folders[file]
	if !ok {
		folder = lang.folder(d.proj, file)
		d.folders[file] = folder
	}
	return imps, folder
}

func (d *defFinder) file(rel string, lang defLang) *defFile {
	if f, ok := d.files[rel]; ok {
		return f
	}
	f := &defFile{}
	d.files[rel] = f
	src, err := d.readDef(rel)
	if err != nil {
		return f
	}
	f.src, f.lines, f.ok = src, projfs.SplitLines(src), true
	if _, ok := lang.(goLang); ok {
		f.parsed = d.goSyntax(rel, src)
	}
	f.defs = lang.defs(f)
	return f
}

// listFolder lists the regular files of dir (root-relative, "" for the root)
// whose extension is one of exts, sorted, at most maxDirFiles. The folder is
// opened through os.Root, so a linked folder outside the project is not listed.
func listFolder(proj *projfs.Root, dir string, exts []string) []string {
	name := dir
	if name == "" {
		name = "."
	} else if c, err := projfs.CleanRel(dir); err != nil || c != dir {
		return nil // an import path that climbs out (example.com/m/../../x)
	}
	if projfs.IsProtected(dir) {
		return nil
	}
	ents, err := proj.ReadDir(name, -1)
	if err != nil && len(ents) == 0 {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.Type().IsRegular() || !slices.Contains(exts, path.Ext(e.Name())) {
			continue
		}
		out = append(out, path.Join(dir, e.Name()))
	}
	slices.Sort(out)
	if len(out) > maxDirFiles {
		out = out[:maxDirFiles]
	}
	return out
}

// Request is what the definitions are looked up for, and their budget.
type Request struct {
	// Frames are the places of the failing frames in the project files, in
	// order (frames.Resolver.Points); those of a language definitions are read
	// for are used, at most maxDefPoints.
	Frames []frames.Location
	// Tests are the failing tests' definitions: a failing test's line may be
	// far from the frames (a helper's t.Errorf, an assertion library). What
	// they use ranks after what the frames' lines use.
	Tests []frames.Location
	// Text is the failure output (the problem and its logs): the strings it
	// quotes are looked for in the project's code (msg.go).
	Text string
	// Have are the sections shown before the definitions: a definition whose
	// lines they show is skipped, and their size counts against
	// MaxTotalBytes.
	Have []section.Candidate
	// MaxResultBytes caps one section; the definitions together get as much,
	// and up to twice that when MaxTotalBytes leaves that much after Have and
	// one more section.
	MaxResultBytes int
	// MaxTotalBytes caps the whole base context.
	MaxTotalBytes int
	// Tree is the listing of the project's files the message and name
	// searches read (the gather's, shared with its other readers); nil: a
	// listing of its own.
	Tree *projfs.Tree
}

// Sections returns the definitions the failure points of req use, ranked,
// one section each, deduplicated with what req.Have shows already and within
// the definitions' budget, and the warnings of what was left out. Every file
// is read through proj.
func Sections(ctx context.Context, proj *projfs.Root, req Request) ([]section.Candidate, []string) {
	points, nFrames := failurePoints(req)
	if len(points) == 0 {
		return nil, nil
	}
	text := req.Text
	d := &defFinder{proj: proj, req: req, tree: req.Tree, files: map[string]*defFile{}, imports: map[string][]defImport{}, folders: map[string][]string{}}
	if d.tree == nil {
		d.tree = proj.Tree(projfs.TreeOptions{})
	}
	var hits []defHit
	wanted := map[string]defUse{} // names for the project-wide search
	var wantedLang defLang
	for _, p := range points {
		d.markInPlay(p.file)
	}
	// the message search reads the tree: beside the type checks of the
	// points' packages when it is the only reader (Go has no project-wide
	// name search: its names are in the package or an import)
	var msgHits func() []defHit
	if onlyGo(points) {
		msgScan, hits := d.messageScan(text, points)
		done := make(chan struct{})
		go func() {
			defer close(done)
			d.walkTree(ctx, points, msgScan)
		}()
		defer func() { <-done }()
		msgHits = func() []defHit { <-done; return hits() }
	}
	for pi, p := range points {
		if ctx.Err() != nil {
			return nil, nil
		}
		lang := langFor(p.file)
		if lang == nil {
			continue
		}
		f := d.file(p.file, lang)
		if !f.ok {
			continue
		}
		d.prepare(lang, p.file)
		span, uses := lang.uses(f, p.line, maxUseSpan/2)
		imps, folder := d.context(lang, p.file, f.src)
		d.notePointUses(lang, uses)
		flows := pointFlows(lang, f, p)
		for _, u := range uses {
			u.point = pi
			if pi >= nFrames {
				u.dist += testPointDist // after what the frames' lines use
			}
			n := len(hits)
			found := d.resolveUse(lang, p, span, u, imps, folder, &hits)
			markFlow(hits[n:], flows, u, 1, p.line)
			if !found && u.call && !lang.builtin(u.name) && len(u.name) > 2 && !importedName(imps, u) {
				if w, ok := wanted[u.name]; !ok || u.dist < w.dist {
					wanted[u.name] = u
					if wantedLang == nil {
						wantedLang = lang
					}
				}
			}
		}
	}
	// else the message search and the project-wide name search read the
	// tree together
	wideHits := func() []defHit { return nil }
	if msgHits == nil {
		var msgScan, wideScan treeScan
		msgScan, msgHits = d.messageScan(text, points)
		if len(wanted) > 0 && wantedLang != nil {
			wideScan, wideHits = d.wideScan(wantedLang, wanted, points)
		}
		d.walkTree(ctx, points, msgScan, wideScan)
	}
	hits = append(hits, msgHits()...)
	hits = append(hits, wideHits()...)
	hits = append(hits, d.producerHits(hits)...)
	sortHits(hits)
	// further hops: what the nearest definitions use, ranked after everything
	// the hop before found (a test calls a helper, the helper calls F, F calls
	// the broken G)
	expanded := map[defHit]bool{}
	frontier := hits
	named := d.failingWords(points)
	var reg registry
	var last []defHit // ranked after every hop, never expanded
	for hop := 1; hop <= maxHops && len(frontier) > 0 && ctx.Err() == nil; hop++ {
		var next []defHit
		parents := 0
		// the code under test's definitions are expanded before the test
		// files' (their helpers and tables): maxParents is not spent on thirty
		// tables of cases before the function they test
		frontier = slices.Clone(frontier) // (the first is hits itself)
		slices.SortStableFunc(frontier, func(a, b defHit) int {
			return cmp.Compare(btoi(frames.LooksLikeTestFile(a.file)), btoi(frames.LooksLikeTestFile(b.file)))
		})
		for _, h := range frontier {
			if parents == maxParents {
				break
			}
			key := defHit{file: h.file, span: h.span}
			if expanded[key] {
				continue
			}
			expanded[key] = true
			lang := langFor(h.file)
			f := d.file(h.file, lang)
			if !f.ok {
				continue
			}
			if !d.hopRead(f, h.span) {
				continue // past the hops' read budget (limits.go)
			}
			p := defPoint{h.file, h.span.to}
			d.prepare(lang, h.file)
			span, uses := defUses(lang, f, h.span) // the whole definition
			uses = d.typeUsesShown(h, f, uses)     // (a long type: its lines shown, long.go)
			imps, folder := d.context(lang, h.file, f.src)
			var found []defHit
			var notes hopNotes
			if hr, ok := lang.(hopReader); ok {
				notes = hr.hopNotes(f, span, named)
			}
			regs := map[string][]defHit{}
			flows := flowNames(lang, f, h)
			for _, u := range uses {
				u.point = parents
				n := len(found)
				d.resolveUse(lang, p, span, u, imps, folder, &found)
				markFlow(found[n:], flows, u, h.flow+1, p.line-u.dist)
				k := [2]string{u.qual, u.name}
				for i := n; i < len(found); i++ {
					if cont, ok := notes.registered[k]; ok {
						regs[cont] = append(regs[cont], found[i])
						found[i].later = true
					}
					found[i].later = found[i].later || notes.later[k]
				}
			}
			for _, s := range notes.called {
				found = append(found, defHit{file: h.file, span: s, dist: h.span.to - s.from, point: parents, usedAt: p, later: true})
			}
			notes.dispatched = d.passedItems(lang, notes.dispatched, found)
			next = append(next, reg.link(d, lang, hop, h, parents, p, notes, regs)...)
			testParent := frames.LooksLikeTestFile(h.file)
			// a long definition of a test file (a table of cases, a
			// generator of them) uses dozens of names: its first few rank in
			// the hop, the rest after every hop
			table, tableUses := testParent && h.span.to-h.span.from >= maxDefLines, 0
			looseUses := map[string]int{}
			for _, x := range found {
				if x.later {
					// behind an option the test does not set, constructed
					// into a registry, a type a signature names, a dunder
					// method: after every hop
					x.dist, x.tier, x.via = parents*4+x.tier, hop*hopTier, h.span.name
					last = append(last, x)
					continue
				}
				if x.loose {
					// a method found by name only, or one of many
					// implementations: the nearest few of a name rank after
					// the hop's typed definitions, the rest after every hop
					// (never expanded)
					x.dist = parents*4 + x.tier
					x.tier = hop*hopTier + hopTier/2
					x.via = h.span.name
					if looseUses[x.span.name]++; looseUses[x.span.name] > maxDefsPerName || x.spare {
						last = append(last, x)
					} else {
						next = append(next, x)
					}
					continue
				}
				// ranked by the parent's rank, then how near the parent it is
				// and how many definitions the parent uses (the callees
				// of a function that calls everything rank after those of
				// one that calls a few)
				x.dist = parents*4 + x.tier + fanOut(len(found))
				x.tier = hop * hopTier
				if testParent {
					// what the tests' helpers use ranks after what the code
					// under test uses in the same hop
					x.tier += hopTier / 2
					if tableUses++; table && tableUses > maxTestParentUses {
						x.via = h.span.name
						last = append(last, x)
						continue
					}
				}
				x.via = h.span.name
				next = append(next, x)
			}
			parents++
		}
		sortHits(next)
		hits, next = d.promote(hits, next)   // (chain.go)
		hits, next = promoteFlow(hits, next) // (flow.go)
		hits = append(hits, next...)
		frontier = next
	}
	hits = d.withGenerators(hits) // (generated.go)
	sortHits(last)
	hits = append(hits, last...)
	warnings := d.limitWarnings()
	return d.defCandidates(hits, &warnings), warnings
}

// prepare type-checks a Go file's package before its uses are read.
func (d *defFinder) prepare(lang defLang, file string) {
	if _, ok := lang.(goLang); ok {
		d.typeCheck(file)
		d.skipOtherCases(file)
	}
}

// importedName reports whether u names something imported from outside the
// project (a library): it is not searched for project-wide.
func importedName(imps []defImport, u defUse) bool {
	for _, im := range imps {
		if im.local == u.name || (u.qual != "" && im.local == u.qual) {
			return true
		}
	}
	return false
}

// spanUser is a language whose uses can be read from exactly a definition's
// lines (Python, TS/JS: their uses otherwise take the lines around a line that
// is in no function).
type spanUser interface {
	usesOf(f *defFile, s defSpan) (lineRange, []defUse)
}

// defUses returns what definition s of f uses: the uses of the function around
// its last line, or, when that reaches beyond s (a module-level statement, an
// export, a constant), the uses of s's own lines only.
func defUses(lang defLang, f *defFile, s defSpan) (lineRange, []defUse) {
	if cu, ok := lang.(classUser); ok && s.class {
		return cu.classUses(f, s)
	}
	span, uses := lang.uses(f, s.to, 1<<20)
	if span.from >= s.from && span.to <= s.to {
		return span, uses
	}
	if su, ok := lang.(spanUser); ok && s.from >= 1 && s.to <= len(f.lines) && s.from <= s.to {
		return su.usesOf(f, s)
	}
	return span, uses
}

// uncovered returns the ranges of from..to that shown does not hold.
func uncovered(shown map[int]bool, from, to int) []lineRange {
	var out []lineRange
	for i := from; i <= to; i++ {
		if shown[i] {
			continue
		}
		if n := len(out); n > 0 && out[n-1].to == i-1 {
			out[n-1].to = i
		} else {
			out = append(out, lineRange{i, i})
		}
	}
	return out
}

// linesIn counts the lines of parts.
func linesIn(parts []lineRange) int {
	n := 0
	for _, p := range parts {
		n += p.to - p.from + 1
	}
	return n
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fanOut is the rank distance a parent's number of uses adds to each of
// them: 2 per doubling.
func fanOut(n int) int {
	return 2 * bits.Len(uint(n))
}

// maxReexports is how many files a name is followed through re-exports and
// star imports (a package's __init__.py or index.ts re-exporting its modules).
const maxReexports = 3

// maxReexportFiles bounds the files one use's re-exports are followed through.
const maxReexportFiles = 64

// moduleVia returns the module a file's qualifier names through a name it
// imports from a project file that imports that module under the name (tests'
// `from . import tomllib`, where tests/__init__.py has `import tomli as
// tomllib`); nil when there is none.
func (d *defFinder) moduleVia(lang defLang, imps []defImport, qual string) *defImport {
	var files []string
	for _, im := range imps {
		if im.module || im.local != qual {
			continue
		}
		for _, file := range im.files {
			f := d.file(file, lang)
			if !f.ok {
				continue
			}
			fimps, _ := d.context(lang, file, f.src)
			for _, m := range fimps {
				if m.module && m.local == im.orig {
					files = append(files, m.files...)
				}
			}
		}
	}
	if len(files) == 0 {
		return nil
	}
	return &defImport{local: qual, orig: qual, module: true, files: files}
}

// libraryName reports whether the file binds u's name (or, for a member
// use, its qualifier) by an import of something outside the project (a package,
// a library module): no definition of the project is what it refers to.
func libraryName(imps []defImport, u defUse) bool {
	for _, im := range imps {
		if len(im.files) > 0 {
			continue
		}
		if (u.qual == "" && im.local == u.name) || (u.qual != "" && im.local == u.qual && im.module) {
			return true
		}
	}
	return false
}

// resolveUse looks u up in the same file, the folder, then the imports, and
// appends what it finds; false when nothing was found.
func (d *defFinder) resolveUse(lang defLang, p defPoint, span lineRange, u defUse, imps []defImport, folder []string, hits *[]defHit) bool {
	var qualImp *defImport
	for i := range imps {
		if u.qual != "" && imps[i].module && imps[i].local == u.qual {
			qualImp = &imps[i]
			break
		}
	}
	if qualImp == nil && u.qual != "" {
		qualImp = d.moduleVia(lang, imps, u.qual)
	}
	if u.typed {
		return d.addTargets(p, u, hits)
	}
	if libraryName(imps, u) {
		return true // the file imports it from a package outside the project: nothing of the project's
	}
	member := u.qual != "" && qualImp == nil
	demote := 0
	if member && u.typedFile {
		demote = nameOnlyTier
	}
	if u.recv != "" && qualImp == nil {
		if d.addMembersOf(lang, p, u, imps, folder, hits) {
			return true
		}
		if d.addCallbacks(lang, p, u, imps, folder, hits) {
			return true // a library's method: what it calls back (callbacks.go)
		}
		demote = nameOnlyTier // a class the project does not define, or a member it does not: name only, after the typed hits
	}
	add := func(tier int, file string, name string, wantMember, dflt bool) bool {
		f := d.file(file, lang)
		if !f.ok {
			return false
		}
		n := 0
		for _, i := range f.namedOrAll(name, dflt) { // (gocache.go)
			s := f.defs[i]
			if n == maxDefsPerName {
				break
			}
			if dflt {
				if !s.dflt {
					continue
				}
			} else if s.name != name || (s.member != wantMember && !(wantMember && !s.member && tier > 0)) {
				continue
			}
			if file == p.file && s.from <= p.line && p.line <= s.to {
				continue // the function (or class) the failure is in
			}
			*hits = append(*hits, defHit{file: file, span: s, tier: tier + demote, dist: u.dist, point: u.point, usedAt: p,
				pathDist: pathDistance(p.file, file), loose: demote > 0})
			n++
		}
		return n > 0
	}
	// addFrom adds name of a module file, or, when the file does not define
	// it, where the file gets it from: a re-export (from .x import name,
	// export { name } from './x') or a star import (from .x import *, export *
	// from './x'), up to maxReexports files away
	// (each file and name looked at once per use: star imports that import
	// each other, or fan out, cost one visit per file)
	visited := map[[2]string]bool{}
	var addFrom func(file, name string, depth int) bool
	addFrom = func(file, name string, depth int) bool {
		if k := [2]string{file, name}; visited[k] || len(visited) >= maxReexportFiles {
			return false
		} else {
			visited[k] = true
		}
		reexportVisits.Add(1)
		if add(2, file, name, false, name == "default") {
			return true
		}
		if depth == maxReexports {
			return false
		}
		f := d.file(file, lang)
		if !f.ok {
			return false
		}
		fimps, _ := d.context(lang, file, f.src)
		found := false
		for _, im := range fimps {
			if im.module || (im.local != name && im.local != "*") {
				continue
			}
			orig := name
			if im.local == name {
				orig = im.orig
			}
			for _, next := range im.files {
				if next != file {
					found = addFrom(next, orig, depth+1) || found
				}
			}
		}
		return found
	}
	if qualImp != nil { // pkg.F, mod.f, ns.f
		found := false
		for _, file := range qualImp.files {
			found = addFrom(file, u.name, 0) || found
		}
		return found
	}
	if !member {
		for _, im := range imps {
			if im.module || im.local != u.name {
				continue
			}
			found := false
			for _, file := range im.files {
				found = addFrom(file, im.orig, 0) || found
			}
			if found {
				return true
			}
		}
	}
	if add(0, p.file, u.name, member, false) && demote == 0 {
		return true // (a method found by name only: its namesakes of the package too)
	}
	found := false
	before := len(*hits)
	for _, file := range folder {
		if len(*hits)-before >= maxDefsPerName {
			break // a name many files of the folder define (each test file's own helper): the nearest
		}
		found = add(1, file, u.name, member, false) || found
	}
	if found || !member {
		return found
	}
	// obj.method: the classes and types the file imports
	for _, im := range imps {
		for _, file := range im.files {
			found = add(2, file, u.name, true, false) || found
		}
	}
	return found
}

// addTargets adds the definitions a typed use refers to: tier 0 in the same
// file, 1 in its folder, 2 elsewhere; false when there are none.
func (d *defFinder) addTargets(p defPoint, u defUse, hits *[]defHit) bool {
	n := 0
	writers := d.failureWriters(u.targets)        // of many, those that write what the failure shows (funcvalues.go)
	built := d.gt.builtImplementations(u.targets) // of many, those whose types the code read builds (goimpl.go)
	for _, t := range fewTargets(p, u.targets, writers, built) {
		if u.qual == funcValueQual && len(u.targets) > maxStdImpls && !writers[t] {
			continue // one of many functions a value may hold, not told apart
		}
		f := d.file(t.file, goLang{})
		if !f.ok {
			continue
		}
		if s, ok := f.defAt(t.name, t.line); ok {
			if t.file == p.file && s.from <= p.line && p.line <= s.to {
				continue // the function the failure is in
			}
			tier := nearTier(p, t.file)
			loose := len(u.targets) > maxStdImpls && !writers[t] && !built[t]
			spare := loose && built != nil
			*hits = append(*hits, defHit{file: t.file, span: s, tier: tier + btoi(spare)*nameOnlyTier, dist: u.dist, point: u.point, usedAt: p,
				pathDist: pathDistance(p.file, t.file), loose: loose, spare: spare})
			n++
		}
	}
	return n > 0
}

// nearTier is the tier of a definition in file found for a use at p: 0 in
// the same file, 1 in its folder, 2 elsewhere.
func nearTier(p defPoint, file string) int {
	switch {
	case file == p.file:
		return 0
	case dirOf(file) == dirOf(p.file):
		return 1
	}
	return 2
}

// sortHits orders hits nearest first: tier, then how many failure points use
// the definition, distance from the failing line, failure point, folders apart.
func sortHits(hits []defHit) {
	// reach: how many failure points (or parents) use a definition; one many
	// failing lines lead to comes first within its tier
	type key struct {
		file string
		from int
	}
	sources := map[key]map[int]bool{}
	for _, h := range hits {
		k := key{h.file, h.span.from}
		if sources[k] == nil {
			sources[k] = map[int]bool{}
		}
		sources[k][h.point] = true
	}
	reach := func(h defHit) int { return len(sources[key{h.file, h.span.from}]) }
	slices.SortStableFunc(hits, func(a, b defHit) int {
		for _, c := range [][2]int{{a.tier, b.tier}, {reach(b), reach(a)}, {a.dist, b.dist}, {a.point, b.point}, {a.pathDist, b.pathDist}} {
			if c[0] != c[1] {
				return c[0] - c[1]
			}
		}
		if a.file != b.file {
			return strings.Compare(a.file, b.file)
		}
		return a.span.from - b.span.from
	})
}

// onlyGo reports whether every failure point is in a Go file.
func onlyGo(points []defPoint) bool {
	for _, p := range points {
		if _, ok := langFor(p.file).(goLang); !ok {
			return false
		}
	}
	return true
}

// pathDistance counts the folders between two files.
func pathDistance(a, b string) int {
	as, bs := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return len(as) + len(bs) - 2*n
}

// failurePoints are the project frames of req (in order, de-duplicated, of a
// language definitions are read for, at most maxDefPoints), then the failing
// tests' definitions; nFrames is how many of them are frames.
func failurePoints(req Request) (points []defPoint, nFrames int) {
	var out []defPoint
	seen := map[defPoint]bool{}
	for _, r := range req.Frames {
		p := defPoint{r.File, r.Line}
		if seen[p] || langFor(r.File) == nil {
			continue
		}
		seen[p] = true
		out = append(out, p)
		if len(out) == maxDefPoints {
			break
		}
	}
	nFrames = len(out)
	for _, def := range req.Tests {
		if p := (defPoint{def.File, def.Line}); langFor(def.File) != nil && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nFrames
}

// wideScan looks names up in the whole project's files of lang in the
// gather's walk (walkTree); hits returns their definitions (tier 3), nearest
// folders first, after the walk.
func (d *defFinder) wideScan(lang defLang, wanted map[string]defUse, points []defPoint) (scan treeScan, hits func() []defHit) {
	uses := make([]defUse, 0, len(wanted))
	for _, u := range wanted {
		uses = append(uses, u)
	}
	slices.SortFunc(uses, func(a, b defUse) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	if len(uses) > maxWideNames {
		uses = uses[:maxWideNames]
	}
	names := make([]string, len(uses))
	for i, u := range uses {
		names[i] = u.name
	}
	re, exts := lang.wide(names)
	if re == nil {
		return treeScan{}, func() []defHit { return nil }
	}
	type found = wideFound
	var mu sync.Mutex
	var all []found
	// a definition line of a name holds the name: the pattern is tried on
	// the lines that hold one
	lits := projfs.NewLiterals(names)
	scan.want = func(_, name string) bool { return slices.Contains(exts, path.Ext(name)) }
	scan.scan = func(rel string, data []byte) {
		byLine := map[int]string{}
		for _, ms := range lits.Lines(rel, data) {
			for _, m := range ms {
				byLine[m.Line] = m.Text
			}
		}
		for _, n := range slices.Sorted(maps.Keys(byLine)) {
			if m := re.FindStringSubmatch(byLine[n]); m != nil {
				mu.Lock()
				all = append(all, found{rel, n, m[1]})
				mu.Unlock()
			}
		}
	}
	return scan, func() []defHit { return d.wideDefs(lang, uses, points, all) }
}

// wideFound is a definition line of a name the wide scan found.
type wideFound struct {
	file string
	line int
	name string
}

// wideDefs are the definitions of the names at the lines the wide scan found.
func (d *defFinder) wideDefs(lang defLang, uses []defUse, points []defPoint, all []wideFound) []defHit {
	byName := map[string]defUse{}
	for _, u := range uses {
		byName[u.name] = u
	}
	var hits []defHit
	for _, fd := range all {
		u := byName[fd.name]
		p := points[u.point]
		f := d.file(fd.file, lang)
		if !f.ok {
			continue
		}
		for _, s := range f.defs {
			if s.name == fd.name && s.from <= fd.line && fd.line <= s.to {
				hits = append(hits, defHit{file: fd.file, span: s, tier: 3, dist: u.dist, point: u.point, usedAt: p,
					pathDist: pathDistance(p.file, fd.file)})
				break
			}
		}
	}
	// at most maxDefsPerName per name, nearest folders first
	slices.SortStableFunc(hits, func(a, b defHit) int {
		if a.pathDist != b.pathDist {
			return a.pathDist - b.pathDist
		}
		return strings.Compare(a.file, b.file)
	})
	count := map[string]int{}
	out := hits[:0]
	for _, h := range hits {
		if count[h.span.name] < maxDefsPerName {
			count[h.span.name]++
			out = append(out, h)
		}
	}
	return out
}

// shownLines returns the lines of each file that the sections in have show,
// after the per-section cap.
func (d *defFinder) shownLines(have []section.Candidate) map[string]map[int]bool {
	shown := map[string]map[int]bool{}
	for _, c := range have {
		if c.Seen == nil {
			continue
		}
		m := shown[c.Seen.Path]
		if m == nil {
			m = map[int]bool{}
			shown[c.Seen.Path] = m
		}
		for _, n := range section.ShownLines(c.Sec.Body, d.req.MaxResultBytes) {
			m[n] = true
		}
	}
	return shown
}

// defsBudget is the room of the definitions: one section's (MaxResultBytes),
// and up to twice that when the base context leaves that much of MaxTotalBytes
// unused after the sections before them and one more section (a log).
func (d *defFinder) defsBudget(have []section.Candidate) int {
	used := 0
	for _, c := range have {
		used += len(c.Sec.Title) + len(section.Cap(c.Sec.Body, d.req.MaxResultBytes))
	}
	room := d.req.MaxTotalBytes - used - d.req.MaxResultBytes
	return max(d.req.MaxResultBytes, min(2*d.req.MaxResultBytes, room))
}

// defCandidates turns ranked hits into sections: those the base context shows
// already are skipped, the rest are taken in rank order while they fit in
// MaxResultBytes, and a warning names those left out.
func (d *defFinder) defCandidates(hits []defHit, warnings *[]string) []section.Candidate {
	have := d.req.Have
	shown := d.shownLines(have)
	var m map[int]bool
	covered := func(from, to int) bool {
		for i := from; i <= to; i++ {
			if !m[i] {
				return false
			}
		}
		return true
	}
	coveredAll := func(parts []lineRange) bool {
		for _, p := range parts {
			if !covered(p.from, p.to) {
				return false
			}
		}
		return true
	}
	links := linkNames(hits)
	frags := msgFragments(d.req.Text, map[string]bool{})
	left := d.defsBudget(have)
	wholeLong := 0 // long definitions shown whole so far
	var out []section.Candidate
	var dropped []string
	done := map[string]bool{}
	// the failing tests' own helpers and tables (definitions in test files)
	// get at most a share of the room in rank order; the rest of them wait
	// until the code under test has had its turn
	testLeft := left / testShare
	var later []defHit
	list := hits
	for pass := 0; pass < 2; pass, list = pass+1, later {
		for _, h := range list {
			key := fmt.Sprintf("%s:%d", h.file, h.span.from)
			if done[key] {
				continue
			}
			m = shown[h.file]
			from, to := h.span.from, h.span.to
			// a definition holding a table of test cases: the cases the
			// failure names, or nothing when it names others (testtables.go)
			cut := d.cutTables(h.file, from, to, m)
			if cut.drop {
				done[key] = true
				d.cases.dropped = append(d.cases.dropped, h.span.name)
				continue
			}
			parts := []lineRange{{from, to}}
			long := to-from+1 > maxDefLines && !cut.table
			if cut.table {
				parts = cut.parts
			}
			typ := false // a long type: never whole (long.go)
			// a long class of a language that says which of its lines run
			// when it is constructed shows those (pyclass.go), never all of it
			cp, classParts := langFor(h.file).(classParter)
			classParts = classParts && h.span.class && long
			if long {
				if f := d.files[h.file]; f != nil && f.ok && to <= len(f.lines) {
					if classParts {
						parts = cp.classParts(f, h.span, longParts(langFor(h.file), f.lines, from, to, nil, nil, append(slices.Clip(frags), h.msg), d.req.Text))
					} else {
						names, fields := links[defPoint{h.file, to}], []string(nil)
						if typ = goTypeSpan(h.file, f.lines, h.span); typ {
							names, fields = nil, slices.Sorted(maps.Keys(d.pointNames)) // its fields the failing lines name, not the types of the others
						}
						parts = longParts(langFor(h.file), f.lines, from, to, names, fields, append(slices.Clip(frags), h.msg), d.req.Text)
					}
				} else {
					parts = []lineRange{{from, from + maxDefLines - 1}}
				}
			}
			if coveredAll(parts) || (!cut.table && h.span.data && to-from >= maxTestData && frames.LooksLikeTestFile(h.file)) {
				continue // shown already, or a test's table of cases
			}
			ft, err := d.shownText(h.file)
			if err != nil || to > len(ft.Lines) {
				continue
			}
			body := section.Numbered(ft.Lines, from, to)
			what := "definition of " + h.span.name
			partly := false
			if rest := uncovered(m, from, to); !cut.table && len(rest) > 0 && rest[0] != (lineRange{from, to}) && !classParts {
				// an earlier section shows some of its lines (a whole file cut
				// at the section cap, the window around a frame): the rest of
				// them, not the lines again, when that is short or fits in half
				// the room left
				restBody := joinParts(ft.Lines, rest, "are in a section above")
				if n := linesIn(rest); n <= maxDefLines || len(restBody) <= left/2 {
					partly, long, parts, body = true, false, rest, restBody
					what += fmt.Sprintf(", %d lines of %d: those the sections above do not show", n, to-from+1)
				}
			}
			if !partly && long && !typ && !classParts && !covered(from, to) {
				// room for all of it: a long function is shown whole (the bug of a
				// real fix is anywhere in it), up to half of the room left — or
				// all of it for one a function on the value's path returns
				// (flow.go), which is not counted
				switch {
				case returned(h) && len(body) <= left:
					long, parts = false, []lineRange{{from, to}}
				case wholeLong < maxWholeLong && len(body) <= left/2:
					long, parts = false, []lineRange{{from, to}}
					wholeLong++
				}
			}
			if long {
				body = longBody(ft.Lines, parts)
				matter := "the lines that matter"
				if typ {
					matter = "the fields the failing lines name"
				}
				what += fmt.Sprintf(", %d lines of %d: the head and %s", linesIn(parts), to-from+1, matter)
			}
			if cut.table {
				body, what = cut.body(ft.Lines, m), what+cut.what(to-from+1)
			}
			where := fmt.Sprintf("used at %s:%d", h.usedAt.file, h.usedAt.line)
			if h.via != "" {
				where = fmt.Sprintf("used by %s in %s", h.via, h.usedAt.file)
			} else if h.generates != "" {
				where = "generates " + h.generates
			} else if h.builds != "" {
				where = fmt.Sprintf("builds the %s whose text the failing lines use", h.builds)
			} else if h.msg != "" {
				where = fmt.Sprintf("writes %q as the failure shows", h.msg)
			}
			title := fmt.Sprintf("File %s lines %d-%d of %d (%s, %s)", ft.Real, from, to, len(ft.Lines), what, where)
			if pass == 0 && frames.LooksLikeTestFile(h.file) {
				if len(title)+len(body) > testLeft {
					later = append(later, h)
					continue
				}
				testLeft -= len(title) + len(body)
			}
			done[key] = true
			if len(title)+len(body) > left {
				dropped = append(dropped, h.span.name)
				continue
			}
			left -= len(title) + len(body)
			sm := shown[ft.Real]
			if sm == nil {
				sm = map[int]bool{}
				shown[ft.Real] = sm
			}
			var ranges []section.LineRange
			for _, p := range parts {
				for i := p.from; i <= p.to; i++ {
					sm[i] = true
				}
				ranges = append(ranges, section.LineRange{From: p.from, To: p.to})
			}
			out = append(out, section.Candidate{Sec: plan.Section{Title: title, Body: body},
				Seen:   &plan.SeenFile{Path: ft.Real, Whole: !long && !partly && !cut.table && from == 1 && to == len(ft.Lines)},
				Ranges: ranges, Redacted: true, Redactions: ft.Red.In(from, to)})
		}
	}
	if len(dropped) > 0 {
		*warnings = append(*warnings, fmt.Sprintf("%d definitions left out (budget of the definitions section reached): %s",
			len(dropped), limitNames(dropped))) // (a registry of thousands: a warning of a megabyte)
	}
	*warnings = append(*warnings, d.tableWarnings()...)
	return out
}

// shownText is a file as it is shown (ReadText: redacted whole), read once per
// Sections call however many of its definitions are shown.
func (d *defFinder) shownText(rel string) (projfs.Text, error) {
	if t, ok := d.texts[rel]; ok {
		return t.text, t.err
	}
	t, err := d.proj.ReadText(rel)
	if d.texts == nil {
		d.texts = map[string]shownText{}
	}
	d.texts[rel] = shownText{t, err}
	return t, err
}

type shownText struct {
	text projfs.Text
	err  error
}

// identRe finds identifiers and dotted chains in Python and TS/JS code.
var identRe = lazyre.New(`[A-Za-z_$][\w$]*(?:\s*\??\.\s*[A-Za-z_$][\w$]*)*`)

// chainUses turns the identifier chains of lines (strings and comments already
// blanked) into uses: a.b.c() gives a, a.b and b.c.
func chainUses(lines []string, from, line int) []defUse {
	best := map[[2]string]defUse{}
	var order [][2]string
	for i, l := range lines {
		n := from + i
		dist := n - line
		if dist < 0 {
			dist = -dist
		}
		for _, loc := range identRe.FindAllStringIndex(l, -1) {
			if loc[0] > 0 && (l[loc[0]-1] == '.' || isDigit(l[loc[0]-1])) {
				continue
			}
			parts := strings.FieldsFunc(l[loc[0]:loc[1]], func(r rune) bool { return r == '.' || r == '?' || r == ' ' || r == '\t' })
			rest := strings.TrimLeft(l[loc[1]:], " \t")
			before := strings.TrimRight(l[:loc[0]], " \t")
			for j, p := range parts {
				u := defUse{name: p, dist: dist}
				if j > 0 {
					u.qual = parts[j-1]
				}
				if j > 1 {
					u.prev = parts[j-2]
				}
				last := j == len(parts)-1
				u.call = (last && (strings.HasPrefix(rest, "(") || strings.HasSuffix(before, "new"))) || (p[0] >= 'A' && p[0] <= 'Z')
				k := [2]string{u.qual, u.name}
				if b, ok := best[k]; ok {
					if u.dist < b.dist || (u.dist == b.dist && u.call && !b.call) {
						u.call = u.call || b.call
						best[k] = u
					}
					continue
				}
				best[k] = u
				order = append(order, k)
			}
		}
	}
	out := make([]defUse, 0, len(order))
	for _, k := range order {
		out = append(out, best[k])
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// indentOf is the width of a line's leading white space (a tab counts 8).
func indentOf(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 8
		default:
			return n
		}
	}
	return n
}

// The helpers below are shared by the languages.

// bracketDelta is the change of bracket depth over a blanked line.
func bracketDelta(l string) (delta int, any bool) {
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '(', '[', '{':
			delta++
			any = true
		case ')', ']', '}':
			delta--
			any = true
		}
	}
	return delta, any
}

// wordSet is the set of the words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// quoteAll quotes each name for a regular expression.
func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = regexp.QuoteMeta(n)
	}
	return out
}

// dirOf is the folder of a root-relative path, "" for the root.
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}
