package defs

import (
	"go/types"
	"index/suffixarray"
	"slices"
	"strings"
)

// Indexes of the checked packages' functions and types, for the lookups a
// use of a typed file makes again and again: the functions of a signature (a
// call through a function value, funcvalues.go), the implementations of an
// interface's method (gotypes.go's implementations) and the methods of a name
// (stdiface.go). Each went over every type or function of every checked
// package per use, and a failing function of two hundred interface calls in a
// package of thousands of types (goldmark's ast.Node methods) made that the
// most of a base context; a package is now read once for each signature text,
// interface and method name, when it is first asked for. A package's
// declarations do not change once it is checked (its bodies, checked later,
// declare nothing at package level), and the packages are only ever added to
// (gt.own), so what was read of one stays true.

// goIndex is what the lookups read of the checked packages so far.
type goIndex struct {
	sigDone map[*types.Package]bool
	bySig   map[string][]goTarget  // functions and methods by signature text
	sigSeen map[sigTarget]bool     // (a package's two checks declare each function twice)
	impls   map[implKey][]implType // the implementers of an interface in a package
	calls   map[implCall][]goTarget
	methods map[namesKey][]goTarget
}

type sigTarget struct {
	sig string
	t   goTarget
}

type implKey struct {
	iface *types.Interface
	pkg   *types.Package
}

// implCall is an interface's method asked for when n packages were checked.
type implCall struct {
	iface *types.Interface
	name  string
	n     int
}

// implType is a type implementing an interface: t, and the method set of t or
// *t, the one that has every method.
type implType struct {
	t  types.Type
	ms *types.MethodSet
}

// namesKey is a method name asked for when n packages were checked.
type namesKey struct {
	name string
	n    int
}

func (gt *goTyped) idx() *goIndex {
	if gt.index == nil {
		gt.index = &goIndex{sigDone: map[*types.Package]bool{}, bySig: map[string][]goTarget{}, sigSeen: map[sigTarget]bool{},
			impls: map[implKey][]implType{}, calls: map[implCall][]goTarget{}, methods: map[namesKey][]goTarget{}}
	}
	return gt.index
}

// ofSignature returns the functions and methods of the checked packages whose
// signature text is want: a function's own, a method's as a value (x.m, the
// receiver left out) or as an expression ((*T).m, the receiver first), by
// file and line. The slice is the index's: not to be changed.
func (gt *goTyped) ofSignature(want string) []goTarget {
	ix := gt.idx()
	for pkg := range gt.own {
		if ix.sigDone[pkg] {
			continue
		}
		ix.sigDone[pkg] = true
		add := func(sig string, fn *types.Func) {
			tg, ok := gt.target(fn)
			if k := (sigTarget{sig, tg}); ok && !ix.sigSeen[k] {
				ix.sigSeen[k] = true
				ix.bySig[sig] = append(ix.bySig[sig], tg)
			}
		}
		fn := func(fn *types.Func) {
			goIndexReads.Add(1)
			s, ok := fn.Type().(*types.Signature)
			if !ok {
				return
			}
			add(signatureText(s), fn)
			if recv := s.Recv(); recv != nil {
				params := []*types.Var{recv}
				for i := range s.Params().Len() {
					params = append(params, s.Params().At(i))
				}
				add(signatureText(types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), s.Results(), s.Variadic())), fn)
			}
		}
		scope := pkg.Scope()
		for _, n := range scope.Names() {
			switch o := scope.Lookup(n).(type) {
			case *types.Func:
				fn(o)
			case *types.TypeName:
				if named, ok := types.Unalias(o.Type()).(*types.Named); ok && !types.IsInterface(named) {
					for i := range named.NumMethods() {
						fn(named.Method(i))
					}
				}
			}
		}
	}
	return ix.bySig[want]
}

// implementersIn returns the non-interface types of pkg that implement iface,
// each with the method set that has its methods (implementer), read once
// per package and interface.
func (gt *goTyped) implementersIn(pkg *types.Package, iface *types.Interface) []implType {
	ix := gt.idx()
	k := implKey{iface, pkg}
	if out, ok := ix.impls[k]; ok {
		return out
	}
	out := []implType{}
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || types.IsInterface(tn.Type()) {
			continue
		}
		goIndexReads.Add(1)
		if it, ok := implementer(tn.Type(), iface); ok {
			out = append(out, implType{tn.Type(), types.NewMethodSet(it)})
		}
	}
	ix.impls[k] = out
	return out
}

// byFileLine orders targets by file and line, then name (two on one line),
// without duplicates.
func byFileLine(out []goTarget) []goTarget {
	slices.SortFunc(out, func(a, b goTarget) int {
		if a.file != b.file {
			return strings.Compare(a.file, b.file)
		}
		if a.line != b.line {
			return a.line - b.line
		}
		return strings.Compare(a.name, b.name)
	})
	return slices.Compact(out)
}

