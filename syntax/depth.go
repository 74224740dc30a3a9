package syntax

import (
	"fmt"

	"github.com/evanw/esbuild/pkg/api"
)

// The parsers Check calls recurse once per level of nesting and have no limit of
// their own: esbuild overflows Go's 1 GB goroutine stack at about 150,000 to
// 300,000 levels (`{a:` or `(` repeated; measured with a 2 MiB input), go-toml at
// well under 1.5 million `[`, and a stack overflow is a fatal error that no
// recover() catches — a hostile project file or a model reply would end the
// whole app. So before parsing, depth estimates the nesting with a linear scan
// and Check skips content deeper than MaxDepth, far below what overflows. The
// estimate may count too much (an odd bracket in JSX text, a long run of
// operators on one statement), never much too little: brackets are counted both
// with strings and comments skipped and raw, and the larger depth is used, so a
// bracket hidden in a string cannot cancel a real one.

// MaxDepth is the deepest nesting Check parses in JavaScript, TypeScript and
// TOML: hand-written code stays far below it (a few dozen levels).
const MaxDepth = 500

// MaxLinks is the longest operand chain Check parses in JavaScript and
// TypeScript: member accesses (.x, ?.x), call and index suffixes, tagged
// templates and ** in one statement on one bracket level. esbuild parses most
// of them in a loop but its visit pass recurses once per link, so a chain of
// 400,000 (`a.b.b…`, `f()()…`, `f[0][0]…`, "f“…", `a**a**…`, 0.8 MB) overflows
// the stack. Real code stays far below it: of 13,054 JS/TS files on the
// development machine (node_modules, bundles, minified code) the longest chain
// had 216 links (react-dom.profiling.min.js).
const MaxLinks = 20_000

// MaxSequenceCost bounds the time esbuild spends on comma sequences (a, b, c as
// one expression): its printer simplifies them in time quadratic in their
// length (20,000 commas in one statement took 3.9 s, 40,000 took 21 s; a 2 MiB
// file could take hours). The cost is Σ over statements of their sequence
// commas squared; 10⁸ is about a second. Real code stays far below it: of 13,054
// JS/TS files on the development machine the highest was 2×10⁶
// (@babel/types/lib/index.d.ts, an export list of ~1,400 names).
const MaxSequenceCost = 100_000_000

// MaxConcatCost bounds the memory esbuild spends folding "a" + "b" + … into one
// string: each fold copies the text so far, so 300,000 one-letter strings in one
// statement (1.8 MB) took over 24 GB and the process was killed. The cost is Σ
// over each binary + of the bytes since the first + of its chain (commas and
// statement ends start a new chain), roughly the bytes copied; just under 2×10⁸
// esbuild took 0.4 GB, so 10⁸ keeps it near 200 MB. Real code stays below it:
// of 13,054 JS/TS files on the development machine the highest was 2×10⁷
// (highlight.js's isbl.js, keyword lists built with +).
const MaxConcatCost = 100_000_000

// MaxCaseCost bounds the time esbuild spends looking for duplicate case labels:
// it compares each case with every earlier one of its switch (20,000 cases took
// 11 s). The cost is Σ over switches of their cases squared; 10⁷ (one switch
// of ~3,200 cases) is about a quarter second. Real code stays below it: of
// 13,054 JS/TS files on the development machine the highest was 51,529 (undici's encoding.js, 227 cases).
const MaxCaseCost = 10_000_000

// MaxDeclCost bounds the time esbuild spends on a top-level var or function
// declared again and again (`var a;` 60,000 times took 3.7 s, a 2 MiB file about
// two minutes): the cost is Σ over names of their top-level declarations
// squared; 10⁸ is about a tenth of a second. Real code stays below it: of 13,054
// JS/TS files on the development machine the highest was 8,920 (cssstyle's generated properties.js).
const MaxDeclCost = 100_000_000

