package defs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

const nestingSrc = `package p

func f(x int) int {
	y := 0
	if x == 1 {
		return 1
	} else if x == 2 {
		y = 2
	} else if x == 3 {
		g := func() int { return 3 }
		y = g()
	} else {
		switch x {
		case 4:
			return 4
		}
	}
	for i := 0; i < x; i++ {
		if i == 9 {
			y++
		}
	}
	return y
}
`

// holds reports whether n holds a return of its function, walking it.
func holds(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// returnHolders marks the nodes that hold a return of the function (not a
// closure's) as walking each node does; stmtEnds gives each statement's End.
func TestReturnHoldersAndStmtEnds(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", nestingSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	got := returnHolders(body)
	end := stmtEnds()
	n := 0
	ast.Inspect(body, func(m ast.Node) bool {
		if m == nil {
			return true
		}
		if _, ok := m.(*ast.FuncLit); ok {
			return false // (the value's path does not ask inside a closure)
		}
		if got[m] != holds(m) {
			t.Errorf("%T at line %d: returnHolders %v, walking it %v", m, fset.Position(m.Pos()).Line, got[m], holds(m))
		}
		if st, ok := m.(ast.Stmt); ok {
			n++
			if end(st) != st.End() {
				t.Errorf("%T at line %d: stmtEnds %v, End %v", m, fset.Position(m.Pos()).Line, end(st), st.End())
			}
		}
		return true
	})
	if n < 10 {
		t.Fatalf("only %d statements walked", n)
	}
}

// scopesDeeperThan counts the scopes a body nests: an if-else chain two a
// branch, a closure's body too.
func TestScopesDeeperThan(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", nestingSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	// body, if, else-if, else-if, else's block, switch, its block, case: 8
	if !scopesDeeperThan(body, 7) || scopesDeeperThan(body, 8) {
		t.Errorf("scopesDeeperThan(7) = %v, (8) = %v; want true, false", scopesDeeperThan(body, 7), scopesDeeperThan(body, 8))
	}
	var b strings.Builder
	b.WriteString("package p\n\nfunc g(x int) {\n\tif x == 0 {\n")
	for i := range 1000 {
		b.WriteString("\t} else if x == " + strings.Repeat("1", 1+i%3) + " {\n")
	}
	b.WriteString("\t}\n}\n")
	g, err := parser.ParseFile(fset, "g.go", b.String(), parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	if !scopesDeeperThan(g.Decls[0].(*ast.FuncDecl).Body, maxScopeDepth) {
		t.Errorf("a chain of 1,000 else-ifs is not deeper than %d scopes", maxScopeDepth)
	}
}
