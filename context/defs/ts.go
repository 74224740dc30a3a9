package defs

import (
	"encoding/json"
	"path"
	"regexp"
	"strings"

	"fixplan/internal/lazyre"
	"fixplan/projfs"
)

// tsLang finds TypeScript and JavaScript definitions with a line heuristic (no
// parser is run; tree-sitter would need cgo, which the Windows cross-build does
// not have):
//
//   - strings, template literals and comments are blanked first, so brackets and
//     names inside them do not count (regular-expression literals are not
//     recognised);
//   - a definition is a line declaring `function`, `class`, `interface`, `type`,
//     `enum`, `const`/`let`/`var` (optionally `export`, `default`, `declare`,
//     `async`, `abstract`), or, indented, a class or object method
//     (`name(…) {`, with modifiers) or arrow property (`name = (…) =>`); it ends
//     where its brackets close, at a `;`, or before the next line indented no
//     deeper;
//   - the function around a failure point is the innermost enclosing block opened
//     by a function, arrow function, method, or a test call (`it(`, `test(`);
//   - `import … from './x'`, `import * as ns from './x'` and `require('./x')`
//     resolve relative specifiers to x.ts, .tsx, .d.ts, .js, .jsx, .mjs, .cjs,
//     .mts, .cts or x/index.* (an ESM `./x.js` also to x.ts), and a folder
//     (`require('../')`, `'..'`) to its package.json "main" or its index.*; bare specifiers
//     (packages) are library names and are not looked up (nor is the
//     `const x = require('…')` line a definition); `export * from`,
//     `export { a } from` re-export, and CommonJS `exports.f = …`,
//     `module.exports.f = …` and the keys of `module.exports = { … }` are
//     definitions of what the module exports.
type tsLang struct{}

var (
	tsDefRe      = lazyre.New(`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|interface|type|enum|const\s+enum|const|let|var)\s+([A-Za-z_$][\w$]*)`)
	tsMethodRe   = lazyre.New(`^\s+(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*\*?#?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*$`)
	tsArrowRe    = lazyre.New(`^\s+(?:(?:public|private|protected|static|readonly)\s+)*#?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>`)
	tsDefaultRe  = lazyre.New(`^\s*export\s+default\s+(?:(?:async\s+)?function\s*\*?\s*|(?:abstract\s+)?class\s+)?([A-Za-z_$][\w$]*)`)
	tsFuncOpenRe = lazyre.New(`\bfunction\b|=>|\b(?:it|test|describe|beforeEach|afterEach)(?:\.\w+)?\s*\(`)
	tsImportRe   = lazyre.New(`(?s)\bimport\s+(?:type\s+)?([^;'"]*?)\s+from\s+['"]([^'"\n]+)['"]`)
	tsClassRe    = lazyre.New(`\bclass\s+([A-Za-z_$][\w$]*)(?:\s*<[^>{]*>)?(?:\s+extends\s+([A-Za-z_$][\w$.]*))?`)
	// a line binding an import (strings are blanked: the specifier is spaces)
	tsRequireLineRe = lazyre.New(`^\s*(?:export\s+)?(?:const|let|var)\s+[^=]*=\s*require\(\s*\)\s*[;,]?\s*$`)
	tsExportsRe     = lazyre.New(`^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=[^=]`)
	tsExportsObjRe  = lazyre.New(`^\s*module\.exports\s*=\s*\{`)
	tsObjKeyRe      = lazyre.New(`^\s*([A-Za-z_$][\w$]*)\s*(?::|,|$)`)
	tsExportFromRe  = lazyre.New(`(?s)\bexport\s+(?:type\s+)?(\*\s+as\s+[A-Za-z_$][\w$]*|\*|\{[^}]*\})\s+from\s+['"]([^'"\n]+)['"]`)
	tsRequireRe     = lazyre.New(`(?s)\b(?:const|let|var)\s+([^;=]+?)\s*=\s*require\(\s*['"]([^'"\n]+)['"]\s*\)`)
)

var tsNotMethods = wordSet(`if for while switch catch function return with do else constructor super new typeof await`)

