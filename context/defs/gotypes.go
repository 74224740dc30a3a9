package defs

import (
	"bytes"
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"fixplan/projfs"
)

// Type-aware resolution of Go uses. The packages in play (a failure point's or
// a hop's file's package, with its test files) are type-checked with go/types
// over their parsed files; the project packages they import are checked from
// source the same way (read through the same confined, budgeted reader), and
// every other import (the standard library, dependencies) is an opaque stand-in
// package whose names are made up as types with no methods. Nothing is run: no
// go list, no toolchain, no cgo; errors are tolerated (an expression whose type
// cannot be worked out is simply untyped). What this gives a use:
//
//   - the exact project definition a name, a qualified name or a selector
//     (through embedded fields) refers to;
//   - a call of an interface method: the project's types that implement the
//     interface, and their methods;
//   - a selector whose receiver's type is of another package (a strings.Builder,
//     a *testing.T field): known not to be the project's, never matched by name.
//
// What is not typed keeps the name-based lookup, ranked after the typed hits.
// The work is bounded by the read budget of limits.go and by maxTypedPkgs.

const maxTypedPkgs = 32 // packages type-checked in one Sections call

// goTyped is the type information of the files checked in one Sections call.
type goTyped struct {
	fset  *token.FileSet
	info  *types.Info
	pkgs  map[string]*types.Package // project packages by folder ("dir" or "dir#test" of an external test package)
	fakes map[string]*types.Package // stand-ins of other imports, by import path
	own   map[*types.Package]bool   // the project's packages
	files map[string]string         // project file of each checked token.File name (the file's root-relative path)
	bySig map[string][]goTarget     // the functions of a signature, by its text (funcvalues.go)
	built map[string]bool           // the types the code read so far builds (goimpl.go)
	impls map[goTarget][]string     // the types an interface's method implementation is found for (goimpl.go)
	index *goIndex                  // what the lookups read of the checked packages (gocache.go)
	done  int
	// bodies are the function bodies of the packages in play not checked yet
	// (checkHeads)
	bodies map[*ast.FuncDecl]pendingBody
	// whole checks the packages in play with all their bodies at once (the
	// reference tests compare checkHeads with)
	whole bool
}

// goTarget is a project definition a typed use refers to.
type goTarget struct {
	file string
	line int
	name string
}

func (d *defFinder) typed() *goTyped {
	if d.gt == nil {
		d.gt = &goTyped{fset: token.NewFileSet(), info: &types.Info{
			Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{}, Defs: map[*ast.Ident]types.Object{},
		}, pkgs: map[string]*types.Package{}, fakes: map[string]*types.Package{}, own: map[*types.Package]bool{}, files: map[string]string{},
			bodies: map[*ast.FuncDecl]pendingBody{}}
	}
	return d.gt
}

// typeCheck type-checks the package of the Go file rel (with its test files
// when rel is one), once; the files checked keep their syntax trees with the
// type information (goParsed.typed), which goLang.uses reads.
func (d *defFinder) typeCheck(rel string) {
	f := d.files[rel]
	if f != nil {
		if p, ok := f.parsed.(goParsed); ok && p.typed != nil && p.bodies {
			return
		}
	}
	dir := dirOf(rel)
	d.markInPlay(rel)
	test := strings.HasSuffix(rel, "_test.go")
	name := d.goPackageName(rel)
	if name == "" {
		return
	}
	key := dir + "#in" // in play: with its test files
	if test && strings.HasSuffix(name, "_test") {
		key = dir + "#xtest"
	}
	d.checkDir(key, dir, name, true)
}

// goPackageName is the package clause of a Go file.
func (d *defFinder) goPackageName(rel string) string {
	f := d.file(rel, goLang{})
	if !f.ok {
		return ""
	}
	_, af := goLang{}.parse(f.src, parser.PackageClauseOnly)
	if af == nil || af.Name == nil {
		return ""
	}
	return af.Name.Name
}

