package defs

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fixplan/context/frames"
	"fixplan/context/section"
	"fixplan/internal/lazyre"
)

// Tables of test cases. A Go test is often a loop over a table — a slice or
// map literal of cases, in the test or returned by a function the test
// appends from (go-cmp's comparerTests() … project4Tests(), hundreds of lines
// each) — and the failure names the cases that failed: the subtest of
// `--- FAIL: TestDiff/Reporter/ManyEscapeCharacters`, or the values the
// failing line prints (`pattern "sta?" matching "stagnation"`). What the
// other cases use (their fixtures, constants, option constructors) is not
// what failed, and shown whole the tables fill the definitions' room before
// the code under test. So, in a test file:
//
//   - a table is a slice, array or map literal of at least minCases entries
//     over at least maxTestData lines;
//   - an entry is a failing case when one of its constant strings (a literal,
//     a constant, label + "/Name"), written as Go writes a subtest's name
//     (spaces as _) and cut at its slashes, is the last element of a failing
//     subtest's name; when no entry anywhere is named so, an entry holding a
//     string the output quotes (3 bytes or more) is one;
//   - the uses of the other entries are not looked up (their lines are
//     skipped when the uses of the test, or of the function holding the
//     table, are read), and a definition holding a table is shown without
//     them, with a line saying how many cases each gap leaves out;
//   - when the failure names subtests and a table holds none of them (the
//     other tables the test appends), its cases are skipped and the
//     definition is left out, with a warning.
//
// Where the failure names no case, nothing changes.

const minCases = 3 // entries a literal needs to be a table of cases

// failSubtestRe finds the failing tests' names in Go test output.
var failSubtestRe = lazyre.New(`(?m)^\s*--- FAIL: (\S+)`)

// goDedupRe is the suffix Go adds to a repeated subtest name (name#01).
var goDedupRe = lazyre.New(`^(.*)#\d{2,}$`)

// caseTable is a table of test cases in a file: the literal's lines and its
// entries'.
type caseTable struct {
	from, to int
	decl     lineRange // the declaration that holds it
	entries  []caseEntry
}

type caseEntry struct {
	lines   lineRange
	strs    []string // its constant strings
	failing bool
}

// caseState is what one Sections call knows of the failing cases.
type caseState struct {
	leaves map[string]bool // last elements of the failing subtests' names
	quoted map[string]bool // strings the output quotes
	// named: an entry of a table in a failure point's file is named by a
	// failing subtest (then only names select entries, and a table with
	// none of them is left out)
	named   bool
	tables  map[string][]caseTable
	dropped []string // definitions left out: tables without a failing case
}

// failingCases reads the failing subtests' names and the quoted strings of a
// failure's output.
func failingCases(text string) *caseState {
	cs := &caseState{leaves: map[string]bool{}, quoted: map[string]bool{}, tables: map[string][]caseTable{}}
	for _, m := range failSubtestRe.FindAllStringSubmatch(text, -1) {
		// the subtest's own name, the last element (a name holding a slash
		// of its own is matched by its last piece: an entry's strings are
		// cut at their slashes too)
		i := strings.LastIndexByte(m[1], '/')
		if i < 0 {
			continue
		}
		leaf := m[1][i+1:]
		if d := goDedupRe.FindStringSubmatch(leaf); d != nil {
			leaf = d[1] // name#01: a repeated name
		}
		if leaf != "" {
			cs.leaves[leaf] = true
		}
	}
	for _, q := range msgQuotedRe.FindAllString(text, -1) {
		if s, err := strconv.Unquote(q); err == nil && len(s) >= 3 {
			cs.quoted[s] = true
		}
	}
	return cs
}

