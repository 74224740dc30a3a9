package defs

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Function values. Go code often reaches a function without calling it by
// name: a method value registered in a table (goldmark's
// reg.Register(ast.KindLink, r.renderLink)), a handler stored in a field, a
// callback returned, then called through the value (f := r.funcs[n.Kind()];
// f(w, src, n, entering)). A function or method value written in code on the
// path is a use like a call (the uses of go.go read every name); the call
// through the value is resolved here: a call whose callee is a variable, a
// field, an element or a result of func type (not a declared function, a
// method or a conversion) runs one of the project's functions or methods
// whose signature is that type's — the same parameter and result types,
// written with package paths, a method's receiver left out (a method value)
// or first (a method expression). With more than a
// handful of them which one runs is not known, and only those that write
// text the failure shows are looked up (failureWriters), with none when they
// cannot be told apart.

// funcValueQual is the qualifier of the use a call through a function value
// makes (its name is the value's type's).
const funcValueQual = "()"

// maxFuncValueTargets is how many functions one call through a value may
// resolve to; past it (func(), func(error)) the signature says nothing.
const maxFuncValueTargets = 48

// dynamicTargets returns the project functions and methods a call through a
// function value may run, and the name of the value's type ("func" when it
// is not named); ok is false when the call is not through a value.
func (gt *goTyped) dynamicTargets(call *ast.CallExpr) (name string, targets []goTarget, ok bool) {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.Ident:
		if _, isVar := gt.info.Uses[f].(*types.Var); !isVar {
			return "", nil, false
		}
	case *ast.SelectorExpr:
		if s, ok := gt.info.Selections[f]; ok {
			if s.Kind() != types.FieldVal {
				return "", nil, false // a method, a method value's call
			}
		} else if _, isVar := gt.info.Uses[f.Sel].(*types.Var); !isVar {
			return "", nil, false // pkg.F
		}
	case *ast.IndexExpr: // funcs[k](…), not f[T](…) of a generic function
		var id *ast.Ident
		switch x := ast.Unparen(f.X).(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		}
		if _, isFunc := gt.info.Uses[id].(*types.Func); id != nil && isFunc {
			return "", nil, false
		}
	case *ast.CallExpr, *ast.TypeAssertExpr:
	default:
		return "", nil, false
	}
	tv, known := gt.info.Types[fun]
	if !known || !isFuncValueType(tv) {
		return "", nil, false
	}
	sig := tv.Type.Underlying().(*types.Signature)
	name = "func"
	if n, isNamed := types.Unalias(tv.Type).(*types.Named); isNamed {
		name = n.Obj().Name()
	}
	return name, gt.withSignature(sig), true
}

// isFuncValueType reports whether tv is a value (not a type) of func type.
func isFuncValueType(tv types.TypeAndValue) bool {
	if tv.Type == nil || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	_, ok := tv.Type.Underlying().(*types.Signature)
	return ok
}

// withSignature returns the project's functions and methods (as method
// values) whose signature is sig's, by file and line; nil past
// maxFuncValueTargets. Read once per signature.
func (gt *goTyped) withSignature(sig *types.Signature) []goTarget {
	want := signatureText(sig)
	if gt.bySig == nil {
		gt.bySig = map[string][]goTarget{}
	}
	if out, ok := gt.bySig[want]; ok {
		return out
	}
	var out []goTarget
	if all := gt.ofSignature(want); len(all) <= maxFuncValueTargets {
		out = byFileLine(slices.Clone(all))
	}
	gt.bySig[want] = out
	return out
}

// signatureText is a signature's parameter and result types, named with
// their packages' paths (the receiver and the names left out).
func signatureText(sig *types.Signature) string {
	qual := func(p *types.Package) string { return p.Path() }
	var b strings.Builder
	for i, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		if i > 0 {
			b.WriteString(") (")
		}
		for j := range tup.Len() {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(types.TypeString(tup.At(j).Type(), qual))
		}
	}
	if sig.Variadic() {
		b.WriteString(" ...")
	}
	return b.String()
}

// Writers of the failure's text. Of the many functions a call may run (the
// registered renderers, an interface's fifteen implementations), those whose
// string literals the failure's text holds — the output, and the failing
// tests' own lines with what they expect (`<p><a href="">click</a></p>`
// holds renderLink's "<a href=" and renderImage's does not) — are the ones
// the failing case runs. A literal counts by its pieces (cut as msg.go cuts
// fragments: at escapes, format verbs and quotes) of at least minWriterPiece
// bytes holding a character that is neither a letter nor a digit (a lone word
// says nothing). When more than maxStdImpls of the functions write such text,
// it tells none of them apart.

const minWriterPiece = 4

// failureWriters returns the targets among tgs whose definitions write text
// the failure shows, nil when none does or more than maxStdImpls do.
func (d *defFinder) failureWriters(tgs []goTarget) map[goTarget]bool {
	if len(tgs) <= maxStdImpls {
		return nil
	}
	out := map[goTarget]bool{}
	for _, t := range tgs {
		if d.writesFailure(t) { // (gocache.go)
			out[t] = true
		}
	}
	if len(out) == 0 || len(out) > maxStdImpls {
		return nil
	}
	return out
}

// failureText is the failure's output and the lines of the failing tests'
// definitions (what they expect), read once.
func (d *defFinder) failureText() string {
	if d.failText != nil {
		return *d.failText
	}
	var b strings.Builder
	b.WriteString(d.req.Text)
	for _, loc := range d.req.Tests {
		lang := langFor(loc.File)
		if lang == nil {
			continue
		}
		f := d.file(loc.File, lang)
		if !f.ok {
			continue
		}
		for _, s := range f.defs {
			if s.from <= loc.Line && loc.Line <= s.to && !s.data {
				for n := s.from; n <= min(s.to, len(f.lines)); n++ {
					b.WriteString("\n" + f.lines[n-1])
				}
				break
			}
		}
	}
	t := b.String()
	d.failText = &t
	return t
}

// writesAny reports whether lines from..to (1-based) hold a string literal a
// piece of which the text has holds.
func writesAny(lines []string, from, to int, has func(string) bool) bool {
	for n := from; n <= to; n++ {
		for _, q := range msgQuotedRe.FindAllString(lines[n-1], -1) {
			s, err := strconv.Unquote(q)
			if err != nil {
				s = q[1 : len(q)-1]
			}
			for _, piece := range msgCutRe.Split(s, -1) {
				piece = strings.TrimSpace(piece)
				if len(piece) >= minWriterPiece && !wordOnly(piece) && has(piece) {
					return true
				}
			}
		}
	}
	return false
}

// wordOnly reports whether s is letters, digits and underscores only.
func wordOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' {
			return false
		}
	}
	return true
}
