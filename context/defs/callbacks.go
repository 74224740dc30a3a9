package defs

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"fixplan/context/frames"
)

// Library callbacks. A project class deriving from a library's class
// (`class HTMLExtractor(htmlparser.HTMLParser)`, `class Worker(threading.Thread)`,
// `class App extends React.Component`) overrides the methods the library's
// code calls back (handle_starttag, parse_starttag, run, render): when the
// failing path calls a method the class inherits from the library
// (`parser.feed(source)` on an HTMLExtractor), the library's code runs and
// calls them, and no line of the project shows the call. So such a call adds
// the class's callbacks: the methods it (and its project base classes below
// the library's) defines — in Python not the _private ones — less those its
// own code calls (the hops reach those from the callbacks), ranked as the
// call's own definition would be — those whose name holds a word of a
// failing test's name (test_noname_tag: parse_starttag, handle_endtag)
// first, the others after them: the library calls back what the input
// holds, and the test is named for that.

// maxCallbacks bounds the callbacks one call adds.
const maxCallbacks = 16

// maxCallbackClasses bounds the class and project bases whose callbacks are
// read for one call (a generated class of eight thousand bases: each read
// went over every definition of its file).
const maxCallbackClasses = 16

// plainBases are base classes of the language and its typing that call no
// method of a subclass back.
var plainBases = wordSet(`object ABC Generic Protocol NamedTuple TypedDict Enum IntEnum Flag IntFlag StrEnum
	str int float dict list tuple set frozenset bytes Exception BaseException Error`)

// libraryBase reports whether base, which the project does not define, is a
// library's class that calls its subclasses back.
func libraryBase(base string) bool {
	name := base[strings.LastIndexByte(base, '.')+1:]
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return name != "" && !plainBases[name] && !strings.HasSuffix(name, "Error") &&
		!strings.HasSuffix(name, "Exception") && !strings.HasSuffix(name, "Warning")
}

// selfCallRes are selfCalled's expressions, by the words naming the
// instance (compiled once: a class of thousands of bases asked for each).
var selfCallRes sync.Map

// selfCalled returns the methods a class's lines call on its own instance.
func selfCalled(blank []string, cls defSpan, self []string) map[string]bool {
	key := strings.Join(self, "|")
	v, ok := selfCallRes.Load(key)
	if !ok {
		v, _ = selfCallRes.LoadOrStore(key, regexp.MustCompile(`\b(?:`+key+`)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(`))
	}
	re := v.(*regexp.Regexp)
	out := map[string]bool{}
	for i := cls.from; i <= min(cls.end, len(blank)); i++ {
		for _, m := range re.FindAllStringSubmatch(blank[i-1], -1) {
			out[m[1]] = true
		}
	}
	return out
}

// addCallbacks adds the callbacks of the class u.recv when it derives from a
// library's class (u.name being one of the library's methods: the project
// defines none by that name in the class or its bases); false when the class
// has no library base or no callback.
func (d *defFinder) addCallbacks(lang defLang, p defPoint, u defUse, imps []defImport, folder []string, hits *[]defHit) bool {
	if !u.call {
		return false // an attribute, not a method called
	}
	var self []string
	var blanked func(*defFile) []string
	private := func(string) bool { return false }
	switch l := lang.(type) {
	case pyLang:
		self, blanked = pyRecv.self, func(f *defFile) []string { return pyScan(f).blank }
		private = func(name string) bool { return strings.HasPrefix(name, "_") }
	case tsLang:
		self, blanked = tsRecv.self, l.blanked // (a stream's _transform is a callback)
	default:
		return false
	}
	// the class and its project bases, up to the library's
	classes := d.findClasses(lang, p.file, u.recv, imps, folder)
	if len(classes) == 0 || frames.LooksLikeTestFile(classes[0].file) {
		// a test file's class (a unittest.TestCase calling self.assertEqual):
		// what the runner calls back are the other tests, not the failing one's code
		return false
	}
	chain := []classRef{classes[0]}
	library := false
	for i := 0; i < len(chain) && i <= maxBaseDepth; i++ {
		c := chain[i]
		f := d.file(c.file, lang)
		cimps, cfolder := d.context(lang, c.file, f.src)
		for _, b := range strings.Split(c.span.bases, ",") {
			if b == "" {
				continue
			}
			if found := d.findClasses(lang, c.file, b, cimps, cfolder); len(found) > 0 {
				if len(chain) < maxCallbackClasses {
					chain = append(chain, found[0])
				}
			} else if libraryBase(b) {
				library = true
			}
		}
	}
	if !library {
		return false
	}
	seen := map[string]bool{}
	var cbs, rest []defHit
	words := d.testNameWords(lang)
	for _, c := range chain {
		if len(cbs) >= maxCallbacks {
			break // enough that the failing test's name exercises
		}
		f := d.file(c.file, lang)
		called := selfCalled(blanked(f), c.span, self)
		for _, s := range classMethods(f, c.span) {
			if seen[s.name] || called[s.name] || private(s.name) {
				seen[s.name] = true // an override hides its base's
				continue
			}
			seen[s.name] = true
			if c.file == p.file && s.from <= p.line && p.line <= s.to {
				continue // the method the failure is in
			}
			h := defHit{file: c.file, span: s, tier: nearTier(p, c.file), dist: u.dist, point: u.point, usedAt: p,
				pathDist: pathDistance(p.file, c.file)}
			if exercised(s.name, words) {
				cbs = append(cbs, h)
			} else {
				rest = append(rest, h)
			}
		}
	}
	// those a failing test's name exercises first, the others after every
	// hop (hopnotes.go)
	for i := range rest {
		rest[i].later = len(cbs) > 0
	}
	cbs = append(cbs, rest...)
	cbs = cbs[:min(len(cbs), maxCallbacks)]
	*hits = append(*hits, cbs...)
	return len(cbs) > 0
}

// testNameWords returns the words of the failing tests' names
// (test_noname_tag, TestNonameTag: noname, tag), lower-cased, of three
// letters or more, "test" left out.
func (d *defFinder) testNameWords(lang defLang) []string {
	var out []string
	for _, loc := range d.req.Tests {
		if langFor(loc.File) != lang {
			continue
		}
		f := d.file(loc.File, lang)
		if !f.ok {
			continue
		}
		var in *defSpan
		for i, s := range f.defs {
			if !s.class && !s.data && s.from <= loc.Line && loc.Line <= s.to && (in == nil || s.from >= in.from) {
				in = &f.defs[i]
			}
		}
		if in == nil {
			continue
		}
		for _, w := range nameWords(in.name) {
			if len(out) == maxNameWords {
				break // (a generated test name of thousands of words)
			}
			if len(w) >= 3 && w != "test" && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// maxNameWords bounds the words of the failing tests' names the callbacks
// are asked for.
const maxNameWords = 16

// nameWords splits an identifier at its underscores and where a lower-case
// letter or digit is followed by an upper-case one, lower-casing the words.
func nameWords(name string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, strings.ToLower(name[start:end]))
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
			flush(i)
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > start && (name[i-1] >= 'a' && name[i-1] <= 'z' || name[i-1] >= '0' && name[i-1] <= '9'):
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return out
}

// exercised reports whether a method's name holds one of a failing test's
// name's words (parse_starttag holds tag).
func exercised(method string, words []string) bool {
	m := strings.ToLower(method)
	for _, w := range words {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}