// tsBlank blanks strings, template literals and comments (kept: the line
// structure and the code's brackets and names).
func tsBlank(lines []string) []string {
	out := make([]string, len(lines))
	inBlock, inTmpl := false, false
	for i, l := range lines {
		b := []byte(l)
		for j := 0; j < len(b); j++ {
			c := b[j]
			switch {
			case inBlock:
				if c == '*' && j+1 < len(b) && b[j+1] == '/' {
					b[j], b[j+1] = ' ', ' '
					j++
					inBlock = false
					continue
				}
				b[j] = ' '
			case inTmpl:
				if c == '\\' && j+1 < len(b) {
					b[j], b[j+1] = ' ', ' '
					j++
					continue
				}
				if c == '`' {
					inTmpl = false
				}
				b[j] = ' '
			case c == '/' && j+1 < len(b) && b[j+1] == '/':
				for k := j; k < len(b); k++ {
					b[k] = ' '
				}
				j = len(b)
			case c == '/' && j+1 < len(b) && b[j+1] == '*':
				b[j], b[j+1] = ' ', ' '
				j++
				inBlock = true
			case c == '`':
				b[j] = ' '
				inTmpl = true
			case c == '\'' || c == '"':
				k := j + 1
				for k < len(b) && b[k] != c {
					if b[k] == '\\' {
						k++
					}
					k++
				}
				for m := j; m <= k && m < len(b); m++ {
					b[m] = ' '
				}
				j = k
			}
		}
		out[i] = string(b)
	}
	return out
}

// tsStmtEnd returns the last line (1-based) of the statement that starts at
// from: where its brackets close, at a `;`, or before the next line that is
// indented no deeper and does not continue an expression; at most maxBlockLines
// lines below from (a bracket that never closes does not make every statement
// run to the end of the file).
func tsStmtEnd(t *tsLines, from int) int {
	blank := t.blank
	ind := indentOf(blank[from-1])
	depth, opened := 0, false
	last := min(len(blank), from+maxBlockLines)
	j := from - 1
	defer func() { defScanned.Add(int64(j - from + 2)) }()
	for ; j < last; j++ {
		depth += t.delta[j]
		opened = opened || t.bracket[j]
		if depth > 0 {
			continue
		}
		tt := strings.TrimSpace(blank[j])
		if opened || strings.HasSuffix(tt, ";") || strings.HasSuffix(tt, "}") {
			return j + 1
		}
		k := t.next[j+1]
		if k == len(blank) {
			return j + 1
		}
		next := strings.TrimSpace(blank[k])
		if indentOf(blank[k]) <= ind && !strings.HasPrefix(next, ".") && !strings.HasPrefix(next, "?") && !strings.HasPrefix(next, ":") &&
			!strings.HasSuffix(tt, "=>") && !strings.HasSuffix(tt, "=") {
			return j + 1
		}
	}
	return last
}

// tsLines is what the scans need of each line of a file, computed once per
// file: the lines with strings and comments blanked, each line's change of
// bracket depth, the depth at each line's start, and the next non-blank line.
type tsLines struct {
	blank   []string
	delta   []int
	bracket []bool // the line has a bracket
	depthAt []int  // depth at the start of line i+1 (len(blank)+1 entries)
	ends    []int  // blockEnds, computed on first use
	next    []int  // index of the first non-blank line at or after i (len(blank)+1 entries)
}

// scanned returns the file's tsLines, computed once.
func (tsLang) scanned(f *defFile) *tsLines {
	if t, ok := f.parsed.(*tsLines); ok {
		return t
	}
	b := tsBlank(f.lines)
	n := len(b)
	t := &tsLines{blank: b, delta: make([]int, n), bracket: make([]bool, n), depthAt: make([]int, n+1), next: make([]int, n+1)}
	for i, l := range b {
		t.delta[i], t.bracket[i] = bracketDelta(l)
		t.depthAt[i+1] = t.depthAt[i] + t.delta[i]
	}
	t.next[n] = n
	for i := n - 1; i >= 0; i-- {
		if strings.TrimSpace(b[i]) == "" {
			t.next[i] = t.next[i+1]
		} else {
			t.next[i] = i
		}
	}
	f.parsed = t
	return t
}

