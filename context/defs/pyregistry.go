package defs

import (
	"regexp"
	"slices"

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

// pyRegistered returns the constructor uses of span's lines that construct
// an object into a container, with the container's name; the registering
// calls' arguments move to split's later part.
func pyRegistered(lines []string, span lineRange, split *spanSplit) map[[2]string]string {
	regs := registrations{}
	for n := span.from; n <= span.to; n++ {
		if split.offLine(n) {
			continue // registered behind an option the failing lines do not set
		}
		l := lines[n-span.from]
		for _, m := range pyRegCallRe.FindAllStringSubmatchIndex(l, -1) {
			regs.inBrackets(lines, span, n, m[1]-1, l[m[2]:m[3]], pyCtorRe, split)
		}
		if m := pyRegItemRe.FindStringSubmatch(l); m != nil {
			regs.add(m[1], m[2])
		}
		if m := pyRegListRe.FindStringSubmatchIndex(l); m != nil {
			regs.inBrackets(lines, span, n, m[1]-1, l[m[2]:m[3]], pyCtorRe, split)
		}
	}
	return regs
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
				if d := (dispatch{container: cont, method: c[1], item: item}); !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
	}
	return out
}
