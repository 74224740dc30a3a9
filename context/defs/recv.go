package defs

import (
	"strings"

	"fixplan/internal/lazyre"
)

// What a Python or TS/JS qualifier is known to be, from what the line
// heuristics can see (no type checker runs for these languages):
//
//   - self and cls (Python), this (TS/JS) are the class around the use;
//   - a variable of the function made by a constructor call (`x = Cart(…)`,
//     `const x = new Cart(…)`) or annotated with a class (`x: Cart`, a
//     parameter `cart: Cart`) is of that class;
//   - an attribute assigned so in the class (`self.cart = Cart(…)`,
//     `this.cart = new Cart(…)`) or declared with a class (`cart: Cart` in the
//     class body, a TS constructor parameter property) is of that class.
//
// A use whose qualifier is known so (recv) is looked up among the members of
// that class — the class found in the same file, what the file imports, or its
// folder — and of its base classes in the project; the same-named methods of
// other classes are then not shown. When the class or the member is not in the
// project (a library class), the name-only lookup runs, ranked after the typed
// hits (nameOnlyTier), as for Go.

// recvRules are one language's patterns; every pattern's first group is the
// name, its last non-empty group the class (see classOfMatch).
type recvRules struct {
	self  []string     // qualifiers naming the class around the use
	local []*lazyre.RE // in the function around the use: variables
	attr  []*lazyre.RE // in the class around the use: attributes of self/this
}

var (
	pyRecv = recvRules{
		self: []string{"self", "cls"},
		local: []*lazyre.RE{
			// x = Cart(…), x: Cart = …, x: Optional[Cart] = …
			lazyre.New(`^\s*([A-Za-z_]\w*)\s*(?::\s*(?:Optional\[)?([A-Za-z_][\w.]*)[^=]*)?=\s*([A-Za-z_][\w.]*)\s*\(`),
			// parameters and bare annotations: cart: Cart
			lazyre.New(`([A-Za-z_]\w*)\s*:\s*(?:Optional\[)?([A-Za-z_][\w.]*)`),
		},
		attr: []*lazyre.RE{
			lazyre.New(`\bself\.([A-Za-z_]\w*)\s*(?::\s*(?:Optional\[)?([A-Za-z_][\w.]*)[^=]*)?=\s*([A-Za-z_][\w.]*)\s*\(`),
			lazyre.New(`\bself\.([A-Za-z_]\w*)\s*:\s*(?:Optional\[)?([A-Za-z_][\w.]*)`),
			// a class-body annotation (dataclass field): cart: Cart
			lazyre.New(`^\s+([A-Za-z_]\w*)\s*:\s*(?:Optional\[)?([A-Za-z_][\w.]*)`),
		},
	}
	tsRecv = recvRules{
		self: []string{"this"},
		local: []*lazyre.RE{
			// const x = new Cart(…), let x: Cart = …
			lazyre.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*([A-Za-z_$][\w$.]*)[^=]*)?=\s*(?:await\s+)?(?:new\s+([A-Za-z_$][\w$.]*))?`),
			// parameters: (cart: Cart, …)
			lazyre.New(`([A-Za-z_$][\w$]*)\s*[?!]?:\s*([A-Za-z_$][\w$.]*)`),
		},
		attr: []*lazyre.RE{
			lazyre.New(`\bthis\.([A-Za-z_$][\w$]*)\s*=\s*new\s+([A-Za-z_$][\w$.]*)`),
			// fields and constructor parameter properties: private cart: Cart
			lazyre.New(`^\s*(?:(?:public|private|protected|readonly|static|declare)\s+)*#?([A-Za-z_$][\w$]*)\s*[?!]?:\s*([A-Za-z_$][\w$.]*)`),
			lazyre.New(`\b(?:public|private|protected|readonly)\s+([A-Za-z_$][\w$]*)\s*[?]?:\s*([A-Za-z_$][\w$.]*)`),
		},
	}
)

