package codectx

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on its first use. The package's many
// patterns (failure formats, stack frames, definitions) were compiled by the
// package initialiser in every process, including `fixplan --version` and
// `fixplan patch`, which use none of them (~0.8 ms and 600 KB per start). It
// offers the methods the package calls; lazyPatterns lets a test compile them all.
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

func (l *lazyRE) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }

func (l *lazyRE) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}

func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}

func (l *lazyRE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}

func (l *lazyRE) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

func (l *lazyRE) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}

func (l *lazyRE) FindSubmatch(b []byte) [][]byte { return l.get().FindSubmatch(b) }

func (l *lazyRE) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}

func (l *lazyRE) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(src, repl)
}

func (l *lazyRE) Split(s string, n int) []string { return l.get().Split(s, n) }
