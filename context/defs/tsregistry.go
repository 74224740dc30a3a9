package defs

import "fixplan/internal/lazyre"

// TS/JS registrations and dispatches (registry.go), read from the blanked
// lines of a definition:
//
//   - N.push(new C(…)), N.unshift, N.add, N.set(k, new C(…)), N.register,
//     N.use, over the lines until the call's bracket closes; N[k] = new C(…);
//     N = [new C(…), …] or { k: new C(…) }: C constructed into the
//     container N;
//   - `for (const x of …N)` and N.forEach/map/filter/some/every((x) => …),
//     and x.m(…) in the loop's body: m called on N's items (the namesakes of
//     m found by name only rank after every hop).

var (
	tsRegCallRe = lazyre.New(`\b([A-Za-z_$][\w$]*)\s*\.\s*(?:push|unshift|add|set|register|use)\s*\(`)
	tsRegItemRe = lazyre.New(`\b([A-Za-z_$][\w$]*)\s*\[[^\]]*\]\s*=\s*new\s+([A-Za-z_$][\w$.]*)\s*\(`)
	tsRegListRe = lazyre.New(`\b([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*[\[{]`)
	tsNewRe     = lazyre.New(`\bnew\s+([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\(`)
	tsRegRules  = regRules{tsRegCallRe, tsRegItemRe, tsRegListRe, tsNewRe}
	tsForOfRe   = lazyre.New(`\bfor\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+(?:[A-Za-z_$][\w$]*\s*\.\s*)*([A-Za-z_$][\w$]*)\s*\)`)
	tsForEachRe = lazyre.New(`\b([A-Za-z_$][\w$]*)\s*\.\s*(?:forEach|map|filter|some|every)\s*\(\s*(?:async\s+)?\(?\s*([A-Za-z_$][\w$]*)\s*(?:[,:)][^=]*)?=>`)
)

func (l tsLang) hopNotes(f *defFile, span lineRange, named func(string) bool) hopNotes {
	scan := l.scanned(f)
	lines := scan.blank[span.from-1 : span.to]
	split := newSpanSplit(lines, span.from)
	notes := hopNotes{registered: tsRegRules.registered(lines, span, split), dispatched: tsDispatched(scan, lines, span)}
	notes.later = split.onlyLater()
	notes.laterDispatched()
	return notes
}

// tsDispatched returns the methods span's lines call on the items of a
// container they loop over. A line's calls on a name (x.m(…)) are read once,
// by one expression, for all the loops over it: each loop compiled an
// expression of its item and read its lines with it, and a minified line of
// 20,000 forEach loops read its 800 KB 20,000 times (minutes).
func tsDispatched(scan *tsLines, lines []string, span lineRange) []dispatch {
	var out []dispatch
	seen := map[dispatch]bool{}
	called := map[int]map[string][]string{} // line → name → the methods called on it
	calledOn := func(i int) map[string][]string {
		if c, ok := called[i]; ok {
			return c
		}
		c := map[string][]string{}
		for _, m := range tsItemCallRe.FindAllStringSubmatch(lines[i-span.from], -1) {
			c[m[1]] = append(c[m[1]], m[2])
		}
		called[i] = c
		return c
	}
	for n := span.from; n <= span.to; n++ {
		line := lines[n-span.from]
		var loops [][]string
		loops = append(loops, tsForOfRe.FindAllStringSubmatch(line, -1)...)
		for _, m := range tsForEachRe.FindAllStringSubmatch(line, -1) {
			loops = append(loops, []string{m[0], m[2], m[1]})
		}
		for _, m := range loops {
			item, cont := m[1], m[2]
			end := scan.blockEnd(n)
			if end == n {
				end++ // for (…) a statement on the next line
			}
			for i := n; i <= min(end, span.to); i++ {
				for _, method := range calledOn(i)[item] {
					if d := (dispatch{container: cont, method: method, item: item}); !seen[d] {
						seen[d] = true
						out = append(out, d)
					}
				}
			}
		}
	}
	return out
}

// tsItemCallRe finds a call of a method on a name, x.m(…).
var tsItemCallRe = lazyre.New(`\b([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(`)
