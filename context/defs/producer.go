package defs

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"fixplan/internal/lazyre"
)

// Producers of a wrong value. When the failing lines format a value of the
// project (they call its Error, String or Format method: err.Error() compared
// with the text the test wants), the wrong text may come from the method or
// from the code that built the value (a position the lexer computed when it
// scanned a token, well before the parser returned the error). The same holds
// for a message the failure shows that a method returns (an error type's
// Usage() returning the help text the test expects, or the constant it
// returns): the value whose method writes it was built elsewhere. The functions
// of the method's package that build a value of its type (a composite literal
// T{…} or &T{…}) are looked up with the method and rank with the package's
// definitions (msgTier), at most maxProducers for one type; the hops go on
// from them (the lexer function that builds an errLexEscape{r} leads to the
// lexer's error method it hands it to).

const (
	maxProducers    = 2
	maxMsgUserTypes = 2 // types whose methods return one message constant
)

var (
	// formatterRe finds the receiver type of a method that formats its value.
	formatterRe = lazyre.New(`^func\s*\(\s*\w*\s*\*?\s*(\w+)(?:\[[^\]]*\])?\s*\)\s*(?:Error|String|GoString|Format)\s*\(`)
	// methodRe finds the receiver type of a method.
	methodRe = lazyre.New(`^func\s*\(\s*\w*\s*\*?\s*(\w+)(?:\[[^\]]*\])?\s*\)`)
)

// producerHits returns the definitions that build the values the formatters
// among hits (those the failing lines use directly) format, and the values
// whose methods write a message the failure shows.
func (d *defFinder) producerHits(hits []defHit) []defHit {
	var out []defHit
	seen := map[string]bool{}
	for _, h := range hits {
		if h.via != "" || path.Ext(h.file) != ".go" {
			continue
		}
		f := d.files[h.file]
		if f == nil || !f.ok {
			continue
		}
		var types []string
		switch {
		case h.span.member && h.msg == "":
			if t := receiverIn(f.lines, h.span, formatterRe); t != "" {
				types = []string{t}
			}
		case h.span.member:
			if t := receiverIn(f.lines, h.span, methodRe); t != "" {
				types = []string{t}
			}
		case h.msg != "" && h.span.data:
			types = d.methodTypesUsing(h.file, h.span.name)
		}
		for _, typ := range types {
			if !seen[h.file+" "+typ] {
				seen[h.file+" "+typ] = true
				out = append(out, d.buildersOf(h, typ)...)
			}
		}
	}
	return out
}

// receiverIn is the receiver type of the first line of s that re matches
// (its group), "" when none does.
func receiverIn(lines []string, s defSpan, re *lazyre.RE) string {
	for n := s.from; n <= min(s.to, len(lines)); n++ {
		if m := re.FindStringSubmatch(lines[n-1]); m != nil {
			return m[1]
		}
	}
	return ""
}

// methodTypesUsing returns the receiver types of the methods of file's
// package whose lines use name (a constant that holds a message), at most
// maxMsgUserTypes.
func (d *defFinder) methodTypesUsing(file, name string) []string {
	use := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	var out []string
	for _, rel := range append([]string{file}, goLang{}.folder(d.proj, file)...) {
		if strings.HasSuffix(rel, "_test.go") {
			continue
		}
		f := d.file(rel, goLang{})
		if !f.ok {
			continue
		}
		for _, s := range f.defs {
			if !s.member || len(out) == maxMsgUserTypes {
				continue
			}
			for n := s.from; n <= min(s.to, len(f.lines)); n++ {
				if line := f.lines[n-1]; strings.Contains(line, name) && use.MatchString(line) {
					if t := receiverIn(f.lines, s, methodRe); t != "" && !slices.Contains(out, t) {
						out = append(out, t)
					}
					break
				}
			}
		}
	}
	return out
}

// buildersOf returns the functions of h's package (test files left out) that
// build a value of type typ, at most maxProducers, ranked with h.
func (d *defFinder) buildersOf(h defHit, typ string) []defHit {
	var out []defHit
	lit := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(typ) + `(?:\[[^\]]*\])?\{`)
	for _, file := range append([]string{h.file}, goLang{}.folder(d.proj, h.file)...) {
		if strings.HasSuffix(file, "_test.go") || len(out) == maxProducers {
			continue
		}
		pf := d.file(file, goLang{})
		if !pf.ok {
			continue
		}
		for _, s := range pf.defs {
			if len(out) == maxProducers || s.data || (s.name == typ && !s.member) {
				continue
			}
			for ln := s.from; ln <= min(s.to, len(pf.lines)); ln++ {
				// (a line without the name cannot match: most lines are passed
				// over without the expression, which has no literal prefix)
				if line := pf.lines[ln-1]; strings.Contains(line, typ) && lit.MatchString(line) {
					out = append(out, defHit{file: file, span: s, tier: msgTier, dist: h.dist, point: h.point, usedAt: h.usedAt,
						pathDist: pathDistance(h.usedAt.file, file), builds: typ})
					break
				}
			}
		}
	}
	return out
}
