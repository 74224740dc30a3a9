package defs

import (
	"regexp"
	"slices"

	"fixplan/internal/lazyre"
)

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
// container they loop over.
func tsDispatched(scan *tsLines, lines []string, span lineRange) []dispatch {
	var out []dispatch
	for n := span.from; n <= span.to; n++ {
		line := lines[n-span.from]
		var loops [][]string
		loops = append(loops, tsForOfRe.FindAllStringSubmatch(line, -1)...)
		for _, m := range tsForEachRe.FindAllStringSubmatch(line, -1) {
			loops = append(loops, []string{m[0], m[2], m[1]})
		}
		for _, m := range loops {
			item, cont := m[1], m[2]
			callRe := regexp.MustCompile(`\b` + regexp.QuoteMeta(item) + `\s*\.\s*([A-Za-z_$][\w$]*)\s*\(`)
			end := scan.blockEnd(n)
			if end == n {
				end++ // for (…) a statement on the next line
			}
			for i := n; i <= min(end, span.to); i++ {
				for _, c := range callRe.FindAllStringSubmatch(lines[i-span.from], -1) {
					if d := (dispatch{container: cont, method: c[1], item: item}); !slices.Contains(out, d) {
						out = append(out, d)
					}
				}
			}
		}
	}
	return out
}