// classOfMatch returns the name and the class of a match of a recvRules
// pattern: the class is the last non-empty group after the name; "" when it
// does not look like a class (classes are capitalised by convention in both
// languages: `x: int`, `n = len(…)` and `ok = check(…)` are not classes).
func classOfMatch(m []string) (string, string) {
	if len(m) < 3 {
		return "", ""
	}
	cls := ""
	for _, g := range m[2:] {
		if g != "" {
			cls = g
		}
	}
	last := cls[strings.LastIndexByte(cls, '.')+1:]
	if last == "" || last[0] < 'A' || last[0] > 'Z' {
		return m[1], ""
	}
	return m[1], cls
}

// classAt returns the innermost class of f whose body holds line, nil when
// line is in none.
func classAt(f *defFile, line int) *defSpan {
	var in *defSpan
	for i := range f.defs {
		s := &f.defs[i]
		if s.class && s.from <= line && line <= s.end && (in == nil || s.from > in.from) {
			in = s
		}
	}
	return in
}

// typeUses sets the recv of the uses whose qualifier the lines show the class
// of; blank returns line i (0-based) of the file with strings and comments
// blanked, span is the function around the use.
func typeUses(f *defFile, blank func(int) string, r recvRules, span lineRange, line int, uses []defUse) {
	cls := classAt(f, line)
	locals := map[string]string{}
	for i := span.from - 1; i < span.to; i++ {
		l := blank(i)
		for _, re := range r.local {
			for _, m := range re.FindAllStringSubmatch(l, -1) {
				if name, c := classOfMatch(m); c != "" {
					locals[name] = c
				}
			}
		}
	}
	var attrs map[string]string // read only when a chain needs them
	for i := range uses {
		u := &uses[i]
		u.typedFile = true // a member use of unknown class: name only, after the typed hits
		switch {
		case u.qual == "":
		case isSelf(r, u.qual):
			if cls != nil {
				u.recv = cls.name
			}
		case isSelf(r, u.prev):
			if cls == nil {
				break
			}
			if attrs == nil {
				attrs = classAttrs(blank, r, cls, len(f.lines))
			}
			u.recv = attrs[u.qual]
		default:
			u.recv = locals[u.qual]
		}
	}
}

func isSelf(r recvRules, q string) bool {
	for _, s := range r.self {
		if q == s {
			return true
		}
	}
	return false
}

// classAttrs returns the attributes of a class whose class its body shows.
func classAttrs(blank func(int) string, r recvRules, cls *defSpan, n int) map[string]string {
	out := map[string]string{}
	for i := cls.from; i < min(cls.end, n); i++ {
		l := blank(i)
		for _, re := range r.attr {
			for _, m := range re.FindAllStringSubmatch(l, -1) {
				if name, c := classOfMatch(m); c != "" {
					out[name] = c
				}
			}
		}
	}
	return out
}

// classRef is a class definition in a file.
type classRef struct {
	file string
	span defSpan
}

// maxBaseDepth is how many base classes up a member is looked for.
const maxBaseDepth = 3

// addMembersOf adds the members named u.name of the class u.recv (found from
// the use's file) or, when it has none, of its base classes in the project;
// false when neither is found.
func (d *defFinder) addMembersOf(lang defLang, p defPoint, u defUse, imps []defImport, folder []string, hits *[]defHit) bool {
	level := d.findClasses(lang, p.file, u.recv, imps, folder)
	seen := map[classRef]bool{}
	for depth := 0; depth <= maxBaseDepth && len(level) > 0; depth++ {
		var next []classRef
		found := false
		for _, c := range level {
			if seen[c] {
				continue
			}
			seen[c] = true
			f := d.file(c.file, lang)
			for _, i := range f.named(u.name).idx { // (gocache.go)
				s := f.defs[i]
				if !s.member || s.from <= c.span.from || s.from > c.span.end {
					continue
				}
				found = true
				if c.file == p.file && s.from <= p.line && p.line <= s.to {
					break // the method the failure is in
				}
				*hits = append(*hits, defHit{file: c.file, span: s, tier: nearTier(p, c.file), dist: u.dist, point: u.point, usedAt: p,
					pathDist: pathDistance(p.file, c.file)})
				break
			}
			if found {
				continue
			}
			cimps, cfolder := d.context(lang, c.file, f.src)
			for _, b := range strings.Split(c.span.bases, ",") {
				if b == "" {
					continue
				}
				next = append(next, d.findClasses(lang, c.file, b, cimps, cfolder)...)
			}
		}
		if found {
			return true
		}
		level = next
	}
	return false
}

