package defs

import (
	"bytes"

	"fixplan/internal/lazyre"
)

// Hop notes. Past the names a definition reached by a hop uses, a language
// may read more of its lines (hopReader): the uses that rank after every
// hop — found only in a branch of an option the failing lines do not set
// (pyopts.go) or in the arguments of a registering call (registry.go), or
// the name a def line defines, whose namesakes elsewhere are not what it
// calls, or a type its signature names, which runs no code — the objects it
// constructs into a registry and the calls it makes on a registry's items
// (registry.go), and the methods of its own the language may call (a
// class's dunder methods, pyclass.go: after every hop too).

// hopNotes is what a language reads of a definition's lines for the hops
// beyond what it uses by name.
type hopNotes struct {
	later      map[[2]string]bool   // uses (qualifier, name) ranked after every hop
	registered map[[2]string]string // constructor uses → the container they go into
	dispatched []dispatch           // calls on a container's items
	called     []defSpan            // definitions in the span the language may call (a class's dunder methods), ranked after every hop
}

// dispatch is a call of method on the items of container (item: the name
// the driver's lines give one), or, when callee is set, an item passed to
// callee as its argument number arg (from 0), or as its parameter kw: the
// methods callee calls on that parameter are the calls (pyregistry.go).
type dispatch struct {
	container, method, item string
	callee, kw              string
	arg                     int
}

// hopReader is a language that reads hopNotes (Python: pyhop.go, TS/JS:
// tsregistry.go);
// named reports whether a word is in the failing lines.
type hopReader interface {
	hopNotes(f *defFile, span lineRange, named func(string) bool) hopNotes
}

var wordRe = lazyre.New(`\w+`)

// failingWords reports whether a word is in the lines around the failure
// points (the failing tests and the frames' functions: the options they
// pass), read once when first asked.
func (d *defFinder) failingWords(points []defPoint) func(string) bool {
	var words map[string]bool
	return func(w string) bool {
		if words == nil {
			words = map[string]bool{}
			for _, p := range points {
				lang := langFor(p.file)
				f := d.file(p.file, lang)
				if !f.ok {
					continue
				}
				span, _ := lang.uses(f, p.line, maxUseSpan/2)
				for _, l := range f.lines[span.from-1 : span.to] {
					for _, x := range wordRe.FindAllString(l, -1) {
						words[x] = true
					}
				}
			}
		}
		return words[w]
	}
}

// spanSplit is a definition's blanked lines split in two: the parts whose
// uses rank after every hop (an option branch, a registering call's
// arguments) and the rest.
type spanSplit struct {
	from       int
	later, now [][]byte
	off        []bool // the whole line is in a branch the failing lines do not take
}

func newSpanSplit(lines []string, from int) *spanSplit {
	s := &spanSplit{from: from}
	for _, l := range lines {
		s.now = append(s.now, []byte(l))
		s.later = append(s.later, nil)
		s.off = append(s.off, false)
	}
	return s
}

// moveLine moves line n, in a branch the failing lines do not take, to the
// later part.
func (s *spanSplit) moveLine(n int) {
	if i := n - s.from; i >= 0 && i < len(s.now) {
		s.off[i] = true
		s.move(n, 0, len(s.now[i]))
	}
}

// offLine reports whether line n is in a branch the failing lines do not
// take.
func (s *spanSplit) offLine(n int) bool {
	i := n - s.from
	return i >= 0 && i < len(s.off) && s.off[i]
}

// move moves columns a to b (exclusive) of line n to the later part.
func (s *spanSplit) move(n, a, b int) {
	i := n - s.from
	if i < 0 || i >= len(s.now) {
		return
	}
	now := s.now[i]
	b = min(b, len(now))
	if len(s.later[i]) < len(now) {
		s.later[i] = append(s.later[i], bytes.Repeat([]byte{' '}, len(now)-len(s.later[i]))...)
	}
	for k := a; k < b; k++ {
		s.later[i][k], now[k] = now[k], ' '
	}
}

// onlyLater returns the uses found in the later part only.
func (s *spanSplit) onlyLater() map[[2]string]bool {
	lines := func(b [][]byte) []string {
		out := make([]string, len(b))
		for i, l := range b {
			out[i] = string(l)
		}
		return out
	}
	now := map[[2]string]bool{}
	for _, u := range chainUses(lines(s.now), s.from, s.from) {
		now[[2]string{u.qual, u.name}] = true
	}
	var out map[[2]string]bool
	for _, u := range chainUses(lines(s.later), s.from, s.from) {
		if k := [2]string{u.qual, u.name}; !now[k] {
			if out == nil {
				out = map[[2]string]bool{}
			}
			out[k] = true
		}
	}
	return out
}
