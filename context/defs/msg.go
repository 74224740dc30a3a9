package defs

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"sync"

	"fixplan/context/frames"
	"fixplan/internal/lazyre"
	"fixplan/projfs"
)

// Messages: a failing test often prints or expects text the broken code writes
// ("required flag(s) ... not set", "Did you mean this?", "noun_aliases+=(").
// The quoted strings of the failure output, the messages of its exception
// lines (Python and JS print them unquoted: "ValueError: unknown unit 'x' in
// the duration"; cut at the values in them), and the string literals of the
// failing test's lines (in Python and TS/JS also '…' and a regular expression
// literal, /bad indentation of a mapping entry/) are cut into fragments (at
// escapes such as \n and \", at format verbs such as %q, at a regular
// expression's metacharacters), and the project's source files (test files
// left out) are searched for them in one walk: a fragment counts where a quote
// opens before it on its line, outside a line comment (code that writes it,
// not a comment that mentions it). The definition around a line
// that holds a fragment ranks with the failing package's definitions (tier 1);
// a fragment found in more than maxMsgSpread definitions says too little and is
// dropped, and at most maxMsgDefs definitions are added. The search reads at
// most msgReadBudget bytes.

const (
	minMsgLen    = 10 // bytes a fragment needs
	maxMsgFrags  = 24 // fragments searched for
	maxMsgSpread = 3  // definitions one fragment may be found in
	maxMsgDefs   = 4  // definitions added for messages
	msgTier      = 1
)

// msgReadBudget bounds the bytes the walk of the tree (walk.go: the message
// search and the project-wide name search together) reads in one Base call (a
// huge repository is searched in part rather than slowly); a variable so a
// test can lower it.
var msgReadBudget int64 = 64 << 20

// reClass is an escape or a bracketed class of a regular expression literal.
const reClass = `\\.|\[(?:[^\]\\\n]|\\.)*\]`

