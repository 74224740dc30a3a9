// Package frames reads failures: the `path:line` frames of stack traces and
// compiler, linter and test-runner output (Parse), the tests a text says fail
// (FailingTests), and where they point in the project (Resolver: frames
// resolved to project files, a failing test's definition, a test file's module
// under test).
package frames

import (
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"fixplan/internal/lazyre"
)

// Frame is one `path:line` reference found in error output, with the path exactly
// as written (file:// URLs are turned into paths).
type Frame struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
	// Class is the qualified class of a Java/Kotlin frame (com.example.Calc); it
	// lets resolution prefer com/example/Calc.java among files of the same name.
	Class string `json:"class,omitempty"`
}

var (
	// Python tracebacks: File "x.py", line 12, in f
	pyFrameRe = lazyre.New(`File "([^"\n]+)", line (\d+)`)
	// Java/Kotlin/Scala: at com.x.C.m(C.java:12), at java.base/java.lang.Thread.run(Thread.java:833)
	javaFrameRe = lazyre.New(`\bat\s+([\w$.<>/\-]+)\(([\w$.\-]+\.(?:java|kt|kts|scala|groovy|clj)):(\d+)\)`)
	// .NET: at Ns.C.M() in C:\src\App\C.cs:line 42; PHP: ... in /var/www/x.php on line 12
	inLineRe = lazyre.New(` in ((?:[A-Za-z]:)?[^\s:"<>|*?]*[^\s:"<>|*?./\\]\.[A-Za-z][A-Za-z0-9]{0,9})(?::line | on line )(\d+)`)
	// file:// URLs (Node ESM, browsers): file:///home/x.mjs:3:9, file:///C:/x.js:3:9
	fileURLRe = lazyre.New(`file://((?:/[A-Za-z]:)?/[^\s:()'"<>]*[^\s:()'"<>./]\.[A-Za-z][A-Za-z0-9_+\-]{0,9}):(\d+)(?::(\d+))?`)
	// Node internals: node:internal/modules/cjs/loader:1105:14
	nodeInternalRe = lazyre.New(`\b(node:[\w/\-.]+):(\d+)(?::(\d+))?`)
	// MSVC and tsc: file(12) : error, file(12,5): error TS2322 — at line start (msbuild may prefix "1>").
	parenFrameRe = lazyre.New(`^\s*(?:\d+>)?((?:[A-Za-z]:)?[^():"<>|*?\n]*?[^():"<>|*?\s./\\]\.[A-Za-z][A-Za-z0-9_+\-]{0,9})\((\d+)(?:,(\d+))?(?:,\d+,\d+)?\)\s*:`)
	// ESLint stylish: a path alone on a line, then indented "  12:5  error  message  rule" rows.
	eslintHeaderRe = lazyre.New(`^((?:[A-Za-z]:[\\/]|/)?[^\s:"<>|*?][^:"<>|*?\n]*\.[A-Za-z][A-Za-z0-9]{0,9})\s*$`)
	eslintRowRe    = lazyre.New(`^\s+(\d+):(\d+)\s+(?:error|warning|✖|⚠)\s`)
	// ts-loader (webpack): [tsl] ERROR in C:\x\app.ts(12,5)
	tslFrameRe = lazyre.New(`(?:ERROR|WARNING) in ((?:[A-Za-z]:)?[^()\n]*?[^():"<>|*?\s./\\]\.[A-Za-z][A-Za-z0-9]{0,9})\((\d+),(\d+)\)`)
	// webpack module locations: "ERROR in ./src/a.ts 14:4-10", " @ ./src/index.ts 3:0-32",
	// and a bare "./src/a.ts 14:4-10" (then the range is required).
	webpackLocRe     = lazyre.New(`^\s*(?:(?:ERROR|WARNING) in |@ )(\S+\.[A-Za-z][A-Za-z0-9]{0,9}) (\d+):(\d+)(?:-(?:\d+:)?\d+)?(?:\s|$)`)
	webpackBareLocRe = lazyre.New(`^\s*(\.{1,2}/\S+\.[A-Za-z][A-Za-z0-9]{0,9}) (\d+):(\d+)-(?:\d+:)?\d+(?:\s|$)`)
	// Node stacks and whole-line locations whose absolute path has spaces
	// (C:\Users\John Smith\app\x.ts): "at f (PATH:12:5)", "PATH:12" at line start.
	spacedParenRe = lazyre.New(`\(((?:[A-Za-z]:[\\/]|/)[^()\n:]* [^()\n:]*\.[A-Za-z][A-Za-z0-9]{0,9}):(\d+):(\d+)\)`)
	spacedLineRe  = lazyre.New(`^\s*((?:[A-Za-z]:[\\/]|/)[^:*?"<>|\n]* [^:*?"<>|\n]*\.[A-Za-z][A-Za-z0-9]{0,9}):(\d+)(?::(\d+))?(?:$|[: ])`)
)

