package redact

import (
	"math"
	"regexp"
	"strings"
	"sync"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/spf13/viper"
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
	id    string
	re    matcher
	reach int // lines searched on each side of a keyword's line
	// gitleaks marks rules of gitleaks' set (switched off by its path allowlists).
	gitleaks bool
	group    int     // secret group (0 = the first non-empty group, or the match)
	entropy  float64 // minimum Shannon entropy of the secret (0 = none)
	path     matcher // only files whose path matches (nil = any text)
	allow    []*config.Allowlist
	// pre, when set, is a cheap check of one keyword hit text[ks:ke] before the
	// regular expression runs (false = this hit cannot start a match).
	pre func(text string, ks, ke int) bool
	// accept, when set, judges one match (loc are offsets into the window that
	// starts at off) and adds its spans to sc; it replaces the gitleaks checks.
	accept func(sc *scan, off int, loc []int)
}

// ruleSet is the compiled engine.
type ruleSet struct {
	dets   []detector
	trie   *ahocorasick.Trie // lower-case keywords, in the order of byKw
	byKw   [][]int32         // keyword index → detectors that list it
	global []*config.Allowlist
	kws    map[string]int // keyword → index, while the engine is built
}

// rules returns the compiled engine; the first call parses and compiles it (~200
// regular expressions, ~40 ms), so process start-up does not pay for it. When
// gitleaks' configuration fails to load, only the hand-written detectors run.
var rules = sync.OnceValue(func() *ruleSet {
	rs, err := loadRules(config.DefaultConfig)
	if err != nil {
		rs = &ruleSet{}
	}
	rs.build()
	return rs
})

// Prepare starts compiling the rule set on a goroutine of its own, when it is
// not compiled yet: a caller that will redact soon (a gatherer about to read
// the project) does not wait the whole compile at its first redaction.
func Prepare() { go rules() }

// loadRules compiles a gitleaks TOML configuration (with its own viper instance:
// the global one is left alone) and adds the hand-written detectors.
func loadRules(toml string) (*ruleSet, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(toml)); err != nil {
		return nil, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return nil, err
	}
	cfg, err := vc.Translate()
	if err != nil {
		return nil, err
	}
	rs := &ruleSet{global: cfg.Allowlists}
	for _, id := range cfg.OrderedRules {
		r := cfg.Rules[id]
		if skippedRules[id] || r.Regex == nil || len(r.Keywords) == 0 || r.SkipReport {
			continue
		}
		d := detector{id: id, re: r.Regex, reach: reachOf(r.Regex.String()), gitleaks: true, group: r.SecretGroup,
			entropy: r.Entropy, allow: r.Allowlists, pre: prefilters[id]}
		if r.Path != nil {
			d.path = r.Path
		}
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
	rs.trie = ahocorasick.NewTrieBuilder().AddStrings(list).Build()
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
		for _, a := range rs.global {
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
	rs.trie.Walk(low, func(end, n, pattern int64) bool {
		ks, ke := int(end-n+1), int(end+1)
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
		return true
	})
	sc := &scan{text: text, code: isCodePath(path)}
	for di, ws := range wins {
		if len(ws) == 0 {
			continue
		}
		d := &rs.dets[di]
		if d.gitleaks && (skipGitleaks || d.path != nil && (path == "" || !d.path.MatchString(path)) ||
			path != "" && rulePathAllowlisted(d.allow, path)) {
			continue
		}
		for _, w := range ws {
			sub := text[w.from:w.to]
			for _, loc := range d.re.FindAllStringSubmatchIndex(sub, -1) {
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
	if findingAllowed(rs.global, secret, match, line) || findingAllowed(d.allow, secret, match, line) {
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