// checkDir type-checks the files of dir of package name (its _test.go files
// too when withTests), once per key.
func (d *defFinder) checkDir(key, dir, name string, withTests bool) *types.Package {
	gt := d.typed()
	if p, ok := gt.pkgs[key]; ok {
		return p
	}
	gt.pkgs[key] = nil // an import cycle or a failed check gives no package
	if gt.done >= maxTypedPkgs {
		return nil
	}
	gt.done++
	var files []*ast.File
	var rels []string
	folder := listFolder(d.proj, dir, []string{".go"})
	d.loadGo(folder, withTests)
	for _, rel := range folder {
		isTest := strings.HasSuffix(rel, "_test.go")
		if (isTest && !withTests) || !d.buildMatch(rel) {
			continue
		}
		df := d.file(rel, goLang{})
		if !df.ok {
			continue
		}
		// the tree goSyntax kept, unless a check has it already or its
		// bodies are needed and it has none
		p, _ := df.parsed.(goParsed)
		af := p.file
		if af == nil || p.typed != nil || (withTests && !p.bodies) {
			af = d.goParse(rel, df.src, withTests)
		}
		if af == nil || af.Name == nil || af.Name.Name != name {
			continue
		}
		files = append(files, af)
		rels = append(rels, rel)
	}
	if len(files) == 0 {
		return nil
	}
	modDir, mod := goLang{}.module(d.proj, path.Join(dir, "x.go"))
	conf := types.Config{
		Importer:    goImporter{d, modDir, mod, files, &goSels{}},
		Error:       func(error) {},
		FakeImportC: true,
		// an imported package is checked for its declarations only: what the
		// packages in play use of it (types, fields, methods, functions)
		IgnoreFuncBodies: !withTests,
	}
	pkgPath := name
	if mod != "" {
		pkgPath = path.Join(mod, strings.TrimPrefix(strings.TrimPrefix(dir, modDir), "/"))
		if strings.HasSuffix(key, "#xtest") {
			pkgPath += "_test"
		}
	}
	var pkg *types.Package
	if withTests && !gt.whole {
		pkg = gt.checkHeads(conf, pkgPath, files)
	} else {
		pkg, _ = conf.Check(pkgPath, gt.fset, files, gt.info)
	}
	if pkg == nil {
		return nil
	}
	gt.pkgs[key] = pkg
	gt.own[pkg] = true
	for i, af := range files {
		df := d.files[rels[i]]
		df.parsed = goParsed{fset: gt.fset, file: af, typed: gt, bodies: withTests}
	}
	return pkg
}

// checkHeads type-checks files as one package with their function bodies
// left for later: each is checked when its uses are first read (checkBodies).
// A failing test's package has hundreds of functions, of which a base context
// reads a few dozen.
func (gt *goTyped) checkHeads(conf types.Config, pkgPath string, files []*ast.File) *types.Package {
	conf.Importer = &importMemo{conf.Importer, map[string]*types.Package{}}
	later := conf
	later.DisableUnusedImportCheck = true // a body's file has all its file's imports
	heads := make([]*ast.File, len(files))
	pkg := types.NewPackage(pkgPath, "")
	for i, af := range files {
		h := *af
		h.Decls = slices.Clone(af.Decls)
		for j, decl := range h.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				h.Decls[j] = &ast.FuncDecl{Doc: fd.Doc, Recv: fd.Recv, Name: fd.Name, Type: fd.Type}
				gt.bodies[fd] = pendingBody{&later, pkg, af}
			}
		}
		heads[i] = &h
	}
	_ = types.NewChecker(&conf, gt.fset, pkg, gt.info).Files(heads) // errors are tolerated
	return pkg
}

// importMemo gives the package an import path gave before: a body checked
// later imports what its package's check imported.
type importMemo struct {
	im   types.Importer
	pkgs map[string]*types.Package
}

func (m *importMemo) Import(p string) (*types.Package, error) {
	if pkg, ok := m.pkgs[p]; ok {
		return pkg, nil
	}
	pkg, err := m.im.Import(p)
	if err == nil {
		m.pkgs[p] = pkg
	}
	return pkg, err
}

// pendingBody is a function body checkHeads left for later: the configuration
// its package was checked with, the package and the function's file.
type pendingBody struct {
	conf *types.Config
	pkg  *types.Package
	file *ast.File
}

