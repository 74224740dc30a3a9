package defs

import (
	"slices"
	"strings"
)

// Python classes. A class the failing path constructs or derives from is in
// play, but what runs is its body's statements and __init__, not every
// method it defines: the others run when something calls them — by name, on
// an object whose class the lines show (recv.go), or as the language does
// (`==` runs __eq__, len() __len__, a for loop __iter__). So a class reached
// by a hop is followed through its body and __init__ (classUses), its dunder
// methods are uses of it ranked after every hop — whether the path uses
// the operator no line shows (pyProtocol) — and a long one shows its head,
// its body and __init__ (classParts), not all of it, nor its last method's
// lines that matter.

// classUser is a language whose classes' uses are read apart from their
// methods (pyLang).
type classUser interface {
	classUses(f *defFile, s defSpan) (lineRange, []defUse)
}

// pyInit are the methods constructing an object runs.
var pyInit = wordSet(`__init__ __new__ __post_init__`)

// classUses is what a Python class uses when it is in play (constructed,
// derived from): its class body's statements and what constructing an
// object runs (__init__). Its other methods run when called — on an object
// whose class the caller's lines show (recv.go), or by the language
// (pyProtocol) — and are followed from there.
func (pyLang) classUses(f *defFile, s defSpan) (lineRange, []defUse) {
	span := lineRange{s.from, s.to}
	blank := pyScan(f).blank
	lines := pyRunLines(f, span)
	uses := chainUses(lines, span.from, span.to)
	typeUses(f, func(i int) string { return blank[i] }, pyRecv, span, span.to, uses)
	return span, append(uses, ctorCalls(lines, span.from, span.to)...)
}

// pyRunLines returns the blanked lines of span that run when the definition
// does: of a class, those of its body and its __init__, not its other
// methods (emptied).
func pyRunLines(f *defFile, span lineRange) []string {
	blank := pyScan(f).blank
	lines := blank[span.from-1 : span.to]
	for _, c := range f.defs {
		if !c.class || c.from != span.from {
			continue
		}
		lines = slices.Clone(lines)
		for _, m := range classMethods(f, c) {
			if pyInit[m.name] {
				continue
			}
			for n := max(m.from, span.from); n <= min(m.to, span.to); n++ {
				lines[n-span.from] = ""
			}
		}
		break
	}
	return lines
}

// pyProtocol returns the dunder methods of a class span: the methods Python
// calls on the class's objects — `==` runs __eq__, len() __len__, a for
// loop __iter__ — which no line calls by name (__init__ is read with the
// class: classUses).
func pyProtocol(f *defFile, span lineRange) []defSpan {
	for _, c := range f.defs {
		if !c.class || c.from != span.from {
			continue
		}
		var out []defSpan
		for _, s := range classMethods(f, c) {
			if len(s.name) > 4 && strings.HasPrefix(s.name, "__") && strings.HasSuffix(s.name, "__") && !pyInit[s.name] {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// classParter is a language whose long classes show the lines that run
// when one is constructed (pyLang).
type classParter interface {
	classParts(f *defFile, s defSpan, parts []lineRange) []lineRange
}

// classParts adds to the parts of a long class (its head and message lines:
// longParts; its last line is its last method's) the lines that run when it
// is constructed —
// its body's statements and __init__ (pyRunLines) — up to maxDefLines in
// all. Its other methods are definitions of their own, shown when the
// failing path calls them; the lines of the last of them are not the class's
// (the lines that matter of a long function are those using what the hops
// found through it, keyed by its last line, which the class shares).
func (pyLang) classParts(f *defFile, s defSpan, parts []lineRange) []lineRange {
	scan := pyScan(f)
	run := pyRunLines(f, lineRange{s.from, s.to})
	show := map[int]bool{}
	count := 0
	for _, p := range parts {
		for i := p.from; i <= p.to; i++ {
			if i == s.to && strings.TrimSpace(run[i-s.from]) == "" {
				continue // the last line of its last method, not the class's
			}
			show[i] = true
			count++
		}
	}
	for i, l := range run {
		n := s.from + i
		if count >= maxDefLines {
			break
		}
		if strings.TrimSpace(l) != "" && !scan.inStr[n-1] && !show[n] {
			show[n] = true
			count++
		}
	}
	return shownRanges(show, s.from, s.to)
}
