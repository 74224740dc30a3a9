package defs

import (
	"strings"

	"fixplan/internal/lazyre"
)

// Option branches. A function that sets a pipeline up from a dictionary of
// options (`if options.get('reindent'): stack.append(ReindentFilter(…))`)
// names every class and function each option can bring in, while the failing
// test sets one or two options. A developer reads the branches of the options
// the test passes; the others are not what failed. So, in a definition
// reached by a hop (not the failing lines themselves), a use found only in the
// body of an `if`/`elif` whose condition tests options by key — X.get('key'),
// X['key'], joined by `or`/`and` — none of which the failing lines name
// (pyOptionGated), ranks after every hop and is not followed further: the
// room goes to the calls the test does make.

var (
	// one term of an option test: options.get('key'[, default]), options['key']
	pyOptTermRe = lazyre.New(`^[A-Za-z_][\w.]*(?:\.get\(\s*(['"])(\w+)['"]\s*(?:,[^()]*)?\)|\[\s*(['"])(\w+)['"]\s*\])$`)
	pyIfRe      = lazyre.New(`^\s*(?:if|elif)\s+(.+?)\s*:(.*)$`)
)

// pyOptionKeys returns the keys an if/elif condition tests, nil when it is not
// only option tests joined by and/or (a negation, a comparison or a call
// tests something else).
func pyOptionKeys(cond string) []string {
	var keys []string
	for _, or := range strings.Split(cond, " or ") {
		for _, term := range strings.Split(or, " and ") {
			m := pyOptTermRe.FindStringSubmatch(strings.TrimSpace(term))
			if m == nil {
				return nil
			}
			keys = append(keys, m[2]+m[4])
		}
	}
	return keys
}

// pyOptionGated moves the lines of span in branches taken only when an
// option is set that named reports the failing lines do not name to later.
func pyOptionGated(f *defFile, span lineRange, named func(string) bool, split *spanSplit) {
	scan := pyScan(f)
	var stack []int // indentation of the open branches no failing option takes
	for n := span.from; n <= span.to; n++ {
		if scan.empty[n-1] || scan.inStr[n-1] {
			continue
		}
		ind := scan.ind[n-1]
		for len(stack) > 0 && stack[len(stack)-1] >= ind {
			stack = stack[:len(stack)-1]
		}
		off := len(stack) > 0
		if m := pyIfRe.FindStringSubmatch(f.lines[n-1]); m != nil && n > span.from {
			if keys := pyOptionKeys(m[1]); len(keys) > 0 && !anyNamed(keys, named) {
				stack = append(stack, ind)
				off = off || strings.TrimSpace(m[2]) != "" // a body on the if line
			}
		}
		if off {
			split.moveLine(n)
		}
	}
}

func anyNamed(keys []string, named func(string) bool) bool {
	for _, k := range keys {
		if named(k) {
			return true
		}
	}
	return false
}
