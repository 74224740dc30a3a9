// Package lazyre holds regular expressions compiled on their first use. Packages
// with many patterns (failure formats, stack frames, definitions, check output)
// compiled them in their initialisers in every process, including
// `fixplan --version` and `fixplan patch`, which use none of them (~1.2 ms and
// 900 KB per start). All lets a test compile every registered pattern, so a typo
// fails a test instead of the first user whose output reaches it.
package lazyre

import (
	"regexp"
	"sync"
)

// RE is regexp.MustCompile(src) done on the first call of one of its methods.
type RE struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*RE
)

// New registers a pattern to compile on first use (call it from package-level
// variable declarations, like regexp.MustCompile).
func New(src string) *RE {
	l := &RE{src: src}
	mu.Lock()
	all = append(all, l)
	mu.Unlock()
	return l
}

// All returns every pattern registered so far.
func All() []*RE {
	mu.Lock()
	defer mu.Unlock()
	return append([]*RE(nil), all...)
}

// Source is the pattern's text.
func (l *RE) Source() string { return l.src }

// Regexp compiles the pattern the first time (panicking on a bad pattern, like
// regexp.MustCompile) and returns it.
func (l *RE) Regexp() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *RE) MatchString(s string) bool { return l.Regexp().MatchString(s) }

func (l *RE) FindAllString(s string, n int) []string { return l.Regexp().FindAllString(s, n) }

func (l *RE) FindAllStringIndex(s string, n int) [][]int {
	return l.Regexp().FindAllStringIndex(s, n)
}

func (l *RE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.Regexp().FindAllStringSubmatch(s, n)
}

func (l *RE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.Regexp().FindAllStringSubmatchIndex(s, n)
}

func (l *RE) FindStringSubmatch(s string) []string { return l.Regexp().FindStringSubmatch(s) }

func (l *RE) FindStringSubmatchIndex(s string) []int {
	return l.Regexp().FindStringSubmatchIndex(s)
}

func (l *RE) FindSubmatch(b []byte) [][]byte { return l.Regexp().FindSubmatch(b) }

func (l *RE) ReplaceAllString(src, repl string) string {
	return l.Regexp().ReplaceAllString(src, repl)
}

func (l *RE) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.Regexp().ReplaceAllStringFunc(src, repl)
}

func (l *RE) Split(s string, n int) []string { return l.Regexp().Split(s, n) }
