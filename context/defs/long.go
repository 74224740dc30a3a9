package defs

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"fixplan/context/section"
)

// Long definitions. A definition longer than maxDefLines is not cut at its
// first maxDefLines lines (a change near the end of a 280-line parser function
// would never be shown): its section shows the lines that matter —
//
//   - its head (doc comment, signature, first statements: longHead lines) and
//     its last line;
//   - the lines that use the definitions found through it (the next links of
//     the chain), and the lines that hold a fragment of the failure's messages
//     (msg.go), each with longContext lines around it;
//
// at most maxDefLines lines in all (the head first, then the other lines in
// the order of the definition), with a line saying which lines are left out
// between the parts.
//
// A long Go type (a struct of 60 documented fields) is never shown whole, as a
// long function may be: the fix is rarely in it, and its lines that matter
// are those of the fields and methods the failing lines name (the Use, Run and
// TraverseChildren a test's &Command{…} sets), besides its head; the next hop
// looks up what those lines use only (the types of the fields not shown are
// not what the failure is about).

const (
	longHead    = 12 // first lines of a long definition always shown
	longContext = 3  // lines shown on each side of a line that matters
)

// longParts returns the ranges of a long definition (from..to, over
// maxDefLines lines) to show: the head, the last line, and the windows
// around the lines of lines (1-based) that use one of names, declare one of
// fields (a type's), hold one of frags, or write a string whose fragment
// (codeFragments: a script's '…' and f'…{x}…' too) the failure's text holds
// (a Python or JS exception prints its message unquoted); comment lines are
// not lines that matter.
func longParts(lang defLang, lines []string, from, to int, names, fields, frags []string, text string) []lineRange {
	var res []*regexp.Regexp
	words := map[string]bool{} // the names of word characters: a line's words are looked up (lineset.go)
	for _, n := range names {
		if n != "" && wordOnly(n) {
			words[n] = true
		} else {
			res = append(res, regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`))
		}
	}
	firsts := map[string]bool{} // a line that declares one of fields: its first word
	var others []string
	for _, f := range fields {
		if f != "" && wordOnly(f) {
			firsts[f] = true
		} else {
			others = append(others, f)
		}
	}
	if len(others) > 0 {
		res = append(res, regexp.MustCompile(`^\s*(?:`+strings.Join(quoteAll(others), "|")+`)\b`))
	}
	matters := func(l string) bool {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*") {
			return false // a comment: not where the name is used or the message written
		}
		for _, f := range frags {
			if f != "" && strings.Contains(l, f) {
				return true
			}
		}
		for _, f := range codeFragments(lang, l, map[string]bool{}) {
			if strings.Contains(text, f) {
				return true
			}
		}
		if len(words) > 0 && anyWord(l, words) || len(firsts) > 0 && firsts[firstWord(l)] {
			return true
		}
		for _, re := range res {
			if re.MatchString(l) {
				return true
			}
		}
		return false
	}
	show := map[int]bool{}
	count := 0
	mark := func(a, b int) {
		for i := max(a, from); i <= min(b, to); i++ {
			if !show[i] && count < maxDefLines {
				show[i] = true
				count++
			}
		}
	}
	mark(from, from+longHead-1)
	mark(to, to)
	for n := from + longHead; n < to && count < maxDefLines; n++ {
		if matters(lines[n-1]) {
			mark(n-longContext, n+longContext)
		}
	}
	return shownRanges(show, from, to)
}

// longBody numbers the parts of a long definition, with a line between two
// parts saying which lines are left out.
func longBody(lines []string, parts []lineRange) string {
	return joinParts(lines, parts, "left out")
}

// joinParts numbers parts, with a line between two parts saying where the
// lines between them are (left out, in a section above).
func joinParts(lines []string, parts []lineRange, where string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			fmt.Fprintf(&b, "… lines %d-%d %s …\n", parts[i-1].to+1, p.from-1, where)
		}
		b.WriteString(section.Numbered(lines, p.from, p.to))
	}
	return b.String()
}

// linkNames maps each definition (file and first line) to the names of the
// definitions found through it (the next links of the chain).
func linkNames(hits []defHit) map[defPoint][]string {
	out := map[defPoint][]string{}
	type linkName struct {
		at   defPoint
		name string
	}
	seen := map[linkName]bool{} // (a definition calling thousands)
	for _, h := range hits {
		if h.via == "" {
			continue
		}
		k := h.usedAt // the parent's file and last line
		if kn := (linkName{k, h.span.name}); !seen[kn] {
			seen[kn] = true
			out[k] = append(out[k], h.span.name)
		}
	}
	return out
}

// goTypeSpan reports whether s, a definition of a Go file, declares a type
// (not a function, a method, a variable or a constant).
func goTypeSpan(file string, lines []string, s defSpan) bool {
	if path.Ext(file) != ".go" || s.data || s.member {
		return false
	}
	for n := s.from; n <= min(s.to, len(lines)); n++ {
		t := strings.TrimSpace(lines[n-1])
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		return !strings.HasPrefix(t, "func")
	}
	return false
}

// notePointUses records the names the failing lines use (a long type's lines
// that name one of them matter).
func (d *defFinder) notePointUses(lang defLang, uses []defUse) {
	if d.pointNames == nil {
		d.pointNames = map[string]bool{}
	}
	_, isGo := lang.(goLang) // (every Go name is "builtin": never looked up project-wide)
	for _, u := range uses {
		if len(u.name) >= 3 && (isGo || !lang.builtin(u.name)) {
			d.pointNames[u.name] = true
		}
	}
}

// typeUsesShown returns the uses of the lines of a long Go type (h, of f)
// that its section shows (its head and the fields the failing lines name):
// the types of its other fields are not what the failure is about. Other
// definitions keep all their uses.
func (d *defFinder) typeUsesShown(h defHit, f *defFile, uses []defUse) []defUse {
	s := h.span
	if s.to-s.from+1 <= maxDefLines || s.to > len(f.lines) || !goTypeSpan(h.file, f.lines, s) {
		return uses
	}
	parts := longParts(goLang{}, f.lines, s.from, s.to, nil, slices.Sorted(maps.Keys(d.pointNames)), nil, "")
	out := uses[:0:0]
	for _, u := range uses {
		n := s.to - u.dist // (the uses of a definition are measured from its last line)
		for _, p := range parts {
			if p.from <= n && n <= p.to {
				out = append(out, u)
				break
			}
		}
	}
	return out
}

// shownRanges is the lines from..to that show holds, as ranges in order.
func shownRanges(show map[int]bool, from, to int) []lineRange {
	var out []lineRange
	for i := from; i <= to; i++ {
		if !show[i] {
			continue
		}
		if len(out) > 0 && out[len(out)-1].to == i-1 {
			out[len(out)-1].to = i
		} else {
			out = append(out, lineRange{i, i})
		}
	}
	return out
}