// checkBodies type-checks the bodies of the functions among decls that
// checkHeads left for later: into their package, each in a file of its own
// (the function renamed _, so it declares nothing, beside its file's
// imports), by a checker of these files alone (a checker that checked the
// package would go over all its declarations again). A body's types depend
// only on the package's declarations, all checked: it is typed as in a check
// of the whole package.
func (gt *goTyped) checkBodies(decls []ast.Node) {
	byPkg := map[*types.Package][]*ast.File{}
	var order []pendingBody
	for _, n := range decls {
		fd, ok := n.(*ast.FuncDecl)
		if !ok {
			continue
		}
		pb, ok := gt.bodies[fd]
		if !ok {
			continue
		}
		delete(gt.bodies, fd)
		if scopesDeeperThan(fd.Body, maxScopeDepth) {
			continue // (nesting.go: left untyped)
		}
		var ds []ast.Decl
		for _, d := range pb.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				ds = append(ds, g)
			}
		}
		ds = append(ds, &ast.FuncDecl{Recv: fd.Recv, Name: &ast.Ident{NamePos: fd.Name.NamePos, Name: "_"}, Type: fd.Type, Body: fd.Body})
		f := &ast.File{Package: pb.file.Package, Name: pb.file.Name, Decls: ds, FileStart: pb.file.FileStart, FileEnd: pb.file.FileEnd, GoVersion: pb.file.GoVersion}
		if byPkg[pb.pkg] == nil {
			order = append(order, pb)
		}
		byPkg[pb.pkg] = append(byPkg[pb.pkg], f)
	}
	for _, pb := range order {
		_ = types.NewChecker(pb.conf, gt.fset, pb.pkg, gt.info).Files(byPkg[pb.pkg])
	}
}

// markInPlay says the Go files of file's folder keep their function bodies:
// their uses are read and they are type-checked with them.
func (d *defFinder) markInPlay(file string) {
	if _, ok := langFor(file).(goLang); !ok {
		return
	}
	if d.inPlay == nil {
		d.inPlay = map[string]bool{}
	}
	d.inPlay[dirOf(file)] = true
}

// goSyntax is the syntax tree of a Go file read for definitions, parsed once
// into the gather's file set and shared by its definitions (goLang.defs), its
// uses and its package's type check: with its function bodies when its folder
// is in play, else with only their braces (an imported package is checked for
// its declarations only, and a tree without bodies is a fraction of the size).
func (d *defFinder) goSyntax(rel string, src []byte) goParsed {
	bodies := d.inPlay[dirOf(rel)]
	return goParsed{fset: d.typed().fset, file: d.goParse(rel, src, bodies), bodies: bodies}
}

// goParse parses a Go file into the gather's file set, without comments (doc
// comments are found on the lines above a declaration) and, unless bodies,
// with each function body cut to its braces.
func (d *defFinder) goParse(rel string, src []byte, bodies bool) *ast.File {
	defParsed.Add(1)
	af, _ := parser.ParseFile(d.typed().fset, rel, src, parser.SkipObjectResolution)
	if af != nil && !bodies {
		for _, decl := range af.Decls {
			// a body that does not close keeps its statements: its end is theirs
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil && fd.Body.Rbrace.IsValid() {
				fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Rbrace}
			}
		}
	}
	return af
}

// loadGo reads the Go files of folder that checkDir will read (those its
// build check opens: test files only withTests, names for this GOOS and
// GOARCH), one after the other as it would (the read budget is spent in the
// same order), and parses them on several goroutines at once.
func (d *defFinder) loadGo(folder []string, withTests bool) {
	nameOnly := build.Default
	nameOnly.CgoEnabled = false
	errOpened := errors.New("opened")
	nameOnly.OpenFile = func(string) (io.ReadCloser, error) { return nil, errOpened }
	var todo []string
	for _, rel := range folder {
		if _, ok := d.files[rel]; ok || (strings.HasSuffix(rel, "_test.go") && !withTests) {
			continue
		}
		if ok, err := nameOnly.MatchFile(".", path.Base(rel)); !ok && err == nil {
			continue // its name is for another system: never opened
		}
		f := &defFile{}
		d.files[rel] = f
		if src, err := d.readDef(rel); err == nil {
			f.src, f.ok = src, true
			todo = append(todo, rel)
		}
	}
	d.typed() // the file set, made before the goroutines share it
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(todo); i = int(next.Add(1)) - 1 {
				f := d.files[todo[i]]
				f.lines = projfs.SplitLines(f.src)
				f.parsed = d.goSyntax(todo[i], f.src)
				f.defs = goLang{}.defs(f)
			}
		})
	}
	wg.Wait()
}