// blockEnd returns the line (1-based) where the brackets the block starting at
// line from opens close again, however far below (the last line when they never
// do); a line that opens none looks at the next two lines for the opening (a
// class whose brace is on a line of its own). The ends of all the file's blocks
// are found in one pass, once per file, so a file of unclosed blocks costs no
// more than its length.
func (t *tsLines) blockEnd(from int) int {
	if t.ends == nil {
		t.ends = t.blockEnds()
	}
	n := len(t.blank)
	for k := from; k <= min(n, from+2); k++ {
		if t.ends[k-1] > 0 {
			return t.ends[k-1]
		}
		if t.bracket[k-1] || (k > from && strings.TrimSpace(t.blank[k-1]) != "") {
			return k // brackets that close on the line, or a statement without a block
		}
	}
	return from
}

// blockEnds returns, for each line whose brackets leave the depth higher than
// it found it, the line where the depth is back at that level (the last line
// when it never is), and 0 for the other lines.
func (t *tsLines) blockEnds() []int {
	n := len(t.blank)
	ends := make([]int, n)
	type open struct{ line, base int }
	var stack []open
	for k := 1; k <= n; k++ {
		before, after := t.depthAt[k-1], t.depthAt[k]
		for len(stack) > 0 && stack[len(stack)-1].base >= after {
			ends[stack[len(stack)-1].line-1] = k
			stack = stack[:len(stack)-1]
		}
		if after > before {
			stack = append(stack, open{k, before})
		}
	}
	for _, o := range stack {
		ends[o.line-1] = n
	}
	defScanned.Add(int64(n))
	return ends
}

// blanked returns the file's lines with strings and comments blanked, once.
func (l tsLang) blanked(f *defFile) []string { return l.scanned(f).blank }

func (l tsLang) defs(f *defFile) []defSpan {
	scan := l.scanned(f)
	blank := scan.blank
	var out []defSpan
	dflt := ""
	for i, l := range blank {
		if m := tsDefaultRe.FindStringSubmatch(l); m != nil && !tsNotMethods[m[1]] {
			dflt = m[1]
		}
		name, member, data := "", false, false
		if tsRequireLineRe.MatchString(l) {
			continue // `const x = require('…')` binds an import: not a definition
		}
		if m := tsExportsRe.FindStringSubmatch(l); m != nil {
			name = m[1] // CommonJS: exports.f = …, module.exports.f = …
		} else if tsExportsObjRe.MatchString(l) {
			// module.exports = { a, b: c, … }: each key names what the module exports
			end := min(scan.blockEnd(i+1), i+1+maxBlockLines)
			defScanned.Add(int64(end - i))
			for j := i + 1; j < end && j < len(blank); j++ {
				if scan.depthAt[j] != scan.depthAt[i]+1 {
					continue
				}
				if k := tsObjKeyRe.FindStringSubmatch(blank[j]); k != nil {
					out = append(out, defSpan{name: k[1], from: j + 1, to: j + 1})
				}
			}
			continue
		} else if m := tsDefRe.FindStringSubmatch(l); m != nil {
			name = m[1]
			data = tsVarRe.MatchString(l) && !strings.Contains(l, "=>") && !strings.Contains(l, "function")
		} else if m := tsArrowRe.FindStringSubmatch(l); m != nil {
			name, member = m[1], true
		} else if m := tsMethodRe.FindStringSubmatch(l); m != nil && !tsNotMethods[m[1]] &&
			(strings.HasSuffix(strings.TrimSpace(l), "{") || strings.HasSuffix(strings.TrimSpace(l), ",") || strings.HasSuffix(strings.TrimSpace(l), "(")) {
			name, member = m[1], true
		}
		if name == "" {
			continue
		}
		s := defSpan{name: name, from: i + 1, to: tsStmtEnd(scan, i+1), member: member, data: data}
		if c := tsClassRe.FindStringSubmatch(l); c != nil && c[1] == name {
			s.class, s.end = true, scan.blockEnd(i+1)
			s.bases = c[2]
		}
		out = append(out, s)
	}
	for i := range out {
		out[i].dflt = dflt != "" && out[i].name == dflt && !out[i].member
	}
	return out
}