// caseInfo is the Sections call's caseState, made at the first use: the
// tables of the failure points' test files are read then, to know whether a
// failing subtest names one of their entries.
func (d *defFinder) caseInfo() *caseState {
	if d.cases != nil {
		return d.cases
	}
	d.cases = failingCases(d.req.Text)
	if len(d.cases.leaves) == 0 {
		return d.cases
	}
	points, _ := failurePoints(d.req)
	for _, p := range points {
		if _, ok := langFor(p.file).(goLang); !ok || !frames.LooksLikeTestFile(p.file) {
			continue
		}
		d.typeCheck(p.file)
		for _, t := range d.caseTables(p.file) {
			for _, e := range t.entries {
				if d.cases.namesEntry(e) {
					d.cases.named = true
				}
			}
		}
	}
	if d.cases.named { // the names select the entries: the quoted strings no longer do
		for _, ts := range d.cases.tables {
			for _, t := range ts {
				for i := range t.entries {
					t.entries[i].failing = d.cases.namesEntry(t.entries[i])
				}
			}
		}
	}
	return d.cases
}

// namesEntry reports whether a failing subtest's name is one of e's strings.
func (cs *caseState) namesEntry(e caseEntry) bool {
	for _, s := range e.strs {
		n := strings.ReplaceAll(s, " ", "_")
		if cs.leaves[n] {
			return true
		}
		for _, piece := range strings.Split(n, "/") {
			if cs.leaves[piece] {
				return true
			}
		}
	}
	return false
}

// quotesEntry reports whether the output quotes one of e's strings.
func (cs *caseState) quotesEntry(e caseEntry) bool {
	for _, s := range e.strs {
		if cs.quoted[s] {
			return true
		}
	}
	return false
}

// caseTables returns the tables of cases of a Go test file (read once per
// Sections call), with the entries the failure names marked; nil for
// another file.
func (d *defFinder) caseTables(rel string) []caseTable {
	if _, ok := langFor(rel).(goLang); !ok || !frames.LooksLikeTestFile(rel) {
		return nil
	}
	cs := d.cases
	if ts, ok := cs.tables[rel]; ok {
		return ts
	}
	cs.tables[rel] = nil
	f := d.file(rel, goLang{})
	if !f.ok {
		return nil
	}
	// the tree with its bodies (and its types when it was checked), else a
	// parse of its own (the file's kept tree is not replaced)
	var info *types.Info
	p, _ := f.parsed.(goParsed)
	fset, af := p.fset, p.file
	if !p.bodies || af == nil {
		fset, af = goLang{}.parse(f.src, 0)
	} else if p.typed != nil {
		info = p.typed.info
	}
	if af == nil {
		return nil
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	type found struct {
		decl ast.Decl
		lit  *ast.CompositeLit
	}
	var lits []found
	var bodies []ast.Node
	for _, decl := range af.Decls {
		ast.Inspect(decl, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || len(lit.Elts) < minCases || lineOf(lit.Rbrace)-lineOf(lit.Lbrace) < maxTestData || !listLiteral(lit, info) {
				return true
			}
			if len(lits) == 0 || lits[len(lits)-1].decl != decl {
				bodies = append(bodies, decl)
			}
			lits = append(lits, found{decl, lit})
			return false // a table's entries are not tables of their own
		})
	}
	if info != nil {
		p.typed.checkBodies(bodies) // the constants of its cases (label + "/Name")
	}
	var out []caseTable
	for _, fl := range lits {
		lit := fl.lit
		t := caseTable{from: lineOf(lit.Lbrace), to: lineOf(lit.Rbrace), decl: lineRange{lineOf(fl.decl.Pos()), lineOf(fl.decl.End())}}
		prev := t.from
		for _, e := range lit.Elts {
			from := lineOf(e.Pos())
			// with the comment lines right above it (what the case is about)
			for from-1 > prev && commentLine(f.lines, from-1) {
				from--
			}
			prev = lineOf(e.End())
			t.entries = append(t.entries, caseEntry{lines: lineRange{from, prev}, strs: constStrings(e, info)})
		}
		out = append(out, t)
	}
	for i := range out {
		for j := range out[i].entries {
			e := &out[i].entries[j]
			e.failing = cs.namesEntry(*e) || (!cs.named && cs.quotesEntry(*e))
		}
	}
	cs.tables[rel] = out
	return out
}

