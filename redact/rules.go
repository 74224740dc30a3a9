package redact

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/config"
)

// The detection engine. Its rules are gitleaks' default rule set
// (config.DefaultConfig, embedded in the gitleaks module: 220 providers plus a
// generic `api_key = "…"` rule), applied with gitleaks' semantics — keywords,
// regular expression, secret group, entropy threshold, global and per-rule
// allowlists (regexes, stop words, paths) — and the hand-written detectors of
// hand.go, cli.go and pem.go. Every detector has keywords; one Aho-Corasick pass
// over the lower-cased text finds them all, and a detector's regular expression
// runs only on the lines around its keywords.
//
// gitleaks' own detector runs every triggered rule over the whole text instead:
// ~25 ms for a 2,000-line source file, since the generic rule's keywords ("key",
// "token", "api") are in most files. Running on the keyword's line (and the next
// one for rules that may cross a line break; ±8 lines for the few multi-line
// rules) finds the same matches whenever a match contains its rule's keyword,
// which is what keywords are for.

// skippedRules are default rules redaction does not use: private keys are found
// by the line-preserving PEM scanner (pem.go), which also handles blocks
// cut by a window and does not take code between two marker literals for a key;
// pkcs12-file matches file names only.
var skippedRules = map[string]bool{"private-key": true, "pkcs12-file": true}

// matcher is a compiled regular expression (gitleaks' regexp package is the
// standard library's unless built with its gore2regex tag).
type matcher interface {
	FindAllStringSubmatchIndex(s string, n int) [][]int
	MatchString(s string) bool
	String() string
}

// detector is one rule of the engine.
type detector struct {
	id string
	re matcher
	// reOf, for the hand-written detectors, compiles re the first time a text
	// has the detector's keywords (sync.OnceValue)
	reOf  func() *regexp.Regexp
	reach int // lines searched on each side of a keyword's line
	// gitleaks marks rules of gitleaks' set (switched off by its path allowlists).
	gitleaks bool
	group    int     // secret group (0 = the first non-empty group, or the match)
	entropy  float64 // minimum Shannon entropy of the secret (0 = none)
	path     matcher // only files whose path matches (nil = any text)
	allow    []*config.Allowlist
	// lazy, for gitleaks' rules, compiles re, path and allow the first time a
	// text has the rule's keywords (most rules never meet theirs).
	lazy *lazyRule
	// pre, when set, is a cheap check of one keyword hit text[ks:ke] before the
	// regular expression runs (false = this hit cannot start a match).
	pre func(text string, ks, ke int) bool
	// accept, when set, judges one match (loc are offsets into the window that
	// starts at off) and adds its spans to sc; it replaces the gitleaks checks.
	accept func(sc *scan, off int, loc []int)
}

// compiled is a detector's regular expression and path, compiled now if they
// were not (ok false when its rule does not compile: it finds nothing, as when
// the whole configuration did not load).
func (d *detector) compiled() (re, path matcher, ok bool) {
	switch {
	case d.lazy != nil:
		c := d.lazy.rule()
		if c == nil {
			return nil, nil, false
		}
		return c.re, c.path, true
	case d.reOf != nil:
		return d.reOf(), d.path, true
	}
	return d.re, d.path, true
}

// allowlists are the detector's allowlists, compiled now if they were not.
func (d *detector) allowlists() []*config.Allowlist {
	if d.lazy == nil {
		return d.allow
	}
	return d.lazy.allowlists()
}

// lazyRule is one gitleaks rule, compiled on first use by gitleaks itself
// (ViperConfig.Translate) from a configuration holding only this rule and the
// allowlists that target it, so it means what it means in the whole
// configuration. Its expression and path are compiled when a text first has
// its keywords; its allowlists (the generic rule's: 1,456 stop words and long
// expressions, ~7 ms) when it first finds something, or before its path check
// when one of them can switch it off by path (pathAllowlists).
type lazyRule struct {
	vc config.ViperConfig
	// pathAllowlists: an allowlist of the rule can switch it off for a file
	// by its path alone (pathAllowlisted).
	pathAllowlists bool

	ruleOnce, allowOnce sync.Once
	d                   *detector // the expression and path (nil: the rule does not compile)
	allow               []*config.Allowlist
	allowErr            bool // the allowlists do not compile
}

