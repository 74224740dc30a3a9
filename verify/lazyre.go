package verify

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on its first use: the package's
// failure-output patterns were compiled by its initialiser in every process,
// including `fixplan --version` and `fixplan patch` (~0.4 ms and 300 KB per
// start). It offers the methods the package calls; lazyPatterns lets a test
// compile them all.
type lazyRE struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

var lazyPatterns []*lazyRE

// lazyRegexp is regexp.MustCompile on first use.
func lazyRegexp(src string) *lazyRE {
	l := &lazyRE{src: src}
	lazyPatterns = append(lazyPatterns, l)
	return l
}

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRE) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRE) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}

func (l *lazyRE) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}