// extensionlessNames are build files without an extension whose tools report
// `Name:line` (make, docker build, ...); they count as frame paths too.
var extensionlessNames = map[string]bool{
	"Makefile": true, "makefile": true, "GNUmakefile": true, "Dockerfile": true, "Containerfile": true,
	"Jenkinsfile": true, "Rakefile": true, "Gemfile": true, "Vagrantfile": true, "Justfile": true, "justfile": true,
	"Snakefile": true, "Tiltfile": true, "Brewfile": true, "Procfile": true, "BUILD": true, "WORKSPACE": true,
}

// sourceExts are the file extensions a generic path:line match must have; they keep
// host:port and version strings out of the frames.
var sourceExts = extSet(`py pyi pyx pxd go mod js mjs cjs jsx ts tsx mts cts vue svelte astro java kt kts scala groovy gradle clj cljs
		rs c h cc cpp cxx c++ hpp hh hxx ipp inl m mm cs fs fsx vb rb erb rake php swift dart lua pl pm r jl ex exs erl hrl hs ml mli elm
		html htm css scss sass less json jsonc yaml yml toml xml sql sh bash zsh ps1 psm1 bat cmd proto graphql gql tf hcl zig nim
		cmake mk make txt ini cfg conf tpl tmpl j2 jinja ejs hbs pug sol asm s f f90 f95 lisp el scm rkt coffee cr nix bzl bazel star
		d v sv vhd ipynb md rst cshtml razor xaml csproj sln plist properties`)

func extSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(list) {
		m[e] = true
	}
	return m
}

// frameKey identifies a frame for de-duplication: the same path and line count
// once (the first column seen is kept).
type frameKey struct {
	path string
	line int
}

// Parse extracts every `path:line[:column]` frame of text, in order of
// appearance and de-duplicated, from Python tracebacks (chained ones too), pytest
// reports, Go panics (every goroutine) and `go test` output, Node/TypeScript stacks
// (incl. file:// URLs and node: internals), Java/Kotlin stacks (incl. Caused by),
// Rust panics (old and new format) and rustc, gcc/clang, MSVC and tsc
// (`file(L,C)`), ESLint's stylish format, and also .NET (`in X.cs:line N`), PHP
// (`in x.php on line N`) and Ruby (`x.rb:N:in`); make's `Makefile:18:` (and
// other build files without an extension), Visual Studio's copied Error List
// (tab-separated, with or without its header), ts-loader's `[tsl] ERROR in
// x.ts(L,C)` and webpack's `./x.ts L:C-C` locations, absolute paths with spaces
// (`C:\Users\John Smith\x.ts:L:C`), and `go test -json` (the Output of the
// events, joined per test). It never fails; text without frames gives nil.
func Parse(text string) []Frame {
	var out []Frame
	seen := map[frameKey]int{}
	add := func(f Frame) {
		if f.Path == "" || f.Line <= 0 {
			return
		}
		k := frameKey{f.Path, f.Line}
		if i, ok := seen[k]; ok {
			if out[i].Column == 0 {
				out[i].Column = f.Column
			}
			return
		}
		seen[k] = len(out)
		out = append(out, f)
	}
	text = expandGoTestJSON(text)
	eslintFile := ""
	var table errorListTable
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if len(line) > 4096 { // minified code or binary noise: no frames worth a window
			line = line[:4096]
		}
		if f, ok := table.row(line); ok {
			add(f)
		}
		if eslintFile != "" {
			if m := eslintRowRe.FindStringSubmatch(line); m != nil {
				add(Frame{Path: eslintFile, Line: atoi(m[1]), Column: atoi(m[2])})
				continue
			}
		}
		if line != "" && line[0] != ' ' && line[0] != '\t' && knownExt(line) {
			if m := eslintHeaderRe.FindStringSubmatch(line); m != nil {
				eslintFile = m[1]
				continue
			}
		}
		if strings.TrimSpace(line) != "" {
			eslintFile = ""
		}
		if !strings.ContainsAny(line, "0123456789") { // every frame has a line number
			continue
		}
		for _, f := range lineFrames(line) {
			add(f)
		}
	}
	return out
}

type span struct {
	start, end int
	f          Frame
}

