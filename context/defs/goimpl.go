package defs

import (
	"go/ast"
	"go/types"
	"slices"
)

// Implementations across two copies of one package. A project package is
// type-checked twice when a hop brings it into play: first as an import of
// the package in play (declarations only), then again with its function
// bodies (gotypes.go's checkDir). The packages that imported the first copy
// keep its types, so an interface of the second copy (renderer.NodeRenderer,
// whose RegisterFuncs the in-play renderer calls) and a type of another
// package written against the first (html.Renderer) are not the same types to
// types.Implements, although they are to the developer. implementsAcross
// matches the methods by name and by signature as written with package paths
// instead, which the two copies share.

// implementer returns t or *t, the one whose method set has every method of
// iface, and whether one has.
func implementer(t types.Type, iface *types.Interface) (types.Type, bool) {
	if types.Implements(t, iface) {
		return t, true
	}
	if p := types.NewPointer(t); types.Implements(p, iface) {
		return p, true
	}
	for _, c := range []types.Type{t, types.NewPointer(t)} {
		if implementsAcross(c, iface) {
			return c, true
		}
	}
	return nil, false
}

// implementsAcross reports whether t's method set has every method of iface,
// each matched by name (an unexported one within a package of the same path)
// and by its signature written with package paths.
func implementsAcross(t types.Type, iface *types.Interface) bool {
	if iface.NumMethods() == 0 {
		return false // any value: not a call of a method
	}
	// most types lack the first method's name: rejected before a method set is made
	first := iface.Method(0)
	var pkg *types.Package
	if n := namedOf(t); n != nil {
		pkg = n.Obj().Pkg()
	}
	if obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, first.Name()); obj == nil {
		return false
	}
	ms := types.NewMethodSet(t)
	for i := range iface.NumMethods() {
		want := iface.Method(i)
		got := methodOf(ms, want)
		if got == nil || sigText(got) != sigText(want) {
			return false
		}
	}
	return true
}

// methodOf is the method of ms that stands for want: the same name, and for
// an unexported name a package of the same path.
func methodOf(ms *types.MethodSet, want *types.Func) *types.Func {
	for i := range ms.Len() {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok || fn.Name() != want.Name() {
			continue
		}
		if !fn.Exported() && (fn.Pkg() == nil || want.Pkg() == nil || fn.Pkg().Path() != want.Pkg().Path()) {
			continue
		}
		return fn
	}
	return nil
}

// sigText is a method's parameter and result types (signatureText).
func sigText(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return ""
	}
	return signatureText(sig)
}

// Implementations built in play. Of an interface's many implementations
// (glob's seventeen Matchers, goldmark's node kinds), the ones whose types the
// code read so far builds — a composite literal T{…} or &T{…}, new(T), a
// conversion T(x), a call of a function that returns a T (a constructor) —
// are the values the call can get: they rank as typed definitions, the
// others stay loose (ranked after the hop's typed definitions). "Read so
// far" is the failing lines and the definitions whose uses were read before
// (the hops in rank order): a value the failing test or the code it calls
// builds on the way.

// noteImplementation records that m implements an interface's method for
// the type t.
func (gt *goTyped) noteImplementation(m *types.Func, t types.Type) {
	if m == nil {
		return
	}
	tg, ok := gt.target(m)
	k := typeKey(t)
	if !ok || k == "" {
		return
	}
	if gt.impls == nil {
		gt.impls = map[goTarget][]string{}
	}
	if !slices.Contains(gt.impls[tg], k) {
		gt.impls[tg] = append(gt.impls[tg], k)
	}
}

// noteBuilt records the project types whose values expression e builds.
func (gt *goTyped) noteBuilt(e ast.Expr) {
	var t types.Type
	switch x := e.(type) {
	case *ast.CompositeLit:
		if tv, ok := gt.info.Types[x]; ok {
			t = tv.Type
		}
	case *ast.CallExpr:
		fun := ast.Unparen(x.Fun)
		if tv, ok := gt.info.Types[fun]; ok && tv.IsType() {
			t = tv.Type // a conversion
		} else if id, ok := fun.(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 {
			if tv, ok := gt.info.Types[x.Args[0]]; ok && tv.IsType() {
				t = tv.Type
			}
		} else if tv, ok := gt.info.Types[x]; ok && tv.Type != nil {
			t = tv.Type // what a call returns (a constructor's value)
			if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
				t = tup.At(0).Type()
			}
		}
	}
	k := typeKey(t)
	if k == "" {
		return
	}
	if gt.built == nil {
		gt.built = map[string]bool{}
	}
	gt.built[k] = true
}

// typeKey names a named (or pointer to named) project type by its package's
// path and its name, the same for the two checks of a package; "" for
// another.
func typeKey(t types.Type) string {
	if t == nil {
		return ""
	}
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil || types.IsInterface(n) {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// builtImplementations returns the targets among tgs (an interface's many
// implementations) whose types the code read so far builds; nil when there
// are few targets, none is built, or more than maxStdImpls are.
func (gt *goTyped) builtImplementations(tgs []goTarget) map[goTarget]bool {
	if gt == nil || len(tgs) <= maxStdImpls || len(gt.built) == 0 {
		return nil
	}
	out := map[goTarget]bool{}
	for _, t := range tgs {
		for _, k := range gt.impls[t] {
			if gt.built[k] {
				out[t] = true
			}
		}
	}
	if len(out) == 0 || len(out) > maxStdImpls {
		return nil
	}
	return out
}