var (
	// quoted strings of output and code: "..." with escapes, `...`
	msgQuotedRe = lazyre.New("\"(?:[^\"\\\\\\n]|\\\\.)*\"|`[^`\\n]*`")
	// what cuts a string into fragments: escapes, format verbs, quotes
	msgCutRe = lazyre.New(`\\.|%[-+# 0-9.*]*[a-zA-Z%]|["'` + "`" + `]`)
	// the literals of a line of Python or TS/JS: strings in any quotes, and
	// a regular expression literal where an expression starts (its body is
	// the group)
	codeLiteralRe = lazyre.New(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|` + "`[^`\\n]*`" +
		`|[=(,:!&|?{};\[]\s*/((?:[^/\\\n*\[]|` + reClass + `)(?:[^/\\\n\[]|` + reClass + `)*)/[a-z]*`)
	// what cuts a script's string into fragments: what cuts any string, and
	// an interpolation (f'{x}', `${x}`)
	scriptCutRe = lazyre.New(`\\.|%[-+# 0-9.*]*[a-zA-Z%]|["'` + "`" + `]|\$?\{[^{}\n]*\}`)
	// an exception's line of a Python or JS failure, its message the group
	exceptionLineRe = lazyre.New(`(?m)(?:^|[\s:])(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Warning)(?: \[\w+\])?: (.+)$`)
	// what cuts an exception's message: quoted values, numbers, punctuation
	exceptionCutRe = lazyre.New(`'[^']*'|"[^"]*"|` + "`[^`]*`" + `|[0-9]+|[:;,()\[\]{}<>=]`)
	// what cuts a regular expression into fragments: escapes, classes,
	// groups, anchors, quantifiers, alternatives
	regexCutRe = lazyre.New(`\\.|\[(?:[^\]\\]|\\.)*\]|[(){}^$.|?*+]`)
)

// msgFragments returns the fragments of the quoted strings of text, in order,
// without duplicates in seen.
func msgFragments(text string, seen map[string]bool) []string {
	var out []string
	for _, q := range msgQuotedRe.FindAllString(text, -1) {
		for _, f := range msgCutRe.Split(q[1:len(q)-1], -1) {
			f = strings.TrimSpace(f)
			if !goodFragment(f) || seen[f] {
				continue
			}
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// exceptionFragments returns the fragments of the messages of the exception
// lines of text (Python's "E   ValueError: unknown unit 's' in the
// duration", JS's "Error: bad indentation of a mapping entry (1:10)"), which
// print them unquoted: cut at quotes, digits and punctuation (the values the
// code put in), without duplicates in seen.
func exceptionFragments(text string, seen map[string]bool) []string {
	var out []string
	for _, m := range exceptionLineRe.FindAllStringSubmatch(text, -1) {
		for _, f := range exceptionCutRe.Split(m[1], -1) {
			f = strings.TrimSpace(f)
			if goodFragment(f) && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// codeFragments returns the fragments of the string literals of a line of
// code of lang, without duplicates in seen: Go's "…" and `…` (its '…' is a
// rune), and in Python and TS/JS also '…' and a JS regular expression
// literal (/bad indentation of a mapping entry/ in an assert.throws), whose
// metacharacters cut it as escapes cut a string; an interpolation (f'{x}',
// `${x}`) cuts a script's string too.
func codeFragments(lang defLang, line string, seen map[string]bool) []string {
	if _, ok := lang.(goLang); ok {
		return msgFragments(line, seen)
	}
	var out []string
	for _, m := range codeLiteralRe.FindAllStringSubmatch(line, -1) {
		body, cut := m[0][1:len(m[0])-1], scriptCutRe
		if m[1] != "" { // a regular expression
			body, cut = m[1], regexCutRe
		}
		for _, f := range cut.Split(body, -1) {
			f = strings.TrimSpace(f)
			if goodFragment(f) && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// goodFragment keeps fragments long enough to be specific that are not a
// single identifier (names are looked up as names) and hold a letter.
func goodFragment(f string) bool {
	if len(f) < minMsgLen {
		return false
	}
	letter, other := false, false
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case isLetter(c):
			letter = true
		case isDigit(c) || c == '_':
		default:
			other = true
		}
	}
	return letter && other
}

// messageScan finds the definitions of the project's source files (of the
// failure points' languages, test files left out) whose lines hold a fragment
// of the strings the failure output quotes or the failure points' lines write:
// its scan reads the files in the gather's walk (walkTree), and hits returns
// what it found after the walk.
func (d *defFinder) messageScan(text string, points []defPoint) (scan treeScan, hits func() []defHit) {
	// what the output quotes first (what the failure shows), then the
	// literals of the failing lines, nearest first
	seen := map[string]bool{}
	frags := msgFragments(text, seen)
	frags = append(frags, exceptionFragments(text, seen)...)
	exts := map[string]bool{}
	for _, p := range points {
		lang := langFor(p.file)
		if lang == nil {
			continue
		}
		for _, e := range langExts(p.file) {
			exts[e] = true
		}
		f := d.file(p.file, lang)
		if !f.ok {
			continue
		}
		span, _ := lang.uses(f, p.line, maxUseSpan/2)
		// the lines nearest the failing line first
		var lines []int
		for n := max(1, span.from); n <= min(span.to, len(f.lines)); n++ {
			lines = append(lines, n)
		}
		slices.SortStableFunc(lines, func(a, b int) int { return absInt(a-p.line) - absInt(b-p.line) })
		for _, n := range lines {
			frags = append(frags, codeFragments(lang, f.lines[n-1], seen)...)
		}
	}
	if len(frags) > maxMsgFrags {
		frags = frags[:maxMsgFrags]
	}
	if len(frags) == 0 || len(exts) == 0 {
		return treeScan{}, func() []defHit { return nil }
	}
	lits := projfs.NewLiterals(frags)
	type found = msgFound
	var mu sync.Mutex
	var all []found
	scan.want = func(rel, name string) bool { return exts[path.Ext(name)] && !frames.LooksLikeTestFile(rel) }
	scan.scan = func(rel string, data []byte) {
		for i, ms := range lits.Lines(rel, data) {
			for _, m := range ms {
				if inLiteral(m.Text, frags[i]) {
					mu.Lock()
					all = append(all, found{rel, m.Line, i})
					mu.Unlock()
				}
			}
		}
	}
	return scan, func() []defHit { return d.messageDefs(all, frags, points) }
}

// messageDefs are the definitions around the lines the message scan found
// (in any order: they are taken by file and line).
func (d *defFinder) messageDefs(all []msgFound, frags []string, points []defPoint) []defHit {
	slices.SortFunc(all, func(a, b msgFound) int {
		return cmp.Or(strings.Compare(a.file, b.file), a.line-b.line, a.frag-b.frag)
	})
	// the innermost definition around each line, per fragment
	type defKey struct {
		file string
		from int
	}
	byFrag := make([][]defHit, len(frags))
	dup := map[[2]any]bool{}
	for _, fd := range all {
		lang := langFor(fd.file)
		if lang == nil {
			continue
		}
		f := d.file(fd.file, lang)
		if !f.ok {
			continue
		}
		best := -1
		for i, s := range f.defs {
			if s.from <= fd.line && fd.line <= s.to && (best < 0 || s.to-s.from < f.defs[best].to-f.defs[best].from) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		s := f.defs[best]
		k := [2]any{fd.frag, defKey{fd.file, s.from}}
		if dup[k] {
			continue
		}
		dup[k] = true
		p := points[0]
		byFrag[fd.frag] = append(byFrag[fd.frag], defHit{file: fd.file, span: s, tier: msgTier, usedAt: p,
			pathDist: pathDistance(p.file, fd.file), msg: frags[fd.frag]})
	}
	var out []defHit
	added := map[defKey]bool{}
	for _, hs := range byFrag {
		if len(hs) > maxMsgSpread {
			continue // a common phrase
		}
		for _, h := range hs {
			k := defKey{h.file, h.span.from}
			if added[k] || len(added) == maxMsgDefs {
				continue
			}
			added[k] = true
			out = append(out, h)
		}
	}
	return out
}

// msgFound is a line that holds a fragment (frags[frag]).
type msgFound struct {
	file string
	line int
	frag int
}

// inLiteral reports whether line holds frag after a quote, outside a line
// comment: code that writes the message, not a comment that mentions it.
func inLiteral(line, frag string) bool {
	i := strings.Index(line, frag)
	if i < 0 {
		return false
	}
	before := line[:i]
	t := strings.TrimLeft(before, " \t")
	if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*") {
		return false
	}
	return strings.ContainsAny(before, "\"'`")
}

// langExts lists the extensions of the files of file's language.
func langExts(file string) []string {
	switch langFor(file).(type) {
	case goLang:
		return []string{".go"}
	case pyLang:
		return []string{".py"}
	case tsLang:
		return []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}
	}
	return nil
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
