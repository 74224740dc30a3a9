package redact

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
	glregexp "github.com/zricethezav/gitleaks/v8/regexp"
)

// viperConfig is gitleaks' default configuration read as gitleaks reads it,
// through a viper instance.
func viperConfig(t *testing.T) config.ViperConfig {
	t.Helper()
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		t.Fatal(err)
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		t.Fatal(err)
	}
	return vc
}

// loadRules decodes the TOML straight into the ViperConfig viper gives.
func TestRulesDecodeAsViperDoes(t *testing.T) {
	var vc config.ViperConfig
	if err := toml.Unmarshal([]byte(config.DefaultConfig), &vc); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(vc, viperConfig(t)) {
		t.Fatal("the configuration decoded with go-toml differs from viper's")
	}
}

// eagerConfig is gitleaks' default configuration compiled whole by gitleaks,
// as the engine compiled it before its rules were compiled one by one.
func eagerConfig(t *testing.T) config.Config {
	t.Helper()
	vc := viperConfig(t)
	cfg, err := vc.Translate()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func reString(m matcher) string {
	if m == nil {
		return "<nil>"
	}
	return m.String()
}

// allowlistsEqual compares what the engine reads of two lists of allowlists.
func allowlistsEqual(a, b []*config.Allowlist) bool {
	if len(a) != len(b) {
		return false
	}
	strs := func(rs []*glregexp.Regexp) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = r.String()
		}
		return out
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	for i := range a {
		x, y := a[i], b[i]
		if x.Description != y.Description || x.MatchCondition != y.MatchCondition || x.RegexTarget != y.RegexTarget ||
			!slices.Equal(sorted(x.Commits), sorted(y.Commits)) || !slices.Equal(sorted(x.StopWords), sorted(y.StopWords)) ||
			!slices.Equal(strs(x.Paths), strs(y.Paths)) || !slices.Equal(strs(x.Regexes), strs(y.Regexes)) {
			return false
		}
	}
	return true
}

