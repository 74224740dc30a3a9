package defs

import (
	"path"
	"regexp"
	"strings"

	"fixplan/internal/lazyre"
	"fixplan/projfs"
)

// pyLang finds Python definitions with a line heuristic (no parser is run):
//
//   - a definition is a line `def name`, `async def name` or `class name` (at any
//     indentation; indented ones are members), with the decorators right above
//     it; it ends before the next non-blank line indented no deeper than it;
//   - a module-level assignment `NAME = …` (or `NAME: T = …`) is a definition of
//     its line and the indented or bracketed lines after it;
//   - the function around a failure point is the nearest enclosing def;
//   - names are the identifiers and dotted chains of its lines, strings
//     (a docstring over many lines too) and comments blanked (pyblank.go); a
//     line inside a string does not end a block, whatever its indentation;
//   - `import a.b [as c]`, `from a.b import c [as d]` and relative imports
//     (`from .x import y`) resolve to a/b.py or a/b/__init__.py under the root,
//     src/, or a folder above the importing file; names imported from anything
//     else are library names and are not looked up; `from .x import *` makes
//     x's names the module's (followed from a package's __init__.py).
type pyLang struct{}

var (
	pyDefRe    = lazyre.New(`^(\s*)(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)`)
	pyAssignRe = lazyre.New(`^([A-Za-z_]\w*)\s*(?::[^=]+)?=[^=]`)
	pyImportRe = lazyre.New(`(?m)^[ \t]*import[ \t]+([\w. \t,]+?)[ \t]*(?:#.*)?$`)
	pyClassRe  = lazyre.New(`^\s*class\s+[A-Za-z_]\w*\s*(?:\(([^)]*)\)?)?`)
	pyFromRe   = lazyre.New(`(?m)^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)`)
)

// pyLines is what the block-end scan needs of each line of a file, computed once
// per file (strings and comments are blanked once, not per scan).
type pyLines struct {
	blank []string // the line with its strings and comments blanked (pyblank.go)
	inStr []bool   // the line starts inside a triple-quoted string
	ind   []int    // indentation
	delta []int    // change of bracket depth over the blanked line
	empty []bool   // a blank line
}

func pyScan(f *defFile) *pyLines {
	if p, ok := f.parsed.(*pyLines); ok {
		return p
	}
	n := len(f.lines)
	p := &pyLines{ind: make([]int, n), delta: make([]int, n), empty: make([]bool, n)}
	p.blank, p.inStr = pyBlankLines(f.lines)
	for i, l := range f.lines {
		if strings.TrimSpace(l) == "" {
			p.empty[i] = true
			continue
		}
		p.ind[i] = indentOf(l)
		p.delta[i], _ = bracketDelta(p.blank[i])
	}
	f.parsed = p
	return p
}

// pyBlockEnd returns the last line of the block that starts at from (1-based)
// with indentation ind: the last non-blank line before a line indented no deeper
// outside the brackets opened since from; at most maxBlockLines lines below from
// (a bracket that never closes does not make every block run to the end of the
// file).
func pyBlockEnd(p *pyLines, from, ind int) int { return pyBlockEndMax(p, from, ind, maxBlockLines) }

// pyBlockEndMax is pyBlockEnd looking at most max lines below from.
func pyBlockEndMax(p *pyLines, from, ind, max int) int {
	end := from
	depth := p.delta[from-1]
	last := min(len(p.ind), from+max)
	i := from
	for ; i < last; i++ {
		if p.empty[i] {
			continue
		}
		if depth <= 0 && p.ind[i] <= ind && !p.inStr[i] {
			break
		}
		depth += p.delta[i]
		end = i + 1
	}
	defScanned.Add(int64(i - from + 1))
	return end
}