// lineFrames returns the frames of one line, ordered by position.
func lineFrames(line string) []Frame {
	var spans []span
	overlaps := func(s, e int) bool {
		for _, sp := range spans {
			if s < sp.end && e > sp.start {
				return true
			}
		}
		return false
	}
	hasParen := strings.IndexByte(line, '(') >= 0
	for _, m := range pyFrameRe.FindAllStringSubmatchIndex(lineIf(line, strings.Contains(line, `File "`)), -1) {
		p := line[m[2]:m[3]]
		if strings.HasPrefix(p, "<") { // <frozen importlib._bootstrap>, <stdin>
			spans = append(spans, span{m[0], m[1], Frame{}})
			continue
		}
		spans = append(spans, span{m[0], m[1], Frame{Path: p, Line: atoi(line[m[4]:m[5]])}})
	}
	for _, m := range javaFrameRe.FindAllStringSubmatchIndex(lineIf(line, hasParen && strings.Contains(line, "at")), -1) {
		spans = append(spans, span{m[0], m[1], Frame{Path: line[m[4]:m[5]], Line: atoi(line[m[6]:m[7]]), Class: javaClass(line[m[2]:m[3]])}})
	}
	for _, m := range inLineRe.FindAllStringSubmatchIndex(lineIf(line, strings.Contains(line, "line ")), -1) {
		spans = append(spans, span{m[0], m[1], Frame{Path: line[m[2]:m[3]], Line: atoi(line[m[4]:m[5]])}})
	}
	for _, m := range fileURLRe.FindAllStringSubmatchIndex(lineIf(line, strings.Contains(line, "file://")), -1) {
		f := Frame{Path: fileURLPath(line[m[2]:m[3]]), Line: atoi(line[m[4]:m[5]])}
		if m[6] >= 0 {
			f.Column = atoi(line[m[6]:m[7]])
		}
		spans = append(spans, span{m[0], m[1], f})
	}
	for _, m := range nodeInternalRe.FindAllStringSubmatchIndex(lineIf(line, strings.Contains(line, "node:")), -1) {
		if overlaps(m[0], m[1]) {
			continue
		}
		f := Frame{Path: line[m[2]:m[3]], Line: atoi(line[m[4]:m[5]])}
		if m[6] >= 0 {
			f.Column = atoi(line[m[6]:m[7]])
		}
		spans = append(spans, span{m[0], m[1], f})
	}
	hasIn := strings.Contains(line, " in ")
	for _, m := range tslFrameRe.FindAllStringSubmatchIndex(lineIf(line, hasParen && hasIn), -1) {
		spans = append(spans, span{m[2], m[1], Frame{Path: line[m[2]:m[3]], Line: atoi(line[m[4]:m[5]]), Column: atoi(line[m[6]:m[7]])}})
	}
	for i, re := range []*lazyre.RE{webpackLocRe, webpackBareLocRe} {
		if i == 0 && !hasIn && !strings.Contains(line, "@ ") || i == 1 && !strings.HasPrefix(strings.TrimLeft(line, " \t"), ".") {
			continue
		}
		if m := re.FindStringSubmatchIndex(line); m != nil && !overlaps(m[2], m[1]) {
			spans = append(spans, span{m[2], m[7], Frame{Path: line[m[2]:m[3]], Line: atoi(line[m[4]:m[5]]), Column: atoi(line[m[6]:m[7]])}})
		}
	}
	if lead := strings.TrimLeft(line, " \t"); strings.Contains(lead, " ") && (lead[0] == '/' || startsWithDrive(lead) || hasParen) {
		for _, m := range spacedParenRe.FindAllStringSubmatchIndex(lineIf(line, hasParen && (strings.Contains(line, "(/") || strings.Contains(line, `:\`))), -1) {
			if !overlaps(m[2], m[1]) {
				spans = append(spans, span{m[2], m[1], Frame{Path: line[m[2]:m[3]], Line: atoi(line[m[4]:m[5]]), Column: atoi(line[m[6]:m[7]])}})
			}
		}
		if m := spacedLineRe.FindStringSubmatchIndex(lineIf(line, lead[0] == '/' || startsWithDrive(lead))); m != nil && knownExt(line[m[2]:m[3]]) && !overlaps(m[2], m[3]) {
			f := Frame{Path: line[m[2]:m[3]], Line: atoi(line[m[4]:m[5]])}
			end := m[5]
			if m[6] >= 0 {
				f.Column, end = atoi(line[m[6]:m[7]]), m[7]
			}
			spans = append(spans, span{m[2], end, f})
		}
	}
	if m := parenFrameRe.FindStringSubmatchIndex(lineIf(line, hasParen)); m != nil && knownExt(line[m[2]:m[3]]) && !overlaps(m[2], m[1]) {
		f := Frame{Path: strings.TrimSpace(line[m[2]:m[3]]), Line: atoi(line[m[4]:m[5]])}
		if m[6] >= 0 {
			f.Column = atoi(line[m[6]:m[7]])
		}
		spans = append(spans, span{m[2], m[1], f})
	}
	for _, c := range colonFrames(line) {
		if !overlaps(c.start, c.end) {
			spans = append(spans, c)
		}
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	out := make([]Frame, 0, len(spans))
	for _, s := range spans {
		if s.f.Path != "" {
			out = append(out, s.f)
		}
	}
	return out
}

// notPathBytes end a path in a generic path:line frame.
const notPathBytes = " \t\r\n:\"'()<>[]{}|*?,;="

// colonFrames finds every generic `path.ext:line[:col]` frame of line (gcc/clang,
// go, rustc, node, pytest, eslint's unix format): from each ":<digit>" it walks
// back over path bytes (taking a drive letter along), and keeps paths whose
// extension is a source extension. URLs (//host...) are skipped.
func colonFrames(line string) []span {
	var out []span
	for i := 0; i+1 < len(line); i++ {
		if line[i] != ':' || !isDigit(line[i+1]) {
			continue
		}
		s := i
		for s > 0 && strings.IndexByte(notPathBytes, line[s-1]) < 0 {
			s--
		}
		// a drive letter: C:\x or C:/x, not glued to a word (file:///, https://)
		if s >= 2 && line[s-1] == ':' && isLetter(line[s-2]) && (s < len(line) && (line[s] == '\\' || line[s] == '/')) &&
			(s == 2 || !isWordByte(line[s-3])) {
			s -= 2
		}
		p := line[s:i]
		j := i + 1
		for j < len(line) && isDigit(line[j]) {
			j++
		}
		f := Frame{Path: p, Line: atoi(line[i+1 : j])}
		if j+1 < len(line) && line[j] == ':' && isDigit(line[j+1]) {
			k := j + 1
			for k < len(line) && isDigit(line[k]) {
				k++
			}
			f.Column = atoi(line[j+1 : k])
			j = k
		}
		if validFramePath(p) {
			out = append(out, span{s, j, f})
		}
		i = j - 1
	}
	return out
}

// validFramePath reports whether p ends in `.ext` with a source extension after a
// file name, and is not a URL's //host.
func validFramePath(p string) bool {
	if strings.HasPrefix(p, "//") {
		return false
	}
	if extensionlessNames[p[strings.LastIndexAny(p, `/\`)+1:]] {
		return true
	}
	dot := strings.LastIndexByte(p, '.')
	if dot < 1 {
		return false
	}
	if c := p[dot-1]; c == '.' || c == '/' || c == '\\' {
		return false
	}
	ext := p[dot+1:]
	if len(ext) == 0 || len(ext) > 10 || !isLetter(ext[0]) {
		return false
	}
	for k := 1; k < len(ext); k++ {
		if c := ext[k]; !isWordByte(c) && c != '+' && c != '-' {
			return false
		}
	}
	return sourceExts[strings.ToLower(ext)]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// startsWithDrive reports whether s starts with a drive letter and a separator (C:\, C:/).
func startsWithDrive(s string) bool {
	return len(s) >= 3 && isLetter(s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/')
}

// lineIf returns line when ok, else "" (a cheap pre-check that skips a regexp).
func lineIf(line string, ok bool) string {
	if ok {
		return line
	}
	return ""
}

// fileURLPath turns the path part of a file:// URL ("///home/x.js", "///C:/x.js")
// into a path ("/home/x.js", "C:/x.js").
func fileURLPath(p string) string {
	p = "/" + strings.TrimLeft(p, "/")
	if len(p) >= 3 && p[2] == ':' && isLetter(p[1]) {
		p = p[1:]
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return p
}

// javaClass strips the module/class-loader prefix and the method from a Java
// frame's qualified method: java.base/java.lang.Thread.run → java.lang.Thread.
func javaClass(qual string) string {
	if i := strings.LastIndexByte(qual, '/'); i >= 0 {
		qual = qual[i+1:]
	}
	if i := strings.LastIndexByte(qual, '.'); i >= 0 {
		qual = qual[:i]
	}
	return qual
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || isLetter(c)
}

func knownExt(p string) bool {
	ext := strings.TrimPrefix(path.Ext(strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")), ".")
	return sourceExts[strings.ToLower(ext)]
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n > 1e8 {
		return 0
	}
	return n
}