// screen says why Check must not parse b ("" when it may): nested deeper than
// MaxDepth, an operand chain longer than MaxLinks, comma sequences over
// MaxSequenceCost, + chains over MaxConcatCost, switches over MaxCaseCost or repeated
// top-level declarations over MaxDeclCost. where ends the note's parenthesis (" in the current file").
func screen(p, lang string, b []byte, where string) string {
	if lang == "JavaScript" || lang == "TypeScript" { // one scan for every limit
		d, _, seq, concat, cases, decls := jsDepth(b, jsLoader(p) != api.LoaderTS)
		if d = max(d, rawDepth(b)); d > MaxDepth {
			return fmt.Sprintf("too deeply nested to check (depth %d%s)", d, where)
		}
		if seq > MaxSequenceCost {
			return fmt.Sprintf("comma sequences too long to check (cost %d%s)", seq, where)
		}
		if concat > MaxConcatCost {
			return fmt.Sprintf("+ chains too long to check (cost %d%s)", concat, where)
		}
		if cases > MaxCaseCost {
			return fmt.Sprintf("switch statements too long to check (cost %d%s)", cases, where)
		}
		if decls > MaxDeclCost {
			return fmt.Sprintf("too many repeated top-level declarations to check (cost %d%s)", decls, where)
		}
	} else if d := depthOf(p, lang, b); d > MaxDepth {
		return fmt.Sprintf("too deeply nested to check (depth %d%s)", d, where)
	}
	return ""
}

// depthOf estimates how deep the parser for lang recurses on b, stopping early
// once the estimate passes MaxDepth. Go, JSON and YAML parsers have their own
// limits (or do not recurse per level) and are not screened.
func depthOf(p, lang string, b []byte) int {
	switch lang {
	case "JavaScript", "TypeScript":
		d, _, _, _, _, _ := jsDepth(b, jsLoader(p) != api.LoaderTS)
		return max(rawDepth(b), d)
	case "TOML":
		return max(rawDepth(b), tomlDepth(b))
	}
	return 0
}

// rawDepth is the bracket nesting counting every bracket, in strings and
// comments too.
func rawDepth(b []byte) int {
	d, top := 0, 0
	for _, c := range b {
		switch c {
		case '(', '[', '{':
			d++
			if d > top {
				top = d
				if top > MaxDepth {
					return top
				}
			}
		case ')', ']', '}':
			if d > 0 {
				d--
			}
		}
	}
	return top
}

// tomlDepth is the bracket nesting outside TOML strings and comments.
func tomlDepth(b []byte) int {
	d, top := 0, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case '"', '\'':
			delim := []byte{c}
			if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				delim = []byte{c, c, c}
			}
			i += len(delim)
			for i < len(b) {
				if c == '"' && b[i] == '\\' {
					i += 2
					continue
				}
				if hasAt(b, i, delim) {
					i += len(delim) - 1
					break
				}
				if len(delim) == 1 && b[i] == '\n' {
					break
				}
				i++
			}
		case '[', '{':
			d++
			if d > top {
				top = d
				if top > MaxDepth {
					return top
				}
			}
		case ']', '}':
			if d > 0 {
				d--
			}
		}
	}
	return top
}

func hasAt(b []byte, i int, s []byte) bool {
	return i+len(s) <= len(b) && string(b[i:i+len(s)]) == string(s)
}