// findClasses returns the classes named name as file sees it: mod.C in the
// module mod imports, else C in file itself, then what file imports as C, then
// the other files of its folder.
func (d *defFinder) findClasses(lang defLang, file, name string, imps []defImport, folder []string) []classRef {
	// in returns the classes named cname of file f, or of the files f
	// re-exports it from (a package's __init__.py, an index.ts), up to
	// maxReexports files away
	var in func(f string, cname string, depth int) []classRef
	in = func(f string, cname string, depth int) []classRef {
		df := d.file(f, lang)
		var out []classRef
		for _, i := range df.named(cname).idx { // (gocache.go)
			if s := df.defs[i]; s.class {
				out = append(out, classRef{f, s})
			}
		}
		if len(out) > 0 || depth == maxReexports || !df.ok {
			return out
		}
		fimps, _ := d.context(lang, f, df.src)
		for _, im := range fimps {
			if im.module || im.local != cname {
				continue
			}
			for _, next := range im.files {
				if next != f {
					out = append(out, in(next, im.orig, depth+1)...)
				}
			}
		}
		return out
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		mod, cname := name[:i], name[i+1:]
		var out []classRef
		for _, im := range imps {
			if im.module && im.local == mod {
				for _, f := range im.files {
					out = append(out, in(f, cname, 0)...)
				}
			}
		}
		return out
	}
	if out := in(file, name, maxReexports); len(out) > 0 {
		return out
	}
	var out []classRef
	for _, im := range imps {
		if im.module || im.local != name {
			continue
		}
		for _, f := range im.files {
			if im.orig == "default" {
				df := d.file(f, lang)
				for _, s := range df.defs {
					if s.class && s.dflt {
						out = append(out, classRef{f, s})
					}
				}
				continue
			}
			out = append(out, in(f, im.orig, 0)...)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, f := range folder {
		out = append(out, in(f, name, maxReexports)...)
	}
	return out
}

// ctorCallRe finds a method called on an object constructed on the spot:
// `Splitter(…).process(…)` (Python), `new Splitter(…).process(…)` (TS/JS),
// arguments without nested brackets.
var ctorCallRe = lazyre.New(`(?:\bnew\s+)?\b((?:[A-Za-z_$][\w$]*\.)?[A-Z][\w$]*)\s*\([^()]*\)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(`)

// ctorCalls returns the uses of methods called on an object the same
// expression constructs (blanked lines from line from, distances from line): the
// method is the class's (recv), which the chains of chainUses do not see —
// the call's name follows a bracket.
func ctorCalls(lines []string, from, line int) []defUse {
	var out []defUse
	for i, l := range lines {
		n := from + i
		for _, m := range ctorCallRe.FindAllStringSubmatch(l, -1) {
			dist := n - line
			if dist < 0 {
				dist = -dist
			}
			cls := m[1]
			out = append(out, defUse{name: m[2], qual: cls[strings.LastIndexByte(cls, '.')+1:], recv: cls, dist: dist, call: true, typedFile: true})
		}
	}
	return out
}

// classMethods returns the methods a class's body defines itself (not those
// of the functions and classes nested in it).
func classMethods(f *defFile, cls defSpan) []defSpan {
	var out []defSpan
	inner := 0 // the end of the last method taken: what starts before it is nested in it
	for _, s := range f.defs {
		if !s.member || s.class || s.data || s.from <= cls.from || s.from > cls.end || s.from <= inner {
			continue
		}
		out = append(out, s)
		inner = s.to
	}
	return out
}
