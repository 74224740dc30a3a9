package defs

import (
	"fmt"
	"go/ast"
	"path"
	"slices"
	"strings"
	"testing"

	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// typedUse is what the type check says of one identifier or selector in a
// function body: its targets and whether it was typed.
type typedUse struct {
	targets []goTarget
	typed   bool
}

// checkedFolder type-checks the package of dir (with its test files, as a
// package in play) in a project rooted at root, checking every function body,
// and returns the typing of each identifier and selector in the bodies, by
// position. whole: the package is checked at once (else its bodies are
// checked afterwards, one at a time, as the uses of each are read).
func checkedFolder(t *testing.T, files *projfs.Root, dir string, whole bool) map[string]typedUse {
	t.Helper()
	d := &defFinder{proj: files, files: map[string]*defFile{}, imports: map[string][]defImport{}, folders: map[string][]string{}}
	d.tree = files.Tree(projfs.TreeOptions{})
	d.typed().whole = whole
	var test string
	for _, rel := range listFolder(files, dir, []string{".go"}) {
		if strings.HasSuffix(rel, "_test.go") {
			test = rel
			break
		}
	}
	if test == "" {
		t.Fatalf("%s has no test file", dir)
	}
	d.typeCheck(test)
	gt := d.typed()
	out := map[string]typedUse{}
	checked := 0
	for rel, f := range d.files {
		p, ok := f.parsed.(goParsed)
		if path.Dir(rel) != dir || !ok || p.typed == nil || !p.bodies {
			continue
		}
		checked++
		var bodies []ast.Node
		for _, decl := range p.file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				bodies = append(bodies, fd)
			}
		}
		// one at a time, as the uses of definitions are read
		for _, fd := range bodies {
			gt.checkBodies([]ast.Node{fd})
		}
		for _, fd := range bodies {
			ast.Inspect(fd.(*ast.FuncDecl).Body, func(n ast.Node) bool {
				var key string
				var tu typedUse
				switch x := n.(type) {
				case *ast.SelectorExpr:
					key = "sel " + gt.fset.Position(x.Sel.Pos()).String()
					tu.targets, tu.typed = gt.targets(nil, x)
				case *ast.Ident:
					key = "id " + gt.fset.Position(x.Pos()).String()
					tu.targets, tu.typed = gt.targets(x, nil)
				default:
					return true
				}
				out[key] = tu
				return true
			})
		}
	}
	if checked < 2 {
		t.Fatalf("%s: %d files type-checked", dir, checked)
	}
	return out
}

// A package in play whose function bodies are checked one by one, when their
// uses are read, types every identifier and selector of them as a check of the
// whole package does: the same definitions (receivers' methods, fields'
// types, interface implementations) and the same untyped ones. Checked on
// packages of this repository with their tests.
func TestLazyBodiesTypeAsTheWholePackage(t *testing.T) {
	files := projfstest.Open(t, "../..", projfs.Options{})
	for _, dir := range []string{"context/defs", "redact", "session", "projfs", "apply"} {
		t.Run(dir, func(t *testing.T) {
			whole := checkedFolder(t, files, dir, true)
			lazy := checkedFolder(t, files, dir, false)
			if len(whole) < 1000 {
				t.Fatalf("only %d uses typed in %s", len(whole), dir)
			}
			typed, targets := 0, 0
			var diffs []string
			for k, w := range whole {
				l, ok := lazy[k]
				if !ok || l.typed != w.typed || !slices.Equal(l.targets, w.targets) {
					diffs = append(diffs, fmt.Sprintf("%s: whole %v, lazily %v", k, w, l))
				}
				if w.typed {
					typed++
				}
				if len(w.targets) > 0 {
					targets++
				}
			}
			if len(lazy) != len(whole) {
				diffs = append(diffs, fmt.Sprintf("%d uses lazily, %d whole", len(lazy), len(whole)))
			}
			slices.Sort(diffs)
			if len(diffs) > 0 {
				t.Fatalf("%d differences, the first:\n%s", len(diffs), strings.Join(diffs[:min(10, len(diffs))], "\n"))
			}
			t.Logf("%s: %d uses, %d typed, %d with project targets: the same", dir, len(whole), typed, targets)
		})
	}
}

// A body is checked when its uses are first read, not before: after the
// package's check the failing test's body has no types; reading its uses types
// them, and another function's body stays unchecked.
func TestLazyBodyIsCheckedWhenItsUsesAreRead(t *testing.T) {
	root, _ := typedFixture(t, "router")
	files := projfstest.Open(t, root, projfs.Options{})
	d := &defFinder{proj: files, files: map[string]*defFile{}, imports: map[string][]defImport{}, folders: map[string][]string{}}
	d.tree = files.Tree(projfs.TreeOptions{})
	d.typeCheck("mux_test.go")
	gt := d.typed()
	f := d.files["mux_test.go"]
	p := f.parsed.(goParsed)
	var test, other *ast.FuncDecl
	for _, decl := range p.file.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
			if strings.HasPrefix(fd.Name.Name, "Test") && test == nil {
				test = fd
			} else if other == nil {
				other = fd
			}
		}
	}
	if test == nil || other == nil {
		t.Fatal("mux_test.go has no test and other function")
	}
	typedIn := func(fd *ast.FuncDecl) int {
		n := 0
		ast.Inspect(fd.Body, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && gt.info.Uses[id] != nil {
				n++
			}
			return true
		})
		return n
	}
	if typedIn(test) != 0 || typedIn(other) != 0 {
		t.Fatalf("bodies typed before their uses were read: %d, %d", typedIn(test), typedIn(other))
	}
	line := gt.fset.Position(test.Body.Lbrace).Line + 1
	_, uses := goLang{}.uses(f, line, maxUseSpan/2)
	if typedIn(test) == 0 {
		t.Fatal("reading the test's uses did not type its body")
	}
	typedUses := 0
	for _, u := range uses {
		if u.typed {
			typedUses++
		}
	}
	if typedUses == 0 {
		t.Fatalf("no use of the test typed: %+v", uses)
	}
	if typedIn(other) != 0 {
		t.Fatalf("%s typed though its uses were not read", other.Name.Name)
	}
}
