package defs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"

	"fixplan/context/frames"
	"fixplan/projfs"
)

// goLang finds Go definitions with go/parser: the function around a failure
// point, the identifiers and selectors it uses, the package's declarations
// (functions, methods, types, vars, consts, with their doc comments) and the
// imports that lead into the same module (resolved through the nearest go.mod).
// A file that does not parse gives what the parser recovered.
type goLang struct{}

func (goLang) parse(src []byte, mode parser.Mode) (*token.FileSet, *ast.File) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, mode|parser.SkipObjectResolution)
	return fset, f
}

type goParsed struct {
	fset   *token.FileSet
	file   *ast.File
	typed  *goTyped // the type information of the file, nil when it was not type-checked
	bodies bool     // the tree has the function bodies (else only their braces)
}

// parsed is the syntax tree of a file whose uses are read, with its function
// bodies: the one goSyntax kept, else parsed again (without comments: uses are
// names in code).
func (l goLang) parsed(df *defFile) (*token.FileSet, *ast.File) {
	if p, ok := df.parsed.(goParsed); ok && p.bodies {
		return p.fset, p.file
	}
	defParsed.Add(1)
	fset, f := l.parse(df.src, 0)
	df.parsed = goParsed{fset: fset, file: f}
	return fset, f
}

func (l goLang) uses(df *defFile, line, around int) (lineRange, []defUse) {
	fset, f := l.parsed(df)
	gt := df.parsed.(goParsed).typed
	if f == nil {
		return lineRange{line, line}, nil
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	var scope []ast.Node
	span := lineRange{max(1, line-20), line + 20}
	for _, d := range f.Decls {
		if lineOf(d.Pos()) <= line && line <= lineOf(d.End()) {
			scope = []ast.Node{d}
			span = lineRange{lineOf(d.Pos()), lineOf(d.End())}
			break
		}
	}
	if scope == nil { // between declarations: what is near
		for _, d := range f.Decls {
			if lineOf(d.End()) >= span.from && lineOf(d.Pos()) <= span.to {
				scope = append(scope, d)
			}
		}
	}
	if gt != nil {
		gt.checkBodies(scope)
	}
	if span.to-span.from > 2*around { // a huge function: the part around the line
		span = lineRange{max(span.from, line-around), min(span.to, line+around)}
	}
	best := map[[2]string]int{}
	var order [][2]string
	type typing struct {
		targets []goTarget
		seen    map[goTarget]bool // (an interface's hundreds of implementations, once per use)
		typed   bool
	}
	typings := map[[2]string]*typing{}
	// add records a use; its targets are those of id or sel, or dyn's (a call
	// through a function value, funcvalues.go)
	add := func(qual, name string, p token.Pos, id *ast.Ident, sel *ast.SelectorExpr, dyn ...goTarget) {
		n := lineOf(p)
		if n < span.from || n > span.to || name == "_" || inRanges(df.skip, n) { // (the other cases of a test table: testtables.go)
			return
		}
		d := n - line
		if d < 0 {
			d = -d
		}
		k := [2]string{qual, name}
		if gt != nil {
			tg, typed := dyn, true
			if id != nil || sel != nil {
				tg, typed = gt.targets(id, sel)
			}
			ty := typings[k]
			if ty == nil {
				ty = &typing{}
				typings[k] = ty
			}
			ty.typed = ty.typed || typed
			for _, t := range tg {
				if ty.seen == nil {
					ty.seen = map[goTarget]bool{}
				}
				if !ty.seen[t] {
					ty.seen[t] = true
					ty.targets = append(ty.targets, t)
				}
			}
		}
		if old, ok := best[k]; !ok || d < old {
			if !ok {
				order = append(order, k)
			}
			best[k] = d
		}
	}
	inSpan := func(n ast.Node) bool { l := lineOf(n.Pos()); return span.from <= l && l <= span.to }
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CompositeLit:
			if gt != nil && inSpan(x) {
				gt.noteBuilt(x) // a value of a type built (goimpl.go)
			}
		case *ast.CallExpr:
			if gt == nil {
				break
			}
			if inSpan(x) {
				gt.noteBuilt(x)
			}
			if name, tg, ok := gt.dynamicTargets(x); ok {
				add(funcValueQual, name, x.Lparen, nil, nil, tg...) // f(…) of a function value
			}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				add(id.Name, x.Sel.Name, x.Sel.Pos(), nil, x)
				add("", id.Name, id.Pos(), id, nil)
			} else {
				add(".", x.Sel.Name, x.Sel.Pos(), nil, x) // a method or field of an expression
				ast.Inspect(x.X, visit)
			}
			return false
		case *ast.Ident:
			add("", x.Name, x.Pos(), x, nil)
		}
		return true
	}
	for _, n := range scope {
		ast.Inspect(n, visit)
	}
	out := make([]defUse, 0, len(order))
	for _, k := range order {
		u := defUse{qual: k[0], name: k[1], dist: best[k]}
		if ty := typings[k]; ty != nil && ty.typed {
			u.typed, u.targets = true, ty.targets
		}
		u.typedFile = gt != nil
		out = append(out, u)
	}
	return span, out
}

