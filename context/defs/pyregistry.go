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
	pyRegRules  = regRules{pyRegCallRe, pyRegItemRe, pyRegListRe, pyCtorRe}
	pyForRe     = lazyre.New(`^\s*(?:async\s+)?for\s+(?:[A-Za-z_]\w*\s*,\s*)?([A-Za-z_]\w*)\s+in\s+(?:(?:enumerate|list|sorted|reversed|tuple)\s*\(\s*)?(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)\s*(?:\.\s*(?:values|items)\s*\(\s*\))?\s*\)?\s*:`)
)

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