func (l *lazyRule) rule() *detector {
	l.ruleOnce.Do(func() {
		one := l.vc
		r := one.Rules[0]
		r.AllowList, r.Allowlists = nil, nil
		one.Rules = append(one.Rules[:0:0], r) // a new array: the configuration's stays whole
		one.Allowlists = nil
		cfg, err := one.Translate()
		if err != nil {
			return
		}
		cr, ok := cfg.Rules[r.ID]
		if !ok || cr.Regex == nil {
			return
		}
		d := detector{re: cr.Regex}
		if cr.Path != nil {
			d.path = cr.Path
		}
		l.d = &d
	})
	return l.d
}

// allowlists compiles the rule whole, with its allowlists. When they do not
// compile, the rule's findings are kept (nothing allows them).
func (l *lazyRule) allowlists() []*config.Allowlist {
	l.allowOnce.Do(func() {
		cfg, err := l.vc.Translate()
		if err != nil {
			l.allowErr = true
			return
		}
		l.allow = cfg.Rules[l.vc.Rules[0].ID].Allowlists
	})
	return l.allow
}

// ruleSet is the compiled engine.
type ruleSet struct {
	dets   []detector
	kwSet  *keywordSet                // lower-case keywords, in the order of byKw
	byKw   [][]int32                  // keyword index → detectors that list it
	global func() []*config.Allowlist // gitleaks' global allowlists (compiled on first use)
	kws    map[string]int             // keyword → index, while the engine is built
}

// rules returns the engine; the first call builds it (~4 ms: gitleaks'
// configuration read, the keyword automaton; a detector's regular expressions
// are compiled when a text first has its keywords, gitleaks' global
// allowlists when first used), so process start-up does not pay for it. When gitleaks' configuration fails to load, only the
// hand-written detectors run.
var rules = sync.OnceValue(func() *ruleSet {
	rs, err := loadRules(config.DefaultConfig)
	if err != nil {
		rs = &ruleSet{global: func() []*config.Allowlist { return nil }}
	}
	rs.build()
	return rs
})

// Prepare starts building the rule set on a goroutine of its own, when it is
// not built yet: a caller that will redact soon (a gatherer about to read
// the project) does not wait the whole build at its first redaction. Once the
// rule set is ready, the same goroutine compiles what redacting a file uses
// (gitleaks' global allowlists, the hand-written detectors' expressions),
// beside the caller's first redactions rather than in them.
func Prepare() {
	go func() {
		rs := rules()
		rs.global()
		for i := range rs.dets {
			if d := &rs.dets[i]; d.reOf != nil {
				d.reOf()
			}
		}
	}()
}

// loadRules reads a gitleaks TOML configuration and adds a detector for each
// of its rules, compiled when first used (lazyRule). Its global allowlists are
// compiled when first used too, by gitleaks, from the configuration without
// its rules.
//
// The TOML is decoded straight into gitleaks' ViperConfig (~1.5 ms; through a
// viper instance, as gitleaks reads it, ~10 ms): the two give the same value
// (lazy_test.go).
func loadRules(text string) (*ruleSet, error) {
	var vc config.ViperConfig
	if err := toml.Unmarshal([]byte(text), &vc); err != nil {
		return nil, err
	}
	if vc.Extend.Path != "" || vc.Extend.URL != "" || vc.Extend.UseDefault || len(vc.Extend.DisabledRules) > 0 {
		return nil, errors.New("a configuration that extends another is not supported")
	}
	// the allowlists, the deprecated single one included (Translate's rules)
	lists := vc.Allowlists
	if vc.AllowList != nil {
		if len(lists) > 0 {
			return nil, errors.New("[allowlist] is deprecated, it cannot be used alongside [[allowlists]]")
		}
		lists = append(lists, vc.AllowList)
	}
	ids := map[string]bool{}
	for _, r := range vc.Rules {
		ids[r.ID] = true
	}
	global := config.ViperConfig{Title: vc.Title, Description: vc.Description, MinVersion: vc.MinVersion}
	for _, a := range lists {
		if len(a.TargetRules) == 0 {
			global.Allowlists = append(global.Allowlists, a)
		}
		for _, id := range a.TargetRules {
			if !ids[id] {
				return nil, fmt.Errorf("[[allowlists]] target rule ID '%s' does not exist", id)
			}
		}
	}
	rs := &ruleSet{global: sync.OnceValue(func() []*config.Allowlist {
		cfg, err := global.Translate()
		if err != nil {
			return nil // (the embedded configuration's compile: lazy_test.go)
		}
		return cfg.Allowlists
	})}
	for _, r := range vc.Rules {
		if skippedRules[r.ID] || r.Regex == "" || len(r.Keywords) == 0 || r.SkipReport {
			continue
		}
		own := r
		own.Keywords = slices.Clone(r.Keywords) // Translate lower-cases them in place
		one := config.ViperConfig{Title: vc.Title, MinVersion: vc.MinVersion, Rules: append(vc.Rules[:0:0], own)}
		byPath := false
		for _, a := range append(slices.Clone(r.Allowlists), r.AllowList) {
			if a != nil {
				byPath = byPath || mayAllowPath(a.Condition, a.Paths, a.Regexes, a.StopWords, a.Commits)
			}
		}
		for _, a := range lists {
			if slices.Contains(a.TargetRules, r.ID) {
				t := *a
				t.TargetRules = []string{r.ID}
				one.Allowlists = append(one.Allowlists, &t)
				byPath = byPath || mayAllowPath(a.Condition, a.Paths, a.Regexes, a.StopWords, a.Commits)
			}
		}
		d := detector{id: r.ID, reach: reachOf(r.Regex), gitleaks: true, group: r.SecretGroup,
			entropy: r.Entropy, lazy: &lazyRule{vc: one, pathAllowlists: byPath}, pre: prefilters[r.ID]}
		rs.addDetector(d, r.Keywords)
	}
	return rs, nil
}

