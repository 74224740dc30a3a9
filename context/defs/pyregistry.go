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
//     the registry says whose m it is).

var (
	pyRegCallRe = lazyre.New(`\b([A-Za-z_]\w*)\s*\.\s*(?:register|append|appendleft|add|insert|extend|setdefault)\s*\(`)
	pyRegItemRe = lazyre.New(`\b([A-Za-z_]\w*)\s*\[[^\]]*\]\s*=\s*([A-Za-z_][\w.]*)\s*\(`)
	pyRegListRe = lazyre.New(`^\s*(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*[\[{]`)
	pyCtorRe    = lazyre.New(`(?:^|[^\w.])([A-Za-z_][\w]*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\(`)
	pyForRe     = lazyre.New(`^\s*(?:async\s+)?for\s+(?:[A-Za-z_]\w*\s*,\s*)?([A-Za-z_]\w*)\s+in\s+(?:(?:enumerate|list|sorted|reversed|tuple)\s*\(\s*)?(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)\s*(?:\.\s*(?:values|items)\s*\(\s*\))?\s*\)?\s*:`)
)

// maxRegLines is how many lines a registering call's arguments are read over.
const maxRegLines = 12

// pyRegistered returns the constructor uses of span's lines that construct
// an object into a container, with the container's name; the registering
// calls' arguments move to split's later part.
func pyRegistered(lines []string, span lineRange, split *spanSplit) map[[2]string]string {
	var out map[[2]string]string
	add := func(cont, ctor string) bool {
		parts := strings.FieldsFunc(ctor, func(r rune) bool { return r == '.' || r == ' ' || r == '\t' })
		name := parts[len(parts)-1]
		if name[0] < 'A' || name[0] > 'Z' {
			return false // a function call, not a class's constructor
		}
		qual := ""
		if len(parts) > 1 {
			qual = parts[len(parts)-2]
		}
		if out == nil {
			out = map[[2]string]string{}
		}
		out[[2]string{qual, name}] = cont
		return true
	}
	// ctors adds the constructors in the brackets opened at line n, column
	// col, until they close; the brackets' text moves to later only when
	// they construct an object (results.append(self.render(x)) registers
	// nothing: what it calls runs now)
	ctors := func(cont string, n, col int) {
		type cut struct{ line, from, to int }
		var moves []cut
		built := false
		defer func() {
			for _, c := range moves {
				if built {
					split.move(c.line, c.from, c.to)
				}
			}
		}()
		depth := 0
		for i := n; i <= span.to && i < n+maxRegLines; i++ {
			seg := lines[i-span.from]
			if i == n {
				seg = seg[col:]
			}
			off := len(lines[i-span.from]) - len(seg)
			ms := pyCtorRe.FindAllStringSubmatchIndex(seg, -1)
			for j := 0; j < len(seg); j++ {
				if depth >= 1 {
					moves = append(moves, cut{i, off + j, off + j + 1})
				}
				for len(ms) > 0 && ms[0][2] <= j {
					if depth >= 1 && add(cont, seg[ms[0][2]:ms[0][3]]) {
						built = true
					}
					ms = ms[1:]
				}
				switch seg[j] {
				case '(', '[', '{':
					depth++
				case ')', ']', '}':
					if depth--; depth <= 0 {
						return
					}
				}
			}
		}
	}
	for n := span.from; n <= span.to; n++ {
		if split.offLine(n) {
			continue // registered behind an option the failing lines do not set
		}
		l := lines[n-span.from]
		for _, m := range pyRegCallRe.FindAllStringSubmatchIndex(l, -1) {
			ctors(l[m[2]:m[3]], n, m[1]-1)
		}
		if m := pyRegItemRe.FindStringSubmatch(l); m != nil {
			_ = add(m[1], m[2])
		}
		if m := pyRegListRe.FindStringSubmatchIndex(l); m != nil {
			ctors(l[m[2]:m[3]], n, m[1]-1)
		}
	}
	return out
}

// pyDispatched returns the methods span's lines call on the items of a
// container they loop over.
func pyDispatched(f *defFile, lines []string, span lineRange) []dispatch {
	scan := pyScan(f)
	var out []dispatch
	for n := span.from; n <= span.to; n++ {
		m := pyForRe.FindStringSubmatch(lines[n-span.from])
		if m == nil {
			continue
		}
		item, cont := m[1], m[2]
		callRe := regexp.MustCompile(`\b` + item + `\s*\.\s*([A-Za-z_]\w*)\s*\(`)
		ind := scan.ind[n-1]
		for i := n + 1; i <= span.to; i++ {
			if !scan.empty[i-1] && !scan.inStr[i-1] && scan.ind[i-1] <= ind {
				break
			}
			for _, c := range callRe.FindAllStringSubmatch(lines[i-span.from], -1) {
				d := dispatch{container: cont, method: c[1], item: item}
				if !containsDispatch(out, d) {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

func containsDispatch(ds []dispatch, d dispatch) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}