func (pyLang) defs(f *defFile) []defSpan {
	lines := f.lines
	scan := pyScan(f)
	var out []defSpan
	for i, l := range scan.blank {
		if m := pyDefRe.FindStringSubmatch(l); m != nil {
			ind := indentOf(m[1])
			from := i + 1
			for from > 1 && strings.HasPrefix(strings.TrimSpace(lines[from-2]), "@") && indentOf(lines[from-2]) == ind {
				from--
			}
			s := defSpan{name: m[2], from: from, to: pyBlockEnd(scan, i+1, ind), member: ind > 0}
			if c := pyClassRe.FindStringSubmatch(l); c != nil {
				s.class = true // its end: pyClassEnds, below
				var bases []string
				for _, b := range strings.Split(c[1], ",") {
					if b = strings.TrimSpace(b); b != "" && !strings.Contains(b, "=") {
						bases = append(bases, b)
					}
				}
				s.bases = strings.Join(bases, ",")
			}
			out = append(out, s)
			continue
		}
		if m := pyAssignRe.FindStringSubmatch(l); m != nil {
			out = append(out, defSpan{name: m[1], from: i + 1, to: pyBlockEnd(scan, i+1, 0), data: true})
		}
	}
	pyClassEnds(scan, scan.blank, out)
	return out
}

// pyClassEnds sets the end of each class of spans: the last non-blank line
// before a line indented no deeper than the class line, outside the brackets
// opened since it, however far below — found for all the classes in one pass
// (a file of a thousand unclosed `class A(` lines costs its length, not its
// length squared).
func pyClassEnds(p *pyLines, lines []string, spans []defSpan) {
	starts := map[int]int{} // 0-based class line → index in spans
	for k, sp := range spans {
		if sp.class {
			// the class line itself (decorators above it are in from)
			for i := sp.from - 1; i < min(len(lines), sp.from+maxDecorators); i++ {
				if pyDefRe.MatchString(lines[i]) {
					starts[i] = k
					break
				}
			}
		}
	}
	if len(starts) == 0 {
		return
	}
	type open struct{ span, base, ind int }
	var stack []open
	depth, last := 0, 0 // depth: bracket depth at the start of line i; last: the last non-blank line (1-based)
	for i := range lines {
		if !p.empty[i] {
			for len(stack) > 0 && depth <= stack[len(stack)-1].base && p.ind[i] <= stack[len(stack)-1].ind && !p.inStr[i] {
				spans[stack[len(stack)-1].span].end = last
				stack = stack[:len(stack)-1]
			}
		}
		if k, ok := starts[i]; ok {
			stack = append(stack, open{k, depth, p.ind[i]})
		}
		depth += p.delta[i]
		if !p.empty[i] {
			last = i + 1
		}
	}
	for _, o := range stack {
		spans[o.span].end = last
	}
	defScanned.Add(int64(len(lines)))
}

// maxDecorators is how many lines above a class line its span may start.
const maxDecorators = 64

func (l pyLang) uses(f *defFile, line, around int) (lineRange, []defUse) {
	lines := f.lines
	scan := pyScan(f)
	line = min(max(line, 1), len(lines))
	span := lineRange{max(1, line-20), min(len(lines), line+20)}
	// the nearest enclosing def: a def line at or above line, indented less
	// than line (or line itself)
	ind := indentOf(lines[line-1])
	for i := line; i >= 1; i-- {
		m := pyDefRe.FindStringSubmatch(scan.blank[i-1])
		if m == nil {
			continue
		}
		d := indentOf(m[1])
		if i == line || d < ind {
			if end := pyBlockEnd(scan, i, d); end >= line {
				span = lineRange{i, end}
				break
			}
		}
	}
	if span.to-span.from > 2*around {
		span = lineRange{max(span.from, line-around), min(span.to, line+around)}
	}
	return span, pyUsesIn(f, span, line)
}

func (pyLang) usesOf(f *defFile, s defSpan) (lineRange, []defUse) {
	span := lineRange{s.from, s.to}
	return span, pyUsesIn(f, span, s.to)
}

// pyUsesIn is what the lines of span use (distances from line), with the
// classes of their qualifiers where the lines show them (recv.go).
func pyUsesIn(f *defFile, span lineRange, line int) []defUse {
	blank := pyScan(f).blank
	uses := chainUses(blank[span.from-1:span.to], span.from, line)
	typeUses(f, func(i int) string { return blank[i] }, pyRecv, span, line, uses)
	return append(uses, ctorCalls(blank[span.from-1:span.to], span.from, line)...)
}

