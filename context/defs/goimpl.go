package defs

import (
	"go/types"
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
