package defs

import (
	"maps"
	"slices"
	"strings"

	"fixplan/internal/lazyre"
)

// Registries. A framework keeps the objects it calls later in a container: a
// builder constructs them into it (`preprocessors.register(HtmlBlock(md),
// 'html', 20)`, `stack.stmtprocess.append(ReindentFilter())`) and a driver
// loops over it calling one method of each (`for prep in self.preprocessors:
// lines = prep.run(lines)`). The construction runs none of the class's code
// but its constructor; the driver's call runs the method, on an object whose
// class no line shows. So, across the hops:
//
//   - a class constructed into a container ranks after every hop (as what an
//     option branch brings in, pyopts.go): a builder registering thirty of
//     them does not spend the room on thirty classes;
//   - a driver's call of m on the items of a container named N, and a class C
//     constructed into a container named N (anywhere on the path: the hops
//     find one before the other) make C's m (or its base class's in the
//     project) a use of the driver, ranked in the hop that found the second
//     of them and followed further.
//
// Containers are matched by name (the attribute or variable: preprocessors,
// stmtprocess), the one link the lines show between a builder and a driver.
// The languages read them: pyregistry.go, tsregistry.go.

// maxRegPairs bounds the classes' methods paired with the calls on their
// containers in one Sections call (Python-Markdown's builders and drivers
// pair 29): one line constructing four thousand classes into a list that a
// loop calls twenty methods on made eighty thousand definitions.
const maxRegPairs = 128

// registry pairs the classes constructed into containers with the calls on
// the containers' items, over the hops of one Sections call.
type registry struct {
	classes map[string][]defHit  // container → the classes constructed into it
	calls   map[string][]regCall // container → the calls on its items
	done    map[regPair]bool     // paired once
}

// regCall is a driver's call of method on a container's items.
type regCall struct {
	method string
	via    string   // the driver's name
	at     defPoint // its last line
	rank   int      // its rank among the parents of its hop
}

type regPair struct {
	container, file, method string
	line                    int
}

// link records a parent's registered classes and dispatched calls and
// returns the methods newly paired, ranked in hop after the hop before.
func (r *registry) link(d *defFinder, lang defLang, hop int, parent defHit, rank int, at defPoint, notes hopNotes, regs map[string][]defHit) []defHit {
	if r.classes == nil {
		r.classes, r.calls, r.done = map[string][]defHit{}, map[string][]regCall{}, map[regPair]bool{}
	}
	var out []defHit
	pair := func(cont string, c defHit, call regCall) {
		k := regPair{cont, c.file, call.method, c.span.from}
		if r.done[k] || len(r.done) == maxRegPairs {
			return
		}
		r.done[k] = true
		cf := d.file(c.file, lang)
		if !cf.ok {
			return
		}
		imps, folder := d.context(lang, c.file, cf.src)
		var found []defHit
		u := defUse{name: call.method, recv: c.span.name}
		if !d.addMembersOf(lang, defPoint{c.file, c.span.from}, u, imps, folder, &found) {
			return
		}
		for _, x := range found {
			x.tier, x.dist, x.point = hop*hopTier, call.rank*4+x.tier, call.rank
			x.usedAt, x.via, x.pathDist = call.at, call.via, pathDistance(call.at.file, x.file)
			out = append(out, x)
		}
	}
	for _, cont := range slices.Sorted(maps.Keys(regs)) {
		for _, c := range regs[cont] {
			if !c.span.class {
				continue
			}
			r.classes[cont] = append(r.classes[cont], c)
			for _, call := range r.calls[cont] {
				if len(r.done) == maxRegPairs {
					break // (thousands of classes, thousands of calls)
				}
				pair(cont, c, call)
			}
		}
	}
	for _, dp := range notes.dispatched {
		if dp.callee != "" {
			continue // passed to a callee not found (passedItems)
		}
		call := regCall{method: dp.method, via: parent.span.name, at: at, rank: rank}
		r.calls[dp.container] = append(r.calls[dp.container], call)
		for _, c := range r.classes[dp.container] {
			if len(r.done) == maxRegPairs {
				break
			}
			pair(dp.container, c, call)
		}
	}
	return out
}

// maxRegLines is how many lines a registering call's arguments are read over.
const maxRegLines = 12