// pyModuleFiles returns the files a dotted module name may be, searched from
// the bases in order: base/a/b.py, base/a/b/__init__.py.
func pyModuleFiles(proj *projfs.Root, bases []string, mod string) []string {
	rel := strings.ReplaceAll(mod, ".", "/")
	for _, b := range bases {
		for _, c := range []string{rel + ".py", rel + "/__init__.py"} {
			p := path.Join(b, c)
			if proj.IsFile(p) {
				return []string{p}
			}
		}
	}
	return nil
}

func (pyLang) imports(proj *projfs.Root, file string, src []byte) []defImport {
	dir := dirOf(file)
	// absolute imports: the root, src/, and each folder above the file
	bases := []string{"", "src"}
	for d := dir; d != ""; d = dirOf(d) {
		bases = append(bases, d)
	}
	var out []defImport
	text := string(src)
	for _, m := range pyImportRe.FindAllStringSubmatch(text, -1) {
		for _, part := range strings.Split(m[1], ",") {
			f := strings.Fields(part)
			if len(f) == 0 {
				continue
			}
			mod, local := f[0], f[0]
			if len(f) == 3 && f[1] == "as" {
				local = f[2]
			} else if i := strings.LastIndexByte(mod, '.'); i >= 0 {
				local = mod[i+1:] // a.b.c: uses read c.f
			}
			out = append(out, defImport{local: local, orig: local, module: true, files: pyModuleFiles(proj, bases, mod)})
		}
	}
	for _, m := range pyFromRe.FindAllStringSubmatch(text, -1) {
		mod, names := m[1], strings.Trim(strings.TrimSpace(m[2]), "()")
		modBases := bases
		if strings.HasPrefix(mod, ".") {
			d := dir
			n := len(mod) - len(strings.TrimLeft(mod, "."))
			for range n - 1 {
				d = dirOf(d)
			}
			modBases = []string{d}
			mod = mod[n:]
		}
		var modFiles []string
		if mod != "" {
			modFiles = pyModuleFiles(proj, modBases, mod)
		} else if p := path.Join(modBases[0], "__init__.py"); proj.IsFile(p) {
			modFiles = []string{p}
		}
		for _, part := range strings.Split(names, ",") {
			f := strings.Fields(part)
			if len(f) == 0 {
				continue
			}
			if f[0] == "*" {
				// from .more import *: what the module defines is the
				// importer's too (a package's __init__.py re-exporting it)
				if len(modFiles) > 0 {
					out = append(out, defImport{local: "*", orig: "*", files: modFiles})
				}
				continue
			}
			orig, local := f[0], f[0]
			if len(f) == 3 && f[1] == "as" {
				local = f[2]
			}
			out = append(out, defImport{local: local, orig: orig, files: modFiles})
			sub := orig
			if mod != "" {
				sub = mod + "." + orig
			}
			if subFiles := pyModuleFiles(proj, modBases, sub); len(subFiles) > 0 {
				out = append(out, defImport{local: local, orig: orig, module: true, files: subFiles})
			}
		}
	}
	return out
}

func (pyLang) folder(proj *projfs.Root, file string) []string {
	var out []string
	for _, f := range listFolder(proj, dirOf(file), []string{".py"}) {
		if f != file {
			out = append(out, f)
		}
	}
	return out
}

func (pyLang) wide(names []string) (*regexp.Regexp, []string) {
	return regexp.MustCompile(`^\s*(?:async\s+)?(?:def|class)\s+(` + strings.Join(quoteAll(names), "|") + `)\b`), []string{".py"}
}

var pyBuiltins = wordSet(`False None True and as assert async await break class continue def del elif else except finally for
	from global if import in is lambda nonlocal not or pass raise return try while with yield self cls super print len range
	str int float bool list dict set tuple object type isinstance issubclass open sorted reversed enumerate zip map filter
	min max sum abs any all repr hash id iter next getattr setattr hasattr Exception ValueError TypeError KeyError
	IndexError RuntimeError AssertionError NotImplementedError AttributeError StopIteration OSError`)

func (pyLang) builtin(name string) bool { return pyBuiltins[name] }