// A rule compiled on first use is the rule gitleaks compiles from the whole
// configuration: the same expression, path, allowlists (those targeting it
// included), secret group, entropy and keywords, in the same order; and the
// global allowlists are the same.
func TestLazyRulesAreTheWholeConfigurationsRules(t *testing.T) {
	cfg := eagerConfig(t)
	rs, err := loadRules(config.DefaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	if !allowlistsEqual(rs.global(), cfg.Allowlists) {
		t.Fatalf("global allowlists differ")
	}
	kwsOf := map[int32][]string{}
	for k, i := range rs.kws {
		for _, di := range rs.byKw[i] {
			kwsOf[di] = append(kwsOf[di], k)
		}
	}
	n := 0
	for _, id := range cfg.OrderedRules {
		r := cfg.Rules[id]
		if skippedRules[id] || r.Regex == nil || len(r.Keywords) == 0 || r.SkipReport {
			continue
		}
		if n >= len(rs.dets) || rs.dets[n].id != id {
			t.Fatalf("detector %d is not rule %s", n, id)
		}
		d := &rs.dets[n]
		if d.lazy == nil || d.lazy.d != nil {
			t.Fatalf("%s: compiled before its first use", id)
		}
		re, rulePath, ok := d.compiled()
		if !ok {
			t.Fatalf("%s does not compile", id)
		}
		if reString(re) != reString(r.Regex) || d.group != r.SecretGroup || d.entropy != r.Entropy ||
			d.reach != reachOf(r.Regex.String()) || !d.gitleaks {
			t.Errorf("%s: the rule differs: %s group %d entropy %v reach %d", id, reString(re), d.group, d.entropy, d.reach)
		}
		var path matcher
		if r.Path != nil {
			path = r.Path
		}
		if reString(rulePath) != reString(path) {
			t.Errorf("%s: path %s, gitleaks %s", id, reString(rulePath), reString(path))
		}
		if d.lazy.allow != nil {
			t.Errorf("%s: allowlists compiled with the rule's expression", id)
		}
		if !allowlistsEqual(d.allowlists(), r.Allowlists) || d.lazy.allowErr {
			t.Errorf("%s: its allowlists differ from gitleaks'", id)
		}
		byPath := false
		for _, a := range r.Allowlists {
			byPath = byPath || len(a.Paths) > 0 && (a.MatchCondition == config.AllowlistMatchOr ||
				len(a.Regexes) == 0 && len(a.StopWords) == 0 && len(a.Commits) == 0)
		}
		if d.lazy.pathAllowlists != byPath {
			t.Errorf("%s: switched off by path %v, gitleaks' allowlists say %v", id, d.lazy.pathAllowlists, byPath)
		}
		kws := slices.Clone(r.Keywords)
		for i := range kws {
			kws[i] = strings.ToLower(kws[i])
		}
		slices.Sort(kws)
		kws = slices.Compact(kws)
		got := slices.Sorted(slices.Values(kwsOf[int32(n)]))
		if !slices.Equal(got, kws) {
			t.Errorf("%s: keywords %v, gitleaks %v", id, got, kws)
		}
		n++
	}
	if n < 200 {
		t.Fatalf("only %d rules compared", n)
	}
}

// A rule is compiled the first time a text holds its keywords, and redacts
// that text; a text without them compiles nothing.
func TestLazyRuleCompilesOnItsKeywordAndRedacts(t *testing.T) {
	rs, err := loadRules(config.DefaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	rs.build()
	compiled := func() []string {
		var ids []string
		for i := range rs.dets {
			if d := &rs.dets[i]; d.lazy != nil && d.lazy.d != nil {
				ids = append(ids, d.id)
			}
		}
		return ids
	}
	if spans := rs.find("nothing to see here\nfunc main() {}\n", "main.go"); len(spans) != 0 || len(compiled()) != 0 {
		t.Fatalf("a text without keywords: spans %v, compiled %v", spans, compiled())
	}
	// a 1Password secret key: only gitleaks' rule finds it (keyword "a3-")
	text := "the key is A3-ASWWYB-798JRY-LJVD4-23DC2-86TVM-H43EB ok\n"
	spans := rs.find(text, "")
	found := false
	for _, s := range spans {
		if s.rule == "1password-secret-key" && text[s.s:s.e] == "A3-ASWWYB-798JRY-LJVD4-23DC2-86TVM-H43EB" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the lazily compiled rule did not find the key: %v", spans)
	}
	if !slices.Contains(compiled(), "1password-secret-key") {
		t.Fatalf("compiled %v", compiled())
	}
	if len(compiled()) > 20 {
		t.Fatalf("%d rules compiled for one line: %v", len(compiled()), compiled())
	}
	// and a second text uses the compiled rule
	if spans := rs.find("again A3-ASWWYB-798JRY-LJVD4-23DC2-86TVM-H43EB\n", ""); len(spans) == 0 {
		t.Fatal("not found the second time")
	}
}

// Every rule of the default configuration is used by find: compiled
// concurrently on first use, each still redacts what it redacted (the
// existing tests' secrets), with no race (go test -race).
func TestLazyRulesCompileConcurrently(t *testing.T) {
	rs, err := loadRules(config.DefaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	rs.build()
	text := "token ghp_" + strings.Repeat("a1B2", 9) + " and A3-ASWWYB-798JRY-LJVD4-23DC2-86TVM-H43EB\n"
	done := make(chan int, 8)
	for range 8 {
		go func() { done <- len(rs.find(text, "")) }()
	}
	first := <-done
	for range 7 {
		if n := <-done; n != first || n == 0 {
			t.Fatalf("concurrent finds found %d and %d spans", first, n)
		}
	}
}

// A rule's allowlists are compiled when it first finds something, or before
// its path check when one of them switches it off by path; either way they
// apply as gitleaks applies them.
func TestLazyRuleAllowlists(t *testing.T) {
	rs, err := loadRules(config.DefaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	rs.build()
	det := func(id string) *detector {
		for i := range rs.dets {
			if rs.dets[i].id == id {
				return &rs.dets[i]
			}
		}
		t.Fatalf("no rule %s", id)
		return nil
	}
	has := func(spans []secretSpan, rule string) bool {
		for _, s := range spans {
			if s.rule == rule {
				return true
			}
		}
		return false
	}
	// the generic rule: a match that is no finding compiles its expression, not its allowlists
	generic := det("generic-api-key")
	rs.find(`token = "aaaaaaaaaaaaaaaa"`+"\n", "notes.txt") // too little entropy to be a finding
	if generic.lazy.d == nil || generic.lazy.allow != nil {
		t.Fatalf("after a keyword without a match: expression compiled %v, allowlists %v", generic.lazy.d != nil, generic.lazy.allow != nil)
	}
	// a finding compiles them, and they apply: a stop word's value is allowed
	if !has(rs.find(`api_key = "Xq7vP2mK9rT4wZ8bN3cL6"`+"\n", "settings.txt"), "generic-api-key") {
		t.Fatal("the generic rule did not find a random key")
	}
	if generic.lazy.allow == nil {
		t.Fatal("a finding did not compile the allowlists")
	}
	if has(rs.find(`api_key = "abcdefghijklmnopqrstuvwxyz"`+"\n", "settings.txt"), "generic-api-key") {
		t.Fatal("a stop word of the generic rule's allowlist was not allowed")
	}
	// github-pat is switched off in one file by path: its allowlists are
	// compiled before the path check, and the check holds
	pat := "ghp_Xq7vP2mK9rT4wZ8bN3cL6aY5dF1gH0jSe4uQ"
	if has(rs.find("token "+pat+"\n", "docs/@octokit/auth-token/README.md"), "github-pat") {
		t.Fatal("github-pat ran in the file its allowlist names")
	}
	if !has(rs.find("token "+pat+"\n", "docs/README.md"), "github-pat") {
		t.Fatal("github-pat did not find the token elsewhere")
	}
}
