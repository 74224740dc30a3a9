package defs

import (
	"regexp"
	"strings"

	"fixplan/internal/lazyre"
)

// Python's registrations and dispatches (registry.go), read from the blanked
// lines of a definition:
//
//   - N.register(C(…), …), N.append(C(…)), N.add, N.insert, N.extend([C(…)]),
//     N.appendleft, N.setdefault(k, C(…)), over the lines until the call's
//     bracket closes; N[k] = C(…); N = [C(…), …] (a list, dict or set
//     display): C constructed into the container N (a class: its name,
//     the last of a dotted one, capitalised);
//   - `for x in N:` (…N, enumerate(…N), list(…N), …N.values(), and
//     `for k, x in …N.items()`), and x.m(…) in the loop's body: m called on
//     N's items (the namesakes of m found by name only rank after every hop:
//     the registry says whose m it is);
//   - an item taken from N — N[k], N.get(k), `for x in N:`'s x, or a name
//     assigned one (`p = N[i]`) — called on (N[i].m(…)), or passed to a
//     function or a method of self (self.apply(N[i], data), apply(x)): the
//     methods the callee calls on that parameter (passedItems) are called on
//     N's items.

var (
	pyRegCallRe = lazyre.New(`\b([A-Za-z_]\w*)\s*\.\s*(?:register|append|appendleft|add|insert|extend|setdefault)\s*\(`)
	pyRegItemRe = lazyre.New(`\b([A-Za-z_]\w*)\s*\[[^\]]*\]\s*=\s*([A-Za-z_][\w.]*)\s*\(`)
	pyRegListRe = lazyre.New(`^\s*(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*[\[{]`)
	pyCtorRe    = lazyre.New(`(?:^|[^\w.])([A-Za-z_][\w]*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\(`)
	pyRegRules  = regRules{pyRegCallRe, pyRegItemRe, pyRegListRe, pyCtorRe}
	pyItemExpr  = `(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)\s*(?:\[[^\[\]]*\]|\.\s*get\s*\([^()]*\))`
	pyItemArgRe = lazyre.New(`^` + pyItemExpr + `$`)
	pyItemUseRe = lazyre.New(`(?:^|[^\w.])` + pyItemExpr + `\s*\.\s*([A-Za-z_]\w*)\s*\(`)
	pyItemVarRe = lazyre.New(`^\s*([A-Za-z_]\w*)\s*=\s*` + pyItemExpr + `\s*$`)
	pyCalleeRe  = lazyre.New(`(?:^|[^\w.])(?:(?:self|cls)\s*\.\s*)?([A-Za-z_]\w*)\s*\(`)
	pyKwArgRe   = lazyre.New(`^([A-Za-z_]\w*)\s*=([^=].*)$`)
	pyForRe     = lazyre.New(`^\s*(?:async\s+)?for\s+(?:[A-Za-z_]\w*\s*,\s*)?([A-Za-z_]\w*)\s+in\s+(?:(?:enumerate|list|sorted|reversed|tuple)\s*\(\s*)?(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)\s*(?:\.\s*(?:values|items)\s*\(\s*\))?\s*\)?\s*:`)
)

// heldItem is a name holding an item of container over lines from..to: a
// loop's variable, or a name assigned an item.
type heldItem struct {
	name, cont string
	from, to   int
}

// pyItemCallRe finds a call of a method on a name, x.m(…): the calls on a
// held item (one expression for every loop, not one compiled per loop).
var pyItemCallRe = lazyre.New(`\b([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\s*\(`)

// pyDispatched returns the methods span's lines call on the items of a
// container, and the items they pass to a callee (resolved by passedItems).
func pyDispatched(f *defFile, lines []string, span lineRange) []dispatch {
	scan := pyScan(f)
	var out []dispatch
	seen := map[dispatch]bool{} // (a line of 30,000 calls on an item: no quadratic dedup)
	add := func(d dispatch) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	// the end of the block a line opens (deeper: a loop's body) or is in
	blockEnd := func(n int, deeper bool) int {
		ind := scan.ind[n-1]
		end := n
		for i := n + 1; i <= span.to; i++ {
			if !scan.empty[i-1] && !scan.inStr[i-1] && (scan.ind[i-1] < ind || deeper && scan.ind[i-1] == ind) {
				break
			}
			end = i
		}
		return end
	}
	var held []heldItem
	var brackets *bracketIndex
	hold := func(name, cont string, from, to int) {
		held = append(held, heldItem{name, cont, from, to})
	}
	for n := span.from; n <= span.to; n++ {
		l := lines[n-span.from]
		if m := pyForRe.FindStringSubmatch(l); m != nil {
			hold(m[1], m[2], n+1, blockEnd(n, true))
		} else if m := pyItemVarRe.FindStringSubmatch(l); m != nil {
			hold(m[1], m[2], n+1, blockEnd(n, false))
		}
		for _, m := range pyItemUseRe.FindAllStringSubmatch(l, -1) {
			add(dispatch{container: m[1], method: m[2]})
		}
		var calls [][]string // the line's x.m( calls, read once for every held item
		for _, h := range held {
			if n < h.from || n > h.to {
				continue
			}
			if calls == nil {
				calls = pyItemCallRe.FindAllStringSubmatch(l, -1)
			}
			for _, c := range calls {
				if c[1] == h.name {
					add(dispatch{container: h.cont, method: c[2], item: h.name})
				}
			}
		}
		for _, m := range pyCalleeRe.FindAllStringSubmatchIndex(l, -1) {
			callee := l[m[2]:m[3]]
			if brackets == nil {
				brackets = newBracketIndex(lines) // (pybrackets.go)
			}
			for k, a := range brackets.args(n-span.from, m[1]-1, min(span.to, n+maxRegLines)-span.from) {
				kw := ""
				if km := pyKwArgRe.FindStringSubmatch(a); km != nil {
					kw, a = km[1], strings.TrimSpace(km[2])
				}
				if strings.HasPrefix(a, "*") {
					break // an unpacking: the positions after it are unknown
				}
				cont := ""
				if im := pyItemArgRe.FindStringSubmatch(a); im != nil {
					cont = im[1]
				}
				for _, h := range held {
					if a == h.name && h.from <= n && n <= h.to {
						cont = h.cont
					}
				}
				if cont != "" {
					add(dispatch{container: cont, callee: callee, arg: k, kw: kw})
				}
			}
		}
	}
	return out
}