// defs parses the file without comments and keeps only its spans (a package's
// syntax trees are not all kept): a span starts at the doc comment found on the
// lines right above the declaration (docStart).
func (l goLang) defs(df *defFile) []defSpan {
	var fset *token.FileSet
	var f *ast.File
	if p, ok := df.parsed.(goParsed); ok {
		fset, f = p.fset, p.file
	} else {
		defParsed.Add(1)
		fset, f = l.parse(df.src, 0)
	}
	if f == nil {
		return nil
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	start := func(_ *ast.CommentGroup, p token.Pos) int { return docStart(df.lines, lineOf(p)) }
	var out []defSpan
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *ast.FuncDecl:
			out = append(out, defSpan{name: x.Name.Name, from: start(x.Doc, x.Pos()), to: lineOf(x.End()), member: x.Recv != nil})
		case *ast.GenDecl:
			for _, s := range x.Specs {
				from, to := start(x.Doc, x.Pos()), lineOf(x.End())
				var names []string
				switch sp := s.(type) {
				case *ast.TypeSpec:
					if len(x.Specs) > 1 {
						from, to = start(sp.Doc, sp.Pos()), lineOf(sp.End())
					}
					names = []string{sp.Name.Name}
				case *ast.ValueSpec:
					if len(x.Specs) > 1 {
						from, to = start(sp.Doc, sp.Pos()), lineOf(sp.End())
					}
					for _, n := range sp.Names {
						names = append(names, n.Name)
					}
				}
				_, data := s.(*ast.ValueSpec)
				for _, n := range names {
					if n != "_" {
						out = append(out, defSpan{name: n, from: from, to: to, data: data})
					}
				}
			}
		}
	}
	return out
}

// module returns the folder and module path of the go.mod nearest above file.
func (goLang) module(proj *projfs.Root, file string) (dir, mod string) {
	for d := path.Dir(file); ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		// the module directive is at the top: its head is read (a whole read
		// takes a buffer of up to a MiB, and this runs for every checked package)
		if src, err := proj.ReadHead(path.Join(d, "go.mod"), 64<<10); err == nil {
			if mod, ok := frames.GoModulePath(src); ok {
				return d, mod
			}
			return "", ""
		}
		if d == "" {
			return "", ""
		}
	}
}

func (l goLang) imports(proj *projfs.Root, file string, src []byte) []defImport {
	_, f := l.parse(src, parser.ImportsOnly)
	if f == nil || len(f.Imports) == 0 {
		return nil
	}
	modDir, mod := l.module(proj, file)
	var out []defImport
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		local := ""
		if im.Name != nil {
			local = im.Name.Name
		}
		if local == "_" || local == "." {
			continue
		}
		var files []string
		if mod != "" && (p == mod || strings.HasPrefix(p, mod+"/")) {
			dir := path.Join(modDir, strings.TrimPrefix(strings.TrimPrefix(p, mod), "/"))
			for _, f := range listFolder(proj, dir, []string{".go"}) {
				if !strings.HasSuffix(f, "_test.go") {
					files = append(files, f)
				}
			}
		}
		if local == "" {
			local = l.pkgName(proj, files, p)
		}
		out = append(out, defImport{local: local, module: true, files: files})
	}
	return out
}

// pkgName is the package name of files (their package clause), else the import
// path's last element without a major version suffix.
func (l goLang) pkgName(proj *projfs.Root, files []string, importPath string) string {
	for _, f := range files {
		if src, err := proj.ReadHead(f, 64<<10); err == nil { // the package clause is near the top
			if _, af := l.parse(src, parser.PackageClauseOnly); af != nil && af.Name != nil {
				return af.Name.Name
			}
		}
	}
	elems := strings.Split(importPath, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	last = strings.TrimPrefix(last, "go-")
	return strings.ReplaceAll(last, "-", "_")
}

func (goLang) folder(proj *projfs.Root, file string) []string {
	test := strings.HasSuffix(file, "_test.go")
	var out []string
	for _, f := range listFolder(proj, dirOf(file), []string{".go"}) {
		if f != file && (test || !strings.HasSuffix(f, "_test.go")) {
			out = append(out, f)
		}
	}
	return out
}

func (goLang) wide([]string) (*regexp.Regexp, []string) { return nil, nil }
func (goLang) builtin(string) bool                      { return true }