// jsDepth estimates esbuild's recursion on JavaScript or TypeScript: one level
// per open bracket, plus, on each bracket level, the operators and keywords that
// make the parser recurse without a bracket (`!`, unary `-`, `=`, `?`, `:`,
// `=>`, `<`, `new`, `await`, `if`, `else`, …) since that level's last statement
// or list separator (`;` not followed by `else`, `,`, or a line break between
// two complete operands). Strings, template text, comments and regular
// expressions are skipped; `${` opens a level. A < counts until a > closes it
// (type arguments) or, where JSX is allowed (jsx) or the < starts an operand
// (a type assertion, a generic arrow), until a closing tag </…> or /> does —
// or until the statement ends: `<a><a>` nests though each < has its >.
//
// Operand chains are counted apart (links): each member access, call or index
// suffix, tagged template and ** since the level's last statement end or comma
// (the commas in `f(a,b)(c,d)` are a level deeper and do not end the chain), and a chain longer than MaxLinks
// is returned as its length (a depth over MaxDepth), since that is how deep
// esbuild's visit pass recurses on it. links is the longest chain seen.
func jsDepth(b []byte, jsx bool) (depth, links, seqCost, concatCost, caseCost, declCost int) {
	type level struct {
		chain    int
		links    int  // operand-chain links since the level's last statement end
		angle    int  // < not yet closed by > (type arguments); a comma does not end them
		tags     int  // JSX tags (or type assertions) not yet closed by </…> or />
		template bool // the level is a `${` and its `}` returns to template text
		ctrl     bool // the level is the ( after if/while/for/with: a regexp may follow its )
		seq      bool // a comma on this level may join a sequence expression
		commas   int  // sequence commas since the level's last statement end
		plus     int  // binary + since the level's last statement end or comma
		plusFrom int  // where the first of them is
		cases    int  // case labels on this level (a switch body)
	}
	stack := []level{{seq: true}}
	top := 0
	sum := 0 // Σ chain + angle over the stack
	// prevEnds: the last token ends an operand (a name, a number, a string, a
	// closing bracket), so a following / divides and a line break may end the
	// statement. prevWord is that token when it was a keyword.
	prevEnds, prevWord, afterCtrl := false, "", false
	measure := func() int {
		if e := len(stack) - 1 + sum; e > top {
			top = e
		}
		return top
	}
	bump := func() {
		stack[len(stack)-1].chain++
		sum++
		measure()
	}
	reset := func() { // a comma: the operators and the chain before it are done
		sum -= stack[len(stack)-1].chain
		stack[len(stack)-1].chain = 0
		stack[len(stack)-1].links = 0
		stack[len(stack)-1].plus = 0
	}
	longest := 0 // the most links seen in one chain
	prevArrow := false
	declared := map[string]int{} // top-level var and function names: how often
	link := func() {
		l := &stack[len(stack)-1]
		l.links++
		longest = max(longest, l.links)
	}
	endStatement := func() {
		reset()
		l := &stack[len(stack)-1]
		sum -= l.angle + l.tags
		l.angle, l.tags, l.commas = 0, 0, 0
	}
	push := func(l level) {
		stack = append(stack, l)
		measure()
	}
	pop := func() level {
		if len(stack) == 1 {
			endStatement()
			return level{}
		}
		l := stack[len(stack)-1]
		sum -= l.chain + l.angle + l.tags
		stack = stack[:len(stack)-1]
		return l
	}
	// skipTemplate skips template text from i (just past ` or the } of a ${…})
	// and returns the index of the closing ` or of the $ of the next ${, and
	// whether it was a ${.
	skipTemplate := func(i int) (int, bool) {
		for i < len(b) {
			switch b[i] {
			case '\\':
				i++
			case '`':
				return i, false
			case '$':
				if i+1 < len(b) && b[i+1] == '{' {
					return i, true
				}
			}
			i++
		}
		return i, false
	}
	sawNewline := false
	for i := 0; i < len(b) && top <= MaxDepth && longest <= MaxLinks && seqCost <= MaxSequenceCost && concatCost <= MaxConcatCost && caseCost <= MaxCaseCost && declCost <= MaxDeclCost; i++ {
		c := b[i]
		switch {
		case c == '\n':
			sawNewline = true
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && (b[i] != '*' || b[i+1] != '/') {
				if b[i] == '\n' {
					sawNewline = true
				}
				i++
			}
			i++
			continue
		}
		// A line break between two operands ends a statement (ASI).
		if sawNewline && prevEnds && (isWordByte(c) || c == '"' || c == '\'' || c == '`') {
			endStatement()
		}
		sawNewline = false
		ends, word := false, ""
		switch {
		case isWordByte(c):
			j := i
			for j < len(b) && isWordByte(b[j]) {
				j++
			}
			word = string(b[i:j])
			i = j - 1
			switch word {
			default:
				if len(stack) == 1 && (prevWord == "var" || prevWord == "function") {
					declCost += 2*declared[word] + 1 // Σ declarations² over the names
					declared[word]++
				}
			case "case":
				l := &stack[len(stack)-1]
				caseCost += 2*l.cases + 1 // Σ cases² over the switches
				l.cases++
			}
			switch word {
			case "new", "typeof", "void", "delete", "await", "yield", "return", "throw", "case",
				"if", "else", "for", "while", "do", "with", "extends", "keyof", "in", "of", "instanceof":
				bump()
			default:
				ends = true
			}
		case c == '"' || c == '\'':
			for i++; i < len(b) && b[i] != c && b[i] != '\n'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			ends = true
		case c == '`':
			if prevEnds {
				link() // a tagged template
			}
			j, dollar := skipTemplate(i + 1)
			i = j
			if dollar {
				i++ // the {
				push(level{template: true})
			} else {
				ends = true
			}
		case c == '/' && !prevEnds:
			// A regular expression literal: up to the unescaped / outside a class.
			class := false
			for i++; i < len(b) && b[i] != '\n'; i++ {
				if b[i] == '\\' {
					i++
				} else if b[i] == '[' {
					class = true
				} else if b[i] == ']' {
					class = false
				} else if b[i] == '/' && !class {
					break
				}
			}
			ends = true
		case c == '(' || c == '[' || c == '{':
			if prevEnds && c != '{' {
				link() // a call or an index
			}
			// A ( that is no call and a block's { may hold a sequence a, b, c;
			// an object literal's { (after =, (, return, …) and [ do not.
			seq := (c == '(' && !prevEnds) ||
				(c == '{' && (prevEnds || prevArrow || prevWord == "else" || prevWord == "do"))
			push(level{ctrl: c == '(' && afterCtrl, seq: seq})
		case c == ')' || c == ']' || c == '}':
			l := pop()
			if l.template {
				j, dollar := skipTemplate(i + 1)
				i = j
				if dollar {
					i++
					push(level{template: true})
				} else {
					ends = true
				}
				break
			}
			// After if (…) a / starts a regular expression; after f(…) it divides.
			ends = !(c == ')' && l.ctrl)
		case c == ',':
			if l := &stack[len(stack)-1]; l.seq {
				seqCost += 2*l.commas + 1 // Σ commas² over the statements
				l.commas++
			}
			reset()
		case c == ';':
			if !nextWordIs(b, i+1, "else") {
				endStatement()
			}
		case c == '<' && i+1 < len(b) && b[i+1] == '/': // a JSX closing tag
			for i < len(b) && b[i] != '>' {
				i++
			}
			if stack[len(stack)-1].tags > 0 {
				stack[len(stack)-1].tags--
				sum--
			}
			ends = true
		case c == '/' && i+1 < len(b) && b[i+1] == '>': // a self-closing JSX tag
			i++
			if stack[len(stack)-1].tags > 0 {
				stack[len(stack)-1].tags--
				sum--
			}
			ends = true
		case c == '<' && (jsx || !prevEnds):
			stack[len(stack)-1].tags++
			sum++
			measure()
		case c == '<':
			stack[len(stack)-1].angle++
			sum++
			measure()
		case c == '>':
			if i+1 < len(b) && b[i+1] == '=' { // >= compares
				i++
			} else if stack[len(stack)-1].angle > 0 {
				stack[len(stack)-1].angle--
				sum--
			}
		case c == '!' || c == '~' || c == '?' || c == ':' || c == '@':
			bump()
		case c == '=':
			if i+1 < len(b) && b[i+1] == '=' { // == and === compare
				i++
				if i+1 < len(b) && b[i+1] == '=' {
					i++
				}
			} else {
				if i+1 < len(b) && b[i+1] == '>' {
					i++ // =>
				}
				bump() // =, =>, and the end of +=, &&=, …
			}
		case c == '-' || c == '+':
			double := i+1 < len(b) && b[i+1] == c // ++ or --
			if double {
				i++
			}
			if prevEnds {
				ends = double // x++ ends an operand; a - b does not
				if l := &stack[len(stack)-1]; c == '+' && !double {
					// esbuild folds "a" + "b" + …: each fold copies the text so far.
					if l.plus == 0 {
						l.plusFrom = i
					}
					l.plus++
					concatCost += i - l.plusFrom
				}
			} else {
				bump() // a sign or a prefix ++/--, not a subtraction
			}
		case c == '.' && i+1 < len(b) && b[i+1] == '.' && i+2 < len(b) && b[i+2] == '.':
			i += 2
			bump() // spread
		case c == '.':
			link() // a member access (or a decimal point: counted too, harmlessly)
		case c == '*' && i+1 < len(b) && b[i+1] == '*':
			i++
			link() // ** is right-associative: the parser recurses too
		}
		prevArrow = c == '=' && i < len(b) && b[i] == '>' // the token was =>
		prevEnds, prevWord = ends, word
		afterCtrl = prevWord == "if" || prevWord == "while" || prevWord == "for" || prevWord == "with"
	}
	if longest > MaxLinks {
		return max(top, longest), longest, seqCost, concatCost, caseCost, declCost
	}
	return top, longest, seqCost, concatCost, caseCost, declCost
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c == '#' || c >= 0x80 ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// nextWordIs reports whether the first word after i (past spaces, line breaks
// and comments-free text) is w.
func nextWordIs(b []byte, i int, w string) bool {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return hasAt(b, i, []byte(w)) && (i+len(w) == len(b) || !isWordByte(b[i+len(w)]))
}