// maxRegBytes is how many bytes a registering call's arguments are read over
// (from its bracket), and maxRegCalls how many registering calls and
// displays of one definition are read: one line of 30,000
// procs.append(P()) read each call's constructors over the rest of the line
// (minutes), nested ones over the rest of the brackets.
const (
	maxRegBytes = 4096
	maxRegCalls = 256
)

// registrations maps the constructor uses (qualifier, name) of a
// definition's lines that construct an object into a container to the
// container's name.
type registrations map[[2]string]string

// add records ctor (a class's name, dotted or not: capitalised, or it is
// a function's call) constructed into cont; false when it is no class's.
func (r registrations) add(cont, ctor string) bool {
	parts := strings.FieldsFunc(ctor, func(r rune) bool { return r == '.' || r == ' ' || r == '\t' })
	if len(parts) == 0 {
		return false
	}
	name := parts[len(parts)-1]
	if name[0] < 'A' || name[0] > 'Z' {
		return false // a function call, not a class's constructor
	}
	qual := ""
	if len(parts) > 1 {
		qual = parts[len(parts)-2]
	}
	r[[2]string{qual, name}] = cont
	return true
}

// inBrackets adds the constructors ctorRe finds (its first group) in the
// brackets opened at line n, column col, of span's lines, until they close
// (at most maxRegLines lines), constructed into cont; the brackets' text
// moves to split's later part only when they construct an object
// (results.append(self.render(x)) registers nothing: what it calls runs
// now).
func (r registrations) inBrackets(lines []string, span lineRange, n, col int, cont string, ctorRe *lazyre.RE, split *spanSplit) {
	type cut struct{ line, from, to int }
	var moves []cut
	built := false
	defer func() {
		if built {
			for _, c := range moves {
				split.move(c.line, c.from, c.to)
			}
		}
	}()
	depth := 0
	left := maxRegBytes
	for i := n; i <= span.to && i < n+maxRegLines && left > 0; i++ {
		seg := lines[i-span.from]
		if i == n {
			seg = seg[col:]
		}
		off := len(lines[i-span.from]) - len(seg)
		seg = seg[:min(len(seg), left)]
		left -= len(seg)
		ms := ctorRe.FindAllStringSubmatchIndex(seg, -1)
		for j := 0; j < len(seg); j++ {
			if depth >= 1 {
				moves = append(moves, cut{i, off + j, off + j + 1})
			}
			for len(ms) > 0 && ms[0][2] <= j {
				if depth >= 1 && r.add(cont, seg[ms[0][2]:ms[0][3]]) {
					built = true
				}
				ms = ms[1:]
			}
			switch seg[j] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth--; depth <= 0 {
					return
				}
			}
		}
	}
}

// regRules are one language's patterns of a registration: a registering
// call (its first group the container), an item assigned a constructed
// object (the container, the class), a list or map display assigned to a
// container (its first group), and a constructor in their brackets (its
// first group the class).
type regRules struct{ call, item, list, ctor *lazyre.RE }

// registered returns the constructor uses of span's lines that construct an
// object into a container, with the container's name (none in a branch the
// failing lines do not take); the registering calls' arguments move to
// split's later part.
func (rr regRules) registered(lines []string, span lineRange, split *spanSplit) registrations {
	regs := registrations{}
	calls := 0
	for n := span.from; n <= span.to && calls < maxRegCalls; n++ {
		if split.offLine(n) {
			continue // registered behind an option the failing lines do not set
		}
		l := lines[n-span.from]
		for _, m := range rr.call.FindAllStringSubmatchIndex(l, maxRegCalls-calls) {
			regs.inBrackets(lines, span, n, m[1]-1, l[m[2]:m[3]], rr.ctor, split)
			calls++
		}
		if m := rr.item.FindStringSubmatch(l); m != nil {
			regs.add(m[1], m[2])
		}
		if m := rr.list.FindStringSubmatchIndex(l); m != nil && calls < maxRegCalls {
			regs.inBrackets(lines, span, n, m[1]-1, l[m[2]:m[3]], rr.ctor, split)
			calls++
		}
	}
	return regs
}

// laterDispatched ranks the namesakes of the methods called on a
// container's items found by name only after every hop: the registry says
// whose they are.
func (n *hopNotes) laterDispatched() {
	for _, dp := range n.dispatched {
		if dp.item == "" || dp.callee != "" {
			continue // (an item called on where taken, or passed on)
		}
		if n.later == nil {
			n.later = map[[2]string]bool{}
		}
		n.later[[2]string{dp.item, dp.method}] = true
	}
}