// commentLine reports whether line n (1-based) of lines is a line comment.
func commentLine(lines []string, n int) bool {
	return n >= 1 && n <= len(lines) && strings.HasPrefix(strings.TrimSpace(lines[n-1]), "//")
}

// listLiteral reports whether lit is a slice, array or map literal (not a
// struct's fields).
func listLiteral(lit *ast.CompositeLit, info *types.Info) bool {
	if info != nil {
		if tv, ok := info.Types[lit]; ok && tv.Type != nil {
			switch tv.Type.Underlying().(type) {
			case *types.Slice, *types.Array, *types.Map:
				return true
			}
			return false
		}
	}
	switch lit.Type.(type) {
	case *ast.ArrayType, *ast.MapType:
		return true
	case nil: // an inner literal whose type is elided: fields are key: value with a name
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if _, ok := kv.Key.(*ast.Ident); ok {
					return false
				}
			}
		}
		return true
	}
	return false
}

// constStrings are the constant strings of an expression: each outermost
// constant string expression's value (label + "/Name" when label is a
// constant), else each string literal's.
func constStrings(e ast.Expr, info *types.Info) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		x, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if info != nil {
			if tv, ok := info.Types[x]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
				out = append(out, constant.StringVal(tv.Value))
				return false
			}
		}
		if bl, ok := x.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			if s, err := strconv.Unquote(bl.Value); err == nil {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// holdsFailing reports whether one of t's entries is a failing case.
func (t caseTable) holdsFailing() bool {
	return slices.ContainsFunc(t.entries, func(e caseEntry) bool { return e.failing })
}

// otherCases returns the lines of t's entries that are not failing cases
// (nil when every entry stays): the entries besides the failing ones when
// there are some, all of them when the failure names subtests none of which
// is here; the lines a failing entry or the literal's braces share are kept.
func (cs *caseState) otherCases(t caseTable) []lineRange {
	if !t.holdsFailing() && !cs.named {
		return nil
	}
	keep := map[int]bool{t.from: true, t.to: true}
	for _, e := range t.entries {
		if e.failing {
			for i := e.lines.from; i <= e.lines.to; i++ {
				keep[i] = true
			}
		}
	}
	var out []lineRange
	for _, e := range t.entries {
		if e.failing {
			continue
		}
		for i := e.lines.from; i <= e.lines.to; i++ {
			if keep[i] {
				continue
			}
			if n := len(out); n > 0 && out[n-1].to >= i-1 {
				out[n-1].to = max(out[n-1].to, i)
			} else {
				out = append(out, lineRange{i, i})
			}
		}
	}
	return out
}

// skipOtherCases sets the lines of a Go test file whose uses are not read:
// the entries of its tables that are not failing cases.
func (d *defFinder) skipOtherCases(rel string) {
	f := d.files[rel]
	if f == nil || f.skip != nil {
		return
	}
	cs := d.caseInfo()
	f.skip = []lineRange{} // read once
	if len(cs.leaves) == 0 && len(cs.quoted) == 0 {
		return
	}
	points, _ := failurePoints(d.req)
	failingIn := func(r lineRange) bool {
		return slices.ContainsFunc(points, func(p defPoint) bool { return p.file == rel && r.from <= p.line && p.line <= r.to })
	}
	for _, t := range d.caseTables(rel) {
		if cs.named && !t.holdsFailing() && !failingIn(t.decl) {
			// the failure names subtests and none is here: what the
			// declaration builds serves the other cases (project4Tests'
			// helper closures)
			f.skip = append(f.skip, t.decl)
			continue
		}
		f.skip = append(f.skip, cs.otherCases(t)...)
	}
	f.skip = mergeRanges(f.skip) // (lineset.go)
}

// tableCut is how a definition holding tables of cases is shown.
type tableCut struct {
	table bool        // it holds a table some of whose cases are left out
	drop  bool        // it holds tables but none of the failing cases: left out
	parts []lineRange // the lines shown: all but the other cases and the lines shown above
	other []lineRange // the other cases' lines
	shown int         // failing cases shown
	cases int         // cases in its tables
	tbls  []caseTable // its tables
}

// cutTables returns how the definition from..to of file is shown when it
// holds tables of cases; shown are the lines sections above show already.
func (d *defFinder) cutTables(file string, from, to int, shown map[int]bool) tableCut {
	var c tableCut
	if d.cases == nil {
		return c
	}
	for _, t := range d.caseTables(file) {
		if t.from < from || t.to > to {
			continue
		}
		other := d.cases.otherCases(t)
		if len(other) == 0 {
			continue
		}
		c.table = true
		c.other = append(c.other, other...)
		c.tbls = append(c.tbls, t)
		for _, e := range t.entries {
			c.cases++
			if e.failing {
				c.shown++
			}
		}
	}
	if !c.table {
		return c
	}
	if c.shown == 0 {
		c.drop = true
		return c
	}
	c.other = mergeRanges(c.other) // (lineset.go)
	skip := func(i int) bool { return shown[i] || inRanges(c.other, i) }
	keep := func(i int) bool { return !skip(i) }
	c.parts = linesWhere(from, to, keep)
	if linesIn(c.parts) > maxDefLines {
		// a long head or tail (helpers declared around the table): its
		// first lines, the braces of the tables and the failing cases
		show := map[int]bool{to: true}
		for i := from; i < from+longHead; i++ {
			show[i] = true
		}
		for _, t := range c.tbls {
			show[t.from], show[t.to] = true, true
			for _, e := range t.entries {
				for i := e.lines.from; e.failing && i <= e.lines.to; i++ {
					show[i] = true
				}
			}
		}
		c.parts = linesWhere(from, to, func(i int) bool { return show[i] && keep(i) })
	}
	return c
}

// linesWhere returns the ranges of from..to whose lines keep holds.
func linesWhere(from, to int, keep func(int) bool) []lineRange {
	var out []lineRange
	for i := from; i <= to; i++ {
		if !keep(i) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].to == i-1 {
			out[n-1].to = i
		} else {
			out = append(out, lineRange{i, i})
		}
	}
	return out
}

