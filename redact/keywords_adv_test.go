package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
)

// engineKeywords are the engine's keywords, in the order of their indexes.
func engineKeywords(t *testing.T) []string {
	t.Helper()
	rs, err := loadRules(config.DefaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range handWritten() {
		rs.addDetector(h.d, h.keywords)
	}
	words := make([]string, len(rs.byKw))
	for k, i := range rs.kws {
		words[i] = k
	}
	return words
}

type kwHit struct{ end, n, kw int }

// naiveHits is gitleaks' keyword semantics spelled out: each keyword found
// wherever the text holds it in any ASCII case (every start compared), in
// the engine's order (by end, longest first).
func naiveHits(words []string, text string) []kwHit {
	var hits []kwHit
	for kw, w := range words {
		for s := 0; s+len(w) <= len(text); s++ {
			if asciiFold(text[s:s+len(w)], w) {
				hits = append(hits, kwHit{s + len(w) - 1, len(w), kw})
			}
		}
	}
	slices.SortFunc(hits, func(a, b kwHit) int {
		if a.end != b.end {
			return a.end - b.end
		}
		return b.n - a.n
	})
	return hits
}

func asciiFold(a, b string) bool {
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// The keyword automaton, given a text lower-cased as find lower-cases it,
// finds exactly the keywords a naive case-insensitive search finds, in
// adversarial texts: keywords overlapping and repeated, cut by a line break,
// at the text's start and end, in every case, beside and between non-ASCII
// and invalid UTF-8 bytes (0xC1 is 'A'|0x80: a lower-casing that masks bits
// would turn it into a letter).
func TestKeywordSetAdversarial(t *testing.T) {
	words := engineKeywords(t)
	ks := newKeywordSet(words)
	texts := []string{
		"", "p", "pass", "PASSWORD", "passwordpassword", "pwdpasswdpass", "PaSsWoRdPaSs",
		"xoxb-xoxp-xoxa-xoxo-", "ghp_ghp_gho_", "akiaakiaASIA", "secretsecret_key_key", "apiapiAPI",
		"set passwordset password", "set  password", "://://:/", "eyjeyJEYj", "sk-sk-k_live_k_test_",
		"pass\nword", "pass\r\nword", "sec\nret", "secret_access_\nkey", "github_pat\n_",
		"\xff\xfepassword\xc3", "pass\xffword", "p\u00e1ssword", "\u0130dentified", "\u212aey key KEY",
		"\xc1\xcb\xc9\xc1", "\xe1\xeb\xe9\xe1", "contrase\xf1a password=x token\x80=y",
		"\u00e9secret\u00e9", "API_KEY=\u00df\u00dfpassword", strings.Repeat("pa", 40) + "ss",
	}
	// every keyword in three cases, alone and run together with its neighbours
	rng := rand.New(rand.NewPCG(11, 12))
	mixed := func(w string) string {
		b := []byte(w)
		for i := range b {
			if rng.IntN(2) == 0 && 'a' <= b[i] && b[i] <= 'z' {
				b[i] -= 'a' - 'A'
			}
		}
		return string(b)
	}
	for i, w := range words {
		next := words[(i+1)%len(words)]
		texts = append(texts, w, strings.ToUpper(w), mixed(w)+mixed(next)+"\n"+w[:len(w)/2]+"\n"+w[len(w)/2:],
			"\xe2\x82"+strings.ToUpper(w)+"\x80"+w[1:]+w)
	}
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			w := keywordPiece(rng, words[rng.IntN(len(words))])
			if rng.IntN(3) == 0 {
				w = mixed(w)
			}
			b.WriteString(w)
			switch rng.IntN(4) {
			case 0:
				b.WriteByte(byte(128 + rng.IntN(128)))
			case 1:
				b.WriteString([]string{"\n", "\r\n", " ", "\u212a", "\u00c9"}[rng.IntN(5)])
			}
		}
		texts = append(texts, b.String())
	}
	total := 0
	for _, text := range texts {
		low := []byte(text)
		for i, c := range low { // as find lower-cases a text
			if 'A' <= c && c <= 'Z' {
				low[i] = c + 'a' - 'A'
			}
		}
		var got []kwHit
		ks.walk(low, func(end, n, kw int) { got = append(got, kwHit{end, n, kw}) })
		want := naiveHits(words, text)
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\n got %v\nwant %v", text[:min(len(text), 200)], got, want)
		}
		total += len(want)
	}
	if total < 15000 {
		t.Fatalf("only %d hits compared", total)
	}
}
