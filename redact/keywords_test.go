package redact

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
)

// The engine's keyword automaton reports every occurrence of its keywords,
// in the order an Aho-Corasick trie walk does (by end, longest first): the
// engine's windows and their merging depend on that order. Compared with
// github.com/BobuSumisu/aho-corasick, which the engine used before, on the
// engine's own keywords over source files and made-up texts.
func TestKeywordSetFindsWhatATrieFinds(t *testing.T) {
	words := engineKeywords(t)
	trie := ahocorasick.NewTrieBuilder().AddStrings(words).Build()
	ks := newKeywordSet(words)

	var texts []string
	for _, glob := range []string{"*.go", "../session/*.go", "../context/*.go", "../docs/*.md"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, strings.ToLower(string(b)))
		}
	}
	if len(texts) < 20 {
		t.Fatalf("%d files", len(texts))
	}
	// keywords run together, cut and overlapping, with other bytes between
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(keywordPiece(rng, words[rng.IntN(len(words))]))
			if rng.IntN(3) == 0 {
				b.WriteByte(byte(rng.IntN(256)))
			}
		}
		texts = append(texts, b.String())
	}
	type hit struct{ end, n, kw int }
	total := 0
	for _, text := range texts {
		var want, got []hit
		trie.Walk([]byte(text), func(end, n, kw int64) bool {
			want = append(want, hit{int(end), int(n), int(kw)})
			return true
		})
		ks.walk([]byte(text), func(end, n, kw int) { got = append(got, hit{end, n, kw}) })
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\n got %v\nwant %v", text[:min(len(text), 200)], got[:min(len(got), 10)], want[:min(len(want), 10)])
		}
		total += len(want)
	}
	if total < 10000 {
		t.Fatalf("only %d hits compared", total)
	}
}

// keywordPiece is w, its start or its end (a quarter of the time each).
func keywordPiece(rng *rand.Rand, w string) string {
	switch rng.IntN(4) {
	case 0:
		return w[:rng.IntN(len(w)+1)]
	case 1:
		return w[rng.IntN(len(w)):]
	}
	return w
}