func (l tsLang) uses(f *defFile, line, around int) (lineRange, []defUse) {
	lines := f.lines
	line = min(max(line, 1), len(lines))
	scan := l.scanned(f)
	blank, depthAt := scan.blank, scan.depthAt
	span := lineRange{max(1, line-20), min(len(lines), line+20)}
	target := depthAt[line-1]
	for j := line - 1; j >= 1 && target > 0; j-- {
		if depthAt[j-1] >= target {
			continue
		}
		// line j opens the block around line: its end is searched only when it
		// is a function's (one search per call, not one per enclosing block)
		if tsFuncOpenRe.MatchString(blank[j-1]) || tsMethodRe.MatchString(blank[j-1]) {
			end := len(blank)
			for k := j; k <= len(blank); k++ {
				if depthAt[k] <= depthAt[j-1] {
					end = k
					break
				}
			}
			span = lineRange{j, max(end, line)}
			break
		}
		target = depthAt[j-1]
	}
	if span.to-span.from > 2*around {
		span = lineRange{max(span.from, line-around), min(span.to, line+around)}
	}
	return span, l.usesIn(f, span, line)
}

func (l tsLang) usesOf(f *defFile, s defSpan) (lineRange, []defUse) {
	span := lineRange{s.from, s.to}
	return span, l.usesIn(f, span, s.to)
}

// usesIn is what the lines of span use (distances from line), with the
// classes of their qualifiers where the lines show them (recv.go).
func (l tsLang) usesIn(f *defFile, span lineRange, line int) []defUse {
	blank := l.scanned(f).blank
	uses := chainUses(blank[span.from-1:span.to], span.from, line)
	typeUses(f, func(i int) string { return blank[i] }, tsRecv, span, line, uses)
	return append(uses, ctorCalls(blank[span.from-1:span.to], span.from, line)...)
}

// tsResolve returns the project file a relative import specifier names.
func tsResolve(proj *projfs.Root, file, spec string) []string {
	if spec != "." && spec != ".." && !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return nil // a package, or a path alias this heuristic does not read
	}
	p := path.Join(dirOf(file), spec)
	if strings.HasPrefix(p, "../") || p == ".." {
		return nil
	}
	exts := []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}
	cands := []string{p}
	for _, e := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(p, e) {
			stem := strings.TrimSuffix(p, e)
			cands = append(cands, stem+".ts", stem+".tsx", stem+".mts", stem+".cts")
		}
	}
	for _, e := range exts {
		cands = append(cands, p+e)
	}
	// a folder (`require('../')`, `import x from '..'`): its package.json
	// "main", then its index file, as Node resolves it
	if main := tsPackageMain(proj, p); main != "" {
		m := path.Join(p, main)
		cands = append(cands, m)
		for _, e := range exts {
			cands = append(cands, m+e, path.Join(m, "index"+e))
		}
	}
	for _, e := range exts {
		cands = append(cands, path.Join(p, "index"+e))
	}
	for _, c := range cands {
		if proj.IsFile(c) {
			return []string{c}
		}
	}
	return nil
}

// tsPackageMain returns the "main" of the package.json in folder dir, if any
// (the file a require of the folder loads); a path leaving the project is
// refused later by exists, like any other candidate.
func tsPackageMain(proj *projfs.Root, dir string) string {
	data, err := proj.ReadHead(path.Join(dir, "package.json"), 64<<10)
	if err != nil {
		return ""
	}
	var pj struct {
		Main string `json:"main"`
	}
	if json.Unmarshal(data, &pj) != nil {
		return ""
	}
	return strings.TrimPrefix(pj.Main, "./")
}