// body numbers the parts shown, with a line between two parts saying what
// the lines between them are: other cases left out, or in a section above.
func (c tableCut) body(lines []string, shown map[int]bool) string {
	var b strings.Builder
	for i, p := range c.parts {
		if i > 0 {
			a, z := c.parts[i-1].to+1, p.from-1
			n := otherCasesIn(c.tbls, a, z) // (lineset.go)
			above := 0
			for k := a; k <= z; k++ {
				above += btoi(shown[k])
			}
			other := "1 other case left out"
			if n != 1 {
				other = fmt.Sprintf("%d other cases left out", n)
			}
			switch {
			case above == z-a+1:
				fmt.Fprintf(&b, "… lines %d-%d are in a section above …\n", a, z)
			case n > 0 && above > 0:
				fmt.Fprintf(&b, "… lines %d-%d: %s, the rest in a section above …\n", a, z, other)
			case n > 0:
				fmt.Fprintf(&b, "… lines %d-%d: %s …\n", a, z, other)
			default:
				fmt.Fprintf(&b, "… lines %d-%d left out …\n", a, z)
			}
		}
		b.WriteString(section.Numbered(lines, p.from, p.to))
	}
	return b.String()
}

// what says what of the definition the section shows.
func (c tableCut) what(total int) string {
	cases := "cases"
	if c.shown == 1 {
		cases = "case"
	}
	return fmt.Sprintf(", %d lines of %d: the %d %s of %d the failure names, the other cases left out", linesIn(c.parts), total, c.shown, cases, c.cases)
}

// tableWarnings says which definitions were left out for holding none of the
// failing cases.
func (d *defFinder) tableWarnings() []string {
	if d.cases == nil || len(d.cases.dropped) == 0 {
		return nil
	}
	leaves := slices.Sorted(maps.Keys(d.cases.leaves))
	return []string{fmt.Sprintf("%d tables of test cases left out: they hold none of the failing cases (%s): %s",
		len(d.cases.dropped), limitNames(leaves), limitNames(d.cases.dropped))}
}