// buildMatch reports whether a Go file is built for this machine's GOOS and
// GOARCH (its name and //go:build line), read through the confined reader.
func (d *defFinder) buildMatch(rel string) bool {
	ctxt := build.Default
	ctxt.CgoEnabled = false
	ctxt.OpenFile = func(string) (io.ReadCloser, error) {
		f := d.file(rel, goLang{})
		if !f.ok {
			return nil, io.ErrUnexpectedEOF
		}
		return io.NopCloser(bytes.NewReader(f.src)), nil
	}
	ok, err := ctxt.MatchFile(".", path.Base(rel))
	return err != nil || ok
}

// goImporter imports the project's packages from source and stands in for the
// others.
type goImporter struct {
	d          *defFinder
	modDir     string
	mod        string
	importedBy []*ast.File
	sels       *goSels
}

// goSels are the exported names each file of importedBy selects from an
// identifier (pkg.Name), collected in one walk of the files for all their
// imports.
type goSels struct {
	byFile []map[string][]string // file index → identifier → selected names
}

func (im goImporter) selected() []map[string][]string {
	if im.sels.byFile == nil {
		im.sels.byFile = make([]map[string][]string, len(im.importedBy))
		for i, f := range im.importedBy {
			m := map[string][]string{}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && token.IsExported(sel.Sel.Name) && !slices.Contains(m[id.Name], sel.Sel.Name) {
						m[id.Name] = append(m[id.Name], sel.Sel.Name)
					}
				}
				return true
			})
			im.sels.byFile[i] = m
		}
	}
	return im.sels.byFile
}

func (im goImporter) Import(p string) (*types.Package, error) {
	if im.mod != "" && (p == im.mod || strings.HasPrefix(p, im.mod+"/")) {
		dir := path.Join(im.modDir, strings.TrimPrefix(strings.TrimPrefix(p, im.mod), "/"))
		if dir == "." {
			dir = ""
		}
		if pkg := im.d.typed().pkgs[dir+"#in"]; pkg != nil {
			return pkg, nil
		}
		if name := im.d.dirPackageName(dir); name != "" {
			if pkg := im.d.checkDir(dir, dir, name, false); pkg != nil {
				return pkg, nil
			}
		}
	}
	return im.d.fake(p, im.importedBy, im.selected()), nil
}

// dirPackageName is the package name of the non-test Go files of dir.
func (d *defFinder) dirPackageName(dir string) string {
	for _, rel := range listFolder(d.proj, dir, []string{".go"}) {
		if !strings.HasSuffix(rel, "_test.go") {
			if n := d.goPackageName(rel); n != "" && n != "main" {
				return n
			}
		}
	}
	return ""
}