// defAt returns the first of f's definitions named name whose lines hold
// line (a typed use's target: the declaration's line). A Go file's
// definitions of one name are in the order of their lines and do not overlap
// (two hundred Render methods of one file): the one that can hold line is
// found by a binary search.
func (f *defFile) defAt(name string, line int) (defSpan, bool) {
	nd := f.named(name)
	k := 0
	if nd.ordered { // the first whose lines end at line or below it
		k, _ = slices.BinarySearchFunc(nd.idx, line, func(i, line int) int {
			if f.defs[i].to < line {
				return -1
			}
			return 1
		})
	}
	for ; k < len(nd.idx); k++ {
		if s := f.defs[nd.idx[k]]; s.from <= line && line <= s.to {
			return s, true
		} else if nd.ordered && s.from > line {
			break
		}
	}
	return defSpan{}, false
}

// named returns the indexes in f.defs of the definitions named name, in
// their order (an index of the file's names made when first asked: a
// class of a registry of four thousand is looked up by name thousands of
// times).
func (f *defFile) named(name string) namedDefs {
	if f.byName == nil {
		f.byName = map[string]namedDefs{}
		for i, s := range f.defs {
			nd := f.byName[s.name]
			if n := len(nd.idx); n == 0 {
				nd.ordered = true
			} else if f.defs[nd.idx[n-1]].to >= s.from {
				nd.ordered = false
			}
			nd.idx = append(nd.idx, i)
			f.byName[s.name] = nd
		}
	}
	return f.byName[name]
}

// namedOrAll returns the indexes of f's definitions named name, or of all
// of them when all.
func (f *defFile) namedOrAll(name string, all bool) []int {
	if !all {
		return f.named(name).idx
	}
	out := make([]int, len(f.defs))
	for i := range out {
		out[i] = i
	}
	return out
}

// namedDefs are the indexes in a file's defs of one name's definitions;
// ordered: each ends before the next starts.
type namedDefs struct {
	idx     []int
	ordered bool
}

// writesFailure reports whether t's definition writes text the failure shows
// (failureWriters), read once per target.
func (d *defFinder) writesFailure(t goTarget) bool {
	if w, ok := d.writes[t]; ok {
		return w
	}
	w := false
	if f := d.file(t.file, goLang{}); f.ok {
		if s, ok := f.defAt(t.name, t.line); ok {
			w = writesAny(f.lines, s.from, min(s.to, len(f.lines)), d.failureHas())
		}
	}
	if d.writes == nil {
		d.writes = map[goTarget]bool{}
	}
	d.writes[t] = w
	return w
}

// maxTargetHits is how many definitions one typed use adds: an interface of
// thousands of implementations (generated types of one interface, each of
// whose methods calls the interface again) made thousands of hits for each
// definition that calls it, hundreds of megabytes in the hops. Past it, which
// one runs is not known anyway (they rank after every hop, maxStdImpls): the
// ones the failure tells apart (writers, built) are kept, then the nearest to
// the use.
const maxTargetHits = 64

// fewTargets returns tgs, or past maxTargetHits of them the ones writers or
// built hold and the nearest others to p (its file, its folder, then by the
// folders between), maxTargetHits in all.
func fewTargets(p defPoint, tgs []goTarget, writers, built map[goTarget]bool) []goTarget {
	if len(tgs) <= maxTargetHits {
		targetHits.Add(int64(len(tgs)))
		return tgs
	}
	targetHits.Add(maxTargetHits)
	rank := func(t goTarget) [3]int {
		return [3]int{btoi(!writers[t] && !built[t]), nearTier(p, t.file), pathDistance(p.file, t.file)}
	}
	out := slices.Clone(tgs)
	slices.SortStableFunc(out, func(a, b goTarget) int {
		ra, rb := rank(a), rank(b)
		return slices.Compare(ra[:], rb[:])
	})
	return out[:maxTargetHits]
}

// failureHas reports whether the failure's text (failureText) holds a
// string: through a suffix array of the text when it is long — a pasted log
// of a megabyte was searched again for each piece of each string literal of
// thousands of implementations (over a second).
func (d *defFinder) failureHas() func(string) bool {
	if d.failHas == nil {
		text := d.failureText()
		if len(text) < 64<<10 {
			d.failHas = func(s string) bool { return strings.Contains(text, s) }
		} else {
			idx := suffixarray.New([]byte(text))
			d.failHas = func(s string) bool { return len(idx.Lookup([]byte(s), 1)) > 0 }
		}
	}
	return d.failHas
}
