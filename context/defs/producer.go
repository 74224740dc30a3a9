package defs

import (
	"path"
	"regexp"
	"strings"

	"fixplan/internal/lazyre"
)

// Producers of a wrong value. When the failing lines format a value of the
// project (they call its Error, String or Format method: err.Error() compared
// with the text the test wants), the wrong text may come from the method or
// from the code that built the value (a position the lexer computed when it
// scanned a token, well before the parser returned the error). The functions of
// the method's package that build a value of its type (a composite literal
// T{…} or &T{…}) are looked up with the method and rank with the package's
// definitions (msgTier), at most maxProducers for one type.

const maxProducers = 2

// formatterRe finds the receiver type of a method that formats its value.
var formatterRe = lazyre.New(`^func\s*\(\s*\w*\s*\*?\s*(\w+)(?:\[[^\]]*\])?\s*\)\s*(?:Error|String|GoString|Format)\s*\(`)

// producerHits returns the definitions that build the values the formatters
// among hits (those the failing lines use directly) format.
func (d *defFinder) producerHits(hits []defHit) []defHit {
	var out []defHit
	seen := map[string]bool{}
	for _, h := range hits {
		if h.via != "" || !h.span.member || path.Ext(h.file) != ".go" {
			continue
		}
		f := d.files[h.file]
		if f == nil || !f.ok {
			continue
		}
		var typ string
		for n := h.span.from; n <= min(h.span.to, len(f.lines)); n++ {
			if m := formatterRe.FindStringSubmatch(f.lines[n-1]); m != nil {
				typ = m[1]
				break
			}
		}
		if typ == "" || seen[h.file+" "+typ] {
			continue
		}
		seen[h.file+" "+typ] = true
		lit := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(typ) + `(?:\[[^\]]*\])?\{`)
		n := 0
		for _, file := range append([]string{h.file}, goLang{}.folder(d.proj, h.file)...) {
			if strings.HasSuffix(file, "_test.go") || n == maxProducers {
				continue
			}
			pf := d.file(file, goLang{})
			if !pf.ok {
				continue
			}
			for _, s := range pf.defs {
				if n == maxProducers || s.data || (s.name == typ && !s.member) {
					continue
				}
				for ln := s.from; ln <= min(s.to, len(pf.lines)); ln++ {
					if lit.MatchString(pf.lines[ln-1]) {
						out = append(out, defHit{file: file, span: s, tier: msgTier, dist: h.dist, point: h.point, usedAt: h.usedAt,
							pathDist: pathDistance(h.usedAt.file, file), builds: typ, via: ""})
						n++
						break
					}
				}
			}
		}
	}
	return out
}