func (tsLang) imports(proj *projfs.Root, file string, src []byte) []defImport {
	text := strings.Join(tsBlankKeepStrings(string(src)), "\n")
	var out []defImport
	add := func(clause, spec string, require bool) {
		files := tsResolve(proj, file, spec)
		clause = strings.TrimSpace(clause)
		if clause == "" {
			return
		}
		if i := strings.IndexByte(clause, '{'); i >= 0 {
			j := strings.LastIndexByte(clause, '}')
			if j < i {
				return
			}
			for _, part := range strings.Split(clause[i+1:j], ",") {
				f := strings.Fields(strings.ReplaceAll(part, ":", " : "))
				if len(f) > 0 && f[0] == "type" && len(f) > 1 {
					f = f[1:]
				}
				if len(f) == 0 {
					continue
				}
				orig, local := f[0], f[0]
				if len(f) == 3 && (f[1] == "as" || f[1] == ":") {
					local = f[2]
				}
				out = append(out, defImport{local: local, orig: orig, files: files})
			}
			clause = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(clause[:i]), ","))
		}
		if clause == "" {
			return
		}
		if rest, ok := strings.CutPrefix(clause, "*"); ok {
			if f := strings.Fields(rest); len(f) == 2 && f[0] == "as" {
				out = append(out, defImport{local: f[1], orig: f[1], module: true, files: files})
			}
			return
		}
		name := strings.TrimSpace(strings.TrimSuffix(clause, ","))
		if strings.ContainsAny(name, " ,") {
			name = strings.TrimSpace(name[:strings.IndexAny(name, " ,")])
		}
		if require {
			out = append(out, defImport{local: name, orig: name, module: true, files: files})
			return
		}
		// a default import: the file's export default, and its members as ns.f
		out = append(out, defImport{local: name, orig: "default", files: files},
			defImport{local: name, orig: name, module: true, files: files})
	}
	for _, m := range tsImportRe.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2], false)
	}
	for _, m := range tsRequireRe.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2], true)
	}
	// re-exports: export { a as b } from './x' binds b like an import;
	// export * from './x' makes x's exports the file's (an index file)
	for _, m := range tsExportFromRe.FindAllStringSubmatch(text, -1) {
		clause := strings.TrimSpace(m[1])
		if clause == "*" {
			if files := tsResolve(proj, file, m[2]); len(files) > 0 {
				out = append(out, defImport{local: "*", orig: "*", files: files})
			}
			continue
		}
		add(clause, m[2], false)
	}
	return out
}

// tsBlankKeepStrings blanks comments only (import specifiers are strings).
func tsBlankKeepStrings(src string) []string {
	lines := projfs.SplitLines([]byte(src))
	blank := tsBlank(lines)
	for i := range lines {
		if strings.TrimSpace(blank[i]) == "" && strings.TrimSpace(lines[i]) != "" &&
			(strings.HasPrefix(strings.TrimSpace(lines[i]), "//") || strings.HasPrefix(strings.TrimSpace(lines[i]), "/*") || strings.HasPrefix(strings.TrimSpace(lines[i]), "*")) {
			lines[i] = ""
		}
	}
	return lines
}

var tsExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

func (tsLang) folder(proj *projfs.Root, file string) []string {
	var out []string
	for _, f := range listFolder(proj, dirOf(file), tsExts) {
		if f != file {
			out = append(out, f)
		}
	}
	return out
}

func (tsLang) wide(names []string) (*regexp.Regexp, []string) {
	return regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|interface|type|enum|const|let|var)\s+(` +
		strings.Join(quoteAll(names), "|") + `)\b`), tsExts
}

var tsBuiltins = wordSet(`break case catch class const continue debugger default delete do else export extends finally for
	function if import in instanceof new return super switch this throw try typeof var void while with yield let static
	async await of as from type interface enum implements private protected public readonly abstract declare namespace
	undefined null true false NaN Infinity console require module exports Object Array String Number Boolean Symbol
	Promise Map Set WeakMap Error TypeError RangeError JSON Math Date RegExp parseInt parseFloat setTimeout clearTimeout
	describe it test expect beforeEach afterEach beforeAll afterAll jest vi assert any unknown never string number boolean`)

func (tsLang) builtin(name string) bool { return tsBuiltins[name] }

// tsVarRe finds a variable declaration (a definition that is data unless it
// holds a function).
var tsVarRe = lazyre.New(`^\s*(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s`)