// addDetector adds d, found by any of keywords (ASCII, any case).
func (rs *ruleSet) addDetector(d detector, keywords []string) {
	if rs.kws == nil {
		rs.kws = map[string]int{}
	}
	di := int32(len(rs.dets))
	rs.dets = append(rs.dets, d)
	seen := map[string]bool{}
	for _, k := range keywords {
		k = strings.ToLower(k)
		if seen[k] {
			continue
		}
		seen[k] = true
		i, ok := rs.kws[k]
		if !ok {
			i = len(rs.byKw)
			rs.kws[k] = i
			rs.byKw = append(rs.byKw, nil)
		}
		rs.byKw[i] = append(rs.byKw[i], di)
	}
}

// build adds the hand-written detectors and the keyword trie.
func (rs *ruleSet) build() {
	for _, h := range handWritten() {
		rs.addDetector(h.d, h.keywords)
	}
	list := make([]string, len(rs.byKw))
	for k, i := range rs.kws {
		list[i] = k
	}
	rs.kws = nil
	rs.kwSet = newKeywordSet(list)
}

// reachOf is how many lines around a keyword's line a rule's match may cover: 8
// for rules written to span lines, 1 for rules that may cross one line break
// (a `\s`, a negated class), 0 for the rest — most provider rules, whose only
// whitespace is the usual end of a token.
func reachOf(src string) int {
	if strings.Contains(src, `[\r\n]`) || strings.Contains(src, `(?s`) || strings.Contains(src, `[\s\S]`) {
		return 8
	}
	src = strings.ReplaceAll(src, `(?:[\x60'"\s;]|\\[nr]|$)`, "")
	for _, s := range []string{`\s`, `[^`, `\n`, `\r`, `\W`, `\D`, `\P`, `\p`} {
		if strings.Contains(src, s) {
			return 1
		}
	}
	return 0
}

// lowerPool holds buffers for the ASCII-lower-cased copy of a text.
var lowerPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// nearBytes bounds a window on a long line: it starts at most nearBytes before a
// keyword and ends at most 2*nearBytes after it (times 1+reach).
const nearBytes = 512

// window is a byte range [from,to) of the text one detector runs over.
type window struct{ from, to int }

// scan is one text being searched for secrets.
type scan struct {
	text string
	// code is set for files of languages whose string literals are quoted (by
	// extension): an unquoted value there is an expression, never a literal secret.
	code bool
	out  []secretSpan
}

func (sc *scan) add(s, e int, rule string) { sc.out = append(sc.out, secretSpan{s, e, rule}) }

