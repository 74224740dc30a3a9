package defs

import (
	"go/ast"
	"go/token"
)

// Deeply nested Go code. go/types looks a name up through every scope
// around it, and go/ast finds the end of an if statement through each else
// of its chain: a generated function of 20,000 `else if` branches (40,000
// nested scopes) took seconds to type-check and to read the value's path of.
// A function body nested deeper than maxScopeDepth is not type-checked (its
// uses are looked up by name, as in an untyped file), and the value's path
// reads its statements' ends once each (goflow.go).

// maxScopeDepth is how deeply the scopes of a function body may nest for it
// to be type-checked (an if-else chain nests two a branch).
const maxScopeDepth = 500

// scopesDeeperThan reports whether the scopes of n (blocks, if, for, switch
// and select statements, their clauses, function literals) nest deeper than
// limit.
func scopesDeeperThan(n ast.Node, limit int) bool {
	var opened []bool // of the nodes being walked, whether each opens a scope
	depth := 0
	deep := false
	ast.Inspect(n, func(m ast.Node) bool {
		if deep {
			return false
		}
		if m == nil {
			if opened[len(opened)-1] {
				depth--
			}
			opened = opened[:len(opened)-1]
			return true
		}
		switch m.(type) {
		case *ast.BlockStmt, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt,
			*ast.CaseClause, *ast.CommClause, *ast.FuncLit:
			if depth++; depth > limit {
				deep = true
				return false
			}
			opened = append(opened, true)
		default:
			opened = append(opened, false)
		}
		return true
	})
	return deep
}

// returnHolders returns the nodes of body that hold a return statement of
// its function (not of a closure inside it), found in one walk: asked of
// each if of a chain of thousands, each walked the rest of the chain.
func returnHolders(body ast.Node) map[ast.Node]bool {
	out := map[ast.Node]bool{}
	var walking []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			walking = walking[:len(walking)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false // its returns are the closure's
		}
		walking = append(walking, n)
		if _, ok := n.(*ast.ReturnStmt); ok {
			for i := len(walking) - 1; i >= 0 && !out[walking[i]]; i-- {
				out[walking[i]] = true
			}
		}
		return true
	})
	return out
}

// stmtEnds returns a statement's End, an if's found once for its whole chain
// of elses (go/ast finds it through each else: asked of each if of a chain of
// thousands, quadratic).
func stmtEnds() func(ast.Stmt) token.Pos {
	ends := map[*ast.IfStmt]token.Pos{}
	var end func(ast.Stmt) token.Pos
	end = func(st ast.Stmt) token.Pos {
		x, ok := st.(*ast.IfStmt)
		if !ok || x.Else == nil {
			return st.End()
		}
		if e, ok := ends[x]; ok {
			return e
		}
		e := end(x.Else)
		ends[x] = e
		return e
	}
	return end
}