// bracketArgs returns the arguments, trimmed, of the bracket opening at
// lines[0][col], split at its top-level commas; nil when it does not close
// in lines.
func bracketArgs(lines []string, col int) []string {
	var args []string
	var cur strings.Builder
	depth := 0
	for k, l := range lines {
		if k == 0 {
			l = l[col:]
		}
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch c {
			case '(', '[', '{':
				if depth++; depth == 1 {
					continue
				}
			case ')', ']', '}':
				if depth--; depth == 0 {
					return append(args, strings.TrimSpace(cur.String()))
				}
			case ',':
				if depth == 1 {
					args = append(args, strings.TrimSpace(cur.String()))
					cur.Reset()
					continue
				}
			}
			cur.WriteByte(c)
		}
		cur.WriteByte(' ')
	}
	return nil
}

// passedItems resolves the dispatches of items passed to a callee (one of
// found, the definitions a parent's uses reached): the methods the
// callee's lines call on the parameter the item is passed as are called on
// the container's items (self.__applyPattern(self.inlinePatterns[i], …),
// and __applyPattern's pattern.handleMatch(…)).
func (d *defFinder) passedItems(lang defLang, ds []dispatch, found []defHit) []dispatch {
	if _, ok := lang.(pyLang); !ok {
		return ds
	}
	var out []dispatch
	seen := map[dispatch]bool{} // (a callee calling thousands of methods on the item)
	for _, dp := range ds {
		if dp.callee == "" {
			seen[dp] = true
			out = append(out, dp)
			continue
		}
		for _, x := range found {
			if x.loose || x.span.name != dp.callee || x.span.class || x.span.data {
				continue
			}
			if f := d.file(x.file, lang); f.ok {
				for _, c := range pyParamCalls(f, x.span, dp) {
					if !seen[c] {
						seen[c] = true
						out = append(out, c)
					}
				}
			}
			break
		}
	}
	return out
}

// pyParamCalls returns the calls the function s makes on the parameter dp
// passes an item as, as calls on the items of dp's container.
func pyParamCalls(f *defFile, s defSpan, dp dispatch) []dispatch {
	blank := pyScan(f).blank
	for n := s.from; n <= min(s.to, len(blank)); n++ {
		m := pyDefRe.FindStringSubmatchIndex(blank[n-1])
		if m == nil || !strings.Contains(blank[n-1][m[2]:m[4]], "def") {
			continue
		}
		col := strings.IndexByte(blank[n-1][m[5]:], '(')
		if col < 0 {
			return nil
		}
		params := bracketArgs(blank[n-1:min(s.to, n+maxSignatureLines)], m[5]+col)
		name := ""
		pos := 0
		for i, p := range params {
			p = strings.TrimSpace(strings.SplitN(strings.SplitN(p, ":", 2)[0], "=", 2)[0])
			if i == 0 && (p == "self" || p == "cls") || p == "/" {
				continue
			}
			if strings.HasPrefix(p, "*") {
				pos = -1 // keyword-only from here
				if dp.kw == "" {
					break
				}
				continue
			}
			if dp.kw != "" && p == dp.kw || dp.kw == "" && pos == dp.arg {
				name = p
				break
			}
			if pos >= 0 {
				pos++
			}
		}
		if name == "" || !wordRe.MatchString(name) {
			return nil
		}
		call := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s*\.\s*([A-Za-z_]\w*)\s*\(`)
		var out []dispatch
		seen := map[dispatch]bool{}
		for i := n; i <= min(s.to, len(blank)); i++ {
			for _, c := range call.FindAllStringSubmatch(blank[i-1], -1) {
				if d := (dispatch{container: dp.container, method: c[1], item: name}); !seen[d] {
					seen[d] = true
					out = append(out, d)
				}
			}
		}
		return out
	}
	return nil
}
