package defs

import (
	"go/ast"
	"go/token"
	"slices"
)

// flowsTo returns the names of the functions and methods whose results flow
// into a value of the Go function that s spans, each with how directly. With
// at 0 the value is what the function returns: 0 for a call in a return
// statement, 1 for one in the value of a variable it returns (assigned to it,
// or called with it as the receiver or an argument: a buffer a helper writes)
// or in the condition of an if or switch that holds a return. With at a line
// of the function (the failing line) the value is what the statement at that
// line reads: 0 for a call in it, 1 for one in the value of a variable it
// reads, 2 for one in the value of a variable those calls read (the got of
// t.Errorf("… %v", diff) after diff := cmp.Diff(want, got) and got :=
// Parse(in)). Variables are told apart by name only. Nil when there is no such
// function (or it returns nothing).
func (l goLang) flowsTo(df *defFile, s defSpan, at int) map[string]int {
	fset, f := l.parsed(df)
	if f == nil {
		return nil
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if from, to := lineOf(fd.Pos()), lineOf(fd.End()); at == 0 && s.from <= from && to <= s.to || at > 0 && from <= at && at <= to {
			fn = fd
			break
		}
	}
	if fn == nil || at == 0 && (fn.Type.Results == nil || len(fn.Type.Results.List) == 0) {
		return nil
	}
	locals := localNames(fn)
	vars := map[string]int{} // the variables whose values flow, with the round they were found in
	if at == 0 {
		for _, r := range fn.Type.Results.List {
			for _, n := range r.Names {
				vars[n.Name] = 0
			}
		}
	}
	names := map[string]int{}
	// root marks what an expression calls and the local variables it reads
	// as flowing in round r
	root := func(e ast.Node, r int) {
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if name := calledName(x.Fun); name != "" {
					if old, ok := names[name]; !ok || r < old {
						names[name] = r
					}
				}
			case *ast.Ident:
				if _, ok := vars[x.Name]; locals[x.Name] && !ok {
					vars[x.Name] = r
				}
			}
			return true
		})
	}
	rounds := maxFlowRound
	if at == 0 {
		// the returns, and the conditions that choose among them
		holdsReturn := returnHolders(fn.Body) // (nesting.go)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false // its returns are the closure's
			case *ast.ReturnStmt:
				for _, e := range x.Results {
					root(e, 0)
				}
			case *ast.IfStmt:
				if holdsReturn[x.Body] || (x.Else != nil && holdsReturn[x.Else]) {
					root(x.Cond, 1)
				}
			case *ast.SwitchStmt:
				if x.Tag != nil && holdsReturn[x.Body] {
					root(x.Tag, 1)
				}
			}
			return true
		})
	} else {
		// the statement at the line (of an if, for or switch whose body
		// holds more: its head)
		var at0 ast.Stmt
		end := stmtEnds() // (nesting.go)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if st, ok := n.(ast.Stmt); ok {
				if lineOf(st.Pos()) <= at && at <= lineOf(end(st)) {
					if _, block := st.(*ast.BlockStmt); !block {
						at0 = st
					}
				}
			}
			return true
		})
		if at0 == nil {
			return nil
		}
		for _, e := range stmtHead(at0) {
			root(e, 0)
		}
		rounds++
	}
	// what writes the variables found in the round before, up to
	// maxFlowRound steps from a return (one more from a failing statement)
	flowing := func(e ast.Expr, r int) bool {
		id := rootIdent(e)
		if id == nil {
			return false
		}
		got, ok := vars[id.Name]
		return ok && got == r
	}
	for r := 1; r <= rounds; r++ {
		before := len(vars)
		reads := func(e ast.Expr) bool { return flowing(e, r-1) }
		// what writes a flowing variable makes its value
		writes := func(lhs []ast.Expr, rhs ...ast.Node) {
			if slices.ContainsFunc(lhs, reads) {
				for _, e := range rhs {
					root(e, r)
				}
			}
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				writes(x.Lhs, exprNodes(x.Rhs)...)
			case *ast.ValueSpec:
				names := make([]ast.Expr, len(x.Names))
				for i, id := range x.Names {
					names[i] = id
				}
				writes(names, exprNodes(x.Values)...)
			case *ast.RangeStmt:
				writes([]ast.Expr{x.Key, x.Value}, x.X)
			case *ast.CallExpr:
				// a call on a flowing variable, or given one, writes it
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && reads(sel.X) || slices.ContainsFunc(x.Args, reads) {
					root(x, r)
				}
			}
			return true
		})
		if len(vars) == before {
			break
		}
	}
	return names
}

// exprNodes is es as nodes.
func exprNodes(es []ast.Expr) []ast.Node {
	out := make([]ast.Node, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// stmtHead is what a statement reads before its body: the init and condition
// of an if or for, the tag of a switch, the ranged value; a simple statement
// whole.
func stmtHead(st ast.Stmt) []ast.Node {
	var out []ast.Node
	add := func(ns ...ast.Node) {
		for _, n := range ns {
			if n != nil {
				out = append(out, n)
			}
		}
	}
	switch x := st.(type) {
	case *ast.IfStmt:
		add(x.Init, x.Cond)
	case *ast.ForStmt:
		add(x.Init, x.Cond, x.Post)
	case *ast.RangeStmt:
		add(x.X)
	case *ast.SwitchStmt:
		add(x.Init, x.Tag)
	case *ast.TypeSwitchStmt:
		add(x.Init, x.Assign)
	case *ast.SelectStmt, *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
	default:
		add(st)
	}
	return out
}

// localNames returns the names of fn's receiver, parameters, results and the
// variables its body declares or assigns (a package's names are not).
func localNames(fn *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	fields := []*ast.FieldList{fn.Recv, fn.Type.Params, fn.Type.Results}
	for _, fl := range fields {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				out[n.Name] = true
			}
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, e := range x.Lhs {
				if id, ok := e.(*ast.Ident); ok {
					out[id.Name] = true
				}
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				out[id.Name] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if id, ok := e.(*ast.Ident); ok {
					out[id.Name] = true
				}
			}
		}
		return true
	})
	delete(out, "_")
	return out
}

// calledName is the name a call's function expression calls: F of F(…),
// pkg.F(…) and x.y.M(…), "" for a function value built in place.
func calledName(fun ast.Expr) string {
	switch x := fun.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.IndexExpr: // F[T](…)
		return calledName(x.X)
	case *ast.IndexListExpr:
		return calledName(x.X)
	case *ast.ParenExpr:
		return calledName(x.X)
	}
	return ""
}

// rootIdent is the variable an expression reads or writes through: x of x,
// &x, *x, x.f, x[i]; nil for anything else.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}