// codeExts are the extensions of such languages.
var codeExts = map[string]bool{".go": true, ".py": true, ".pyi": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true,
	".ts": true, ".tsx": true, ".java": true, ".kt": true, ".kts": true, ".scala": true, ".groovy": true, ".c": true, ".h": true,
	".cc": true, ".cpp": true, ".cxx": true, ".hpp": true, ".hh": true, ".cs": true, ".rs": true, ".swift": true, ".rb": true,
	".php": true, ".dart": true, ".lua": true, ".m": true, ".mm": true, ".ex": true, ".exs": true, ".erl": true, ".hs": true,
	".ml": true, ".fs": true, ".clj": true, ".vue": true, ".svelte": true, ".zig": true, ".jl": true, ".r": true, ".s": true}

func isCodePath(p string) bool {
	if i := strings.LastIndexByte(p, '.'); i >= 0 && i > strings.LastIndexByte(p, '/') {
		return codeExts[strings.ToLower(p[i:])]
	}
	return false
}

// find returns the spans of the secrets in text. path (slash-separated, may be
// "") enables gitleaks' path-specific rules and path allowlists.
func (rs *ruleSet) find(text, path string) []secretSpan {
	if len(rs.dets) == 0 || text == "" {
		return nil
	}
	skipGitleaks := false
	if path != "" {
		for _, a := range rs.global() {
			if pathAllowlisted(a, path) {
				skipGitleaks = true
			}
		}
	}
	bp := lowerPool.Get().(*[]byte)
	defer lowerPool.Put(bp)
	low := append((*bp)[:0], text...)
	for i, c := range low {
		if 'A' <= c && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	*bp = low

	// keyword hits → per detector, the merged windows of lines around them
	wins := make([][]window, len(rs.dets))
	covered := make([]int, len(rs.dets)) // where the detector's last window stops covering its hit's line
	rs.kwSet.walk(low, func(end, n, pattern int) {
		ks, ke := end-n+1, end+1
		for _, di := range rs.byKw[pattern] {
			if ks < covered[di] {
				continue // inside the window of an earlier hit on the same line
			}
			d := &rs.dets[di]
			if d.pre != nil && !d.pre(text, ks, ke) {
				continue
			}
			// the lines around the hit, but not more than a few KiB of a long
			// (minified) line: a match holding the keyword is shorter than that
			near := nearBytes * (1 + d.reach)
			from := max(lineStartBack(text, ks, d.reach), ks-near)
			to := min(lineEndForward(text, ks, d.reach), ke+2*near)
			covered[di] = min(lineEndForward(text, ks, 0), to)
			ws := wins[di]
			if k := len(ws) - 1; k >= 0 && from <= ws[k].to {
				ws[k].to = max(ws[k].to, to)
			} else {
				ws = append(ws, window{from, to})
			}
			wins[di] = ws
		}
	})
	sc := &scan{text: text, code: isCodePath(path)}
	for di, ws := range wins {
		if len(ws) == 0 {
			continue
		}
		d := &rs.dets[di]
		if d.gitleaks && skipGitleaks {
			continue
		}
		re, rulePath, ok := d.compiled()
		if !ok || d.gitleaks && (rulePath != nil && (path == "" || !rulePath.MatchString(path)) ||
			path != "" && (d.lazy == nil || d.lazy.pathAllowlists) && rulePathAllowlisted(d.allowlists(), path)) {
			continue
		}
		for _, w := range ws {
			sub := text[w.from:w.to]
			for _, loc := range re.FindAllStringSubmatchIndex(sub, -1) {
				if d.accept != nil {
					d.accept(sc, w.from, loc)
				} else {
					rs.acceptGitleaks(sc, w.from, loc, d)
				}
			}
		}
	}
	return sc.out
}

// acceptGitleaks applies gitleaks' checks to one match of rule d and adds the
// span of its secret.
func (rs *ruleSet) acceptGitleaks(sc *scan, off int, loc []int, d *detector) {
	text := sc.text
	ms, me := off+loc[0], off+loc[1]
	for ms < me && text[ms] == '\n' { // gitleaks trims newlines off a match
		ms++
	}
	for me > ms && text[me-1] == '\n' {
		me--
	}
	ss, se := ms, me
	if d.group > 0 && 2*d.group+1 < len(loc) {
		if loc[2*d.group] < 0 {
			return
		}
		ss, se = off+loc[2*d.group], off+loc[2*d.group+1]
	} else if d.group == 0 {
		for g := 1; 2*g+1 < len(loc); g++ {
			if loc[2*g] >= 0 && loc[2*g+1] > loc[2*g] {
				ss, se = off+loc[2*g], off+loc[2*g+1]
				break
			}
		}
	}
	if se <= ss {
		return
	}
	secret := text[ss:se]
	if d.entropy != 0 && shannonEntropy(secret) <= d.entropy {
		return
	}
	match := text[ms:me]
	line := text[lineStartBack(text, ms, 0):lineEndForward(text, max(me-1, ms), 0)]
	if findingAllowed(rs.global(), secret, match, line) || findingAllowed(d.allowlists(), secret, match, line) {
		return
	}
	if d.id == "generic-api-key" && identifierRe().MatchString(secret) {
		return
	}
	sc.add(ss, se, d.id)
}

// identifierRe extends gitleaks' allowlist of the generic rule (names without
// digits) to names in code: a dotted name (ed25519.PrivateKey) and a name with a
// number at its end (NewEncapsulationKey1024).
var identifierRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[A-Za-z_.\-]+[0-9]{1,5}|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)$`)
})

// findingAllowed applies gitleaks' finding allowlists (regexes against the secret,
// the match or the line; stop words in the secret; AND conditions, where a path
// or commit condition never holds: paths are checked per file, commits unknown).
func findingAllowed(lists []*config.Allowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		regexOK := a.RegexAllowed(target)
		stop, _ := a.ContainsStopWord(secret)
		if a.MatchCondition == config.AllowlistMatchAnd {
			if len(a.Commits) > 0 || len(a.Paths) > 0 || len(a.Regexes)+len(a.StopWords) == 0 {
				continue
			}
			if (len(a.Regexes) == 0 || regexOK) && (len(a.StopWords) == 0 || stop) {
				return true
			}
			continue
		}
		if regexOK || stop {
			return true
		}
	}
	return false
}

// pathAllowlisted reports whether a switches gitleaks' rules off for the file
// at path (gitleaks' file-level check: OR lists by path; AND lists only when
// they have nothing but paths).
func pathAllowlisted(a *config.Allowlist, path string) bool {
	if len(a.Paths) == 0 {
		return false
	}
	if a.MatchCondition == config.AllowlistMatchAnd {
		return len(a.Regexes) == 0 && len(a.StopWords) == 0 && len(a.Commits) == 0 && a.PathAllowed(path)
	}
	return a.PathAllowed(path)
}

// mayAllowPath reports whether an allowlist with these fields (as the
// configuration writes them) can switch its rule off by a path alone
// (pathAllowlisted); an unknown condition says it may.
func mayAllowPath(condition string, paths, regexes, stopWords, commits []string) bool {
	if len(paths) == 0 {
		return false
	}
	switch strings.ToUpper(condition) {
	case "", "OR", "||":
		return true
	case "AND", "&&":
		return len(regexes) == 0 && len(stopWords) == 0 && len(commits) == 0
	}
	return true
}

func rulePathAllowlisted(lists []*config.Allowlist, path string) bool {
	for _, a := range lists {
		if pathAllowlisted(a, path) {
			return true
		}
	}
	return false
}

// shannonEntropy is gitleaks' entropy of a secret (bits per character).
func shannonEntropy(data string) float64 {
	if data == "" {
		return 0
	}
	counts := make(map[rune]int, 32)
	for _, c := range data {
		counts[c]++
	}
	inv := 1.0 / float64(len(data))
	e := 0.0
	for _, n := range counts {
		f := float64(n) * inv
		e -= f * math.Log2(f)
	}
	return e
}

// lineStartBack returns the start of the line n lines before the one holding pos.
func lineStartBack(text string, pos, n int) int {
	i := min(pos, len(text))
	for {
		j := strings.LastIndexByte(text[:i], '\n')
		if j < 0 {
			return 0
		}
		if n == 0 {
			return j + 1
		}
		n--
		i = j
	}
}

// lineEndForward returns the end (after its newline) of the line n lines after
// the one holding pos.
func lineEndForward(text string, pos, n int) int {
	i := pos
	for {
		if i >= len(text) {
			return len(text)
		}
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return len(text)
		}
		i += j + 1
		if n == 0 {
			return i
		}
		n--
	}
}