// fake is the stand-in of an import from outside the project: every name the
// files use of it (pkg.Name) is a type with no methods, so a value of it is
// known to be of another package, and nothing of it is looked up in the
// project.
func (d *defFinder) fake(p string, files []*ast.File, sels []map[string][]string) *types.Package {
	gt := d.typed()
	pkg := gt.fakes[p]
	if pkg == nil {
		name := goLang{}.pkgName(d.proj, nil, p)
		pkg = types.NewPackage(p, name)
		pkg.MarkComplete()
		gt.fakes[p] = pkg
	}
	for i, f := range files {
		local := ""
		for _, is := range f.Imports {
			if v, err := strconv.Unquote(is.Path.Value); err == nil && v == p {
				local = pkg.Name()
				if is.Name != nil {
					local = is.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		for _, name := range sels[i][local] {
			if pkg.Scope().Lookup(name) == nil {
				tn := types.NewTypeName(token.NoPos, pkg, name, nil)
				types.NewNamed(tn, types.NewStruct(nil, nil), nil)
				pkg.Scope().Insert(tn)
			}
		}
	}
	return pkg
}

// targets returns what a use refers to, typed: the project definitions (none
// for a name of another package), and whether the use was typed at all.
func (gt *goTyped) targets(id *ast.Ident, sel *ast.SelectorExpr) (out []goTarget, typed bool) {
	var obj types.Object
	if sel != nil {
		if s, ok := gt.info.Selections[sel]; ok {
			obj = s.Obj()
			if fn, ok := obj.(*types.Func); ok && types.IsInterface(s.Recv()) {
				return gt.implementations(fn, s.Recv()), true
			}
		} else if o := gt.info.Uses[sel.Sel]; o != nil {
			obj = o // pkg.Name
		} else if tv, ok := gt.info.Types[sel.X]; ok && tv.Type != nil {
			if named := namedOf(tv.Type); named != nil && named.Obj().Pkg() != nil && !gt.own[named.Obj().Pkg()] {
				if stdInterfaceHas(named.Obj().Pkg().Path(), named.Obj().Name(), sel.Sel.Name) {
					// a standard interface's method: the project's implementations
					if impls := gt.methodsNamed(sel.Sel.Name); len(impls) <= maxStdImpls {
						return impls, true
					}
					return nil, false
				}
				return nil, true // a method or field of another package's type
			}
			return nil, false
		} else {
			return nil, false
		}
	} else if o := gt.info.Uses[id]; o != nil {
		obj = o
	} else {
		return nil, false
	}
	if obj.Pkg() == nil || !gt.own[obj.Pkg()] {
		return nil, true // the universe, or another package
	}
	if t, ok := gt.target(obj); ok {
		return []goTarget{t}, true
	}
	return nil, true // a local variable, a parameter, a field: no definition of its own
}

// target is where a package-level object or a method is declared.
func (gt *goTyped) target(obj types.Object) (goTarget, bool) {
	switch o := obj.(type) {
	case *types.Func:
	case *types.TypeName, *types.Const:
	case *types.Var:
		if o.IsField() || o.Parent() != o.Pkg().Scope() {
			return goTarget{}, false
		}
	default:
		return goTarget{}, false
	}
	if !obj.Pos().IsValid() {
		return goTarget{}, false
	}
	pos := gt.fset.Position(obj.Pos())
	if pos.Filename == "" {
		return goTarget{}, false
	}
	return goTarget{file: pos.Filename, line: pos.Line, name: obj.Name()}, true
}

// implementations are the methods named like fn of the project's checked
// types that implement the interface iface.
func (gt *goTyped) implementations(fn *types.Func, recv types.Type) []goTarget {
	iface, _ := recv.Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	k := implCall{iface, fn.Name(), len(gt.own)} // (read again when a package was checked since)
	if out, ok := gt.idx().calls[k]; ok {
		return out
	}
	var out []goTarget
	for pkg := range gt.own {
		for _, it := range gt.implementersIn(pkg, iface) { // (gocache.go)
			m := methodOf(it.ms, fn)
			gt.noteImplementation(m, it.t)
			if m == nil {
				continue
			}
			if tg, ok := gt.target(m); ok {
				out = append(out, tg)
			}
		}
	}
	out = byFileLine(out)
	gt.idx().calls[k] = out
	return out
}

// concreteMethods returns the project definitions of the methods pick chooses
// (nil: none) on each non-interface type of the project's checked packages,
// by file and line.
func (gt *goTyped) concreteMethods(pick func(pkg *types.Package, t types.Type) *types.Func) []goTarget {
	var out []goTarget
	for pkg := range gt.own {
		scope := pkg.Scope()
		for _, n := range scope.Names() {
			tn, ok := scope.Lookup(n).(*types.TypeName)
			if !ok || types.IsInterface(tn.Type()) {
				continue
			}
			if fn := pick(pkg, tn.Type()); fn != nil {
				if tg, ok := gt.target(fn); ok {
					out = append(out, tg)
				}
			}
		}
	}
	return byFileLine(out)
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}
