package tokens

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer/codec"
)

// The library's split patterns (github.com/tiktoken-go/tokenizer/codec,
// o200k_base.go and cl100k_base.go): compiled here with the same options, the
// engine is the one the library runs.
const (
	o200kPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// regexPieces are the matches of pattern in s, as the library cuts s.
func regexPieces(t testing.TB, re *regexp2.Regexp, s string) []string {
	var out []string
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func ourPieces(split func(string, func(string)) bool, s string) ([]string, bool) {
	var out []string
	ok := split(s, func(p string) { out = append(out, p) })
	return out, ok
}

// tricky are characters of every class the patterns tell apart, and the ones
// their alternatives treat specially.
var tricky = []rune{
	'a', 'z', 'A', 'Z', 's', 'S', 't', 'r', 'e', 'E', 'v', 'm', 'l', 'L', 'd', 'D', 'x',
	'0', '9', ' ', ' ', ' ', '\t', '\n', '\r', '\v', '\f', '\'', '\'', '/', '-', '_', '.', '{', '"', '\x00', '\x1f',
	'ſ',                // long s: (?i)'s matches it
	'\u0301', '\u0903', // combining marks (Mn, Mc): in both letter classes and a word's lead
	'\u02b0', '\u4e00', // Lm, Lo: in both letter classes
	'\u01c5',                // Lt
	'É', 'é', 'ß', 'Σ', 'ω', // Lu, Ll
	'\u0663', 'Ⅻ', '½', // Nd, Nl, No
	'\u0085', '\u00a0', '\u3000', '\u2028', // spaces beyond ASCII
	'\u200b', '€', '😀', '\ufffd', '\u212a', // not spaces; Kelvin sign folds to k
}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(tricky[rng.IntN(len(tricky))])
	}
	return b.String()
}

// corpus is texts of every kind: this repository's sources and documents,
// made-up prose, and random strings of the tricky characters.
func corpus(t testing.TB) []string {
	var texts []string
	for _, glob := range []string{"../session/*.go", "../context/*.go", "../docs/*.md", "../frontend/src/*/*.ts", "../README.md", "../go.sum"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, string(b))
		}
	}
	if len(texts) < 20 {
		t.Fatalf("expected the repository's sources next to this package, found %d files", len(texts))
	}
	texts = append(texts,
		"", " ", "  ", "\n", " \n", "\n ", "a  b", "a \n b", "x\r\n\r\n  y", "  \t x", "end  ", "end \n",
		"I'm here, you're there: they'll've it'S ok'D 'll 'LL 'Re 'ſ 'x", "don't DON'T Don'T",
		"HTTPServer URLs ABC's XMLHttpRequest éÉ ÉCOLE École", "12345 1234567 ½½½½ Ⅻ1 ٣٣٣٣",
		"   // comment\n\tfunc() {}\n\n\n", "a/b//c\n/\r\n", " !!! ?? ...\n\n", "\u0301\u0301a", " \u0301A", "\u02b0\u02b0X",
		"日本語のテキスト、そして English 混在。", "Привет, мир! ΣΊΣΥΦΟΣ", "emoji 😀😀 ok", "\u00a0\u00a0x \u3000y\u2028z",
	)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		texts = append(texts, randomText(rng, 1+rng.IntN(24)))
	}
	return texts
}

// The written-out pre-tokenizers cut every text exactly where the library's
// patterns do.
func TestSplitMatchesTheLibrarysPatterns(t *testing.T) {
	texts := corpus(t)
	for _, tc := range []struct {
		name    string
		pattern string
		split   func(string, func(string)) bool
	}{{O200k, o200kPattern, splitO200k}, {Cl100k, cl100kPattern, splitCl100k}} {
		t.Run(tc.name, func(t *testing.T) {
			re := regexp2.MustCompile(tc.pattern, regexp2.None)
			bad := 0
			for _, s := range texts {
				want := regexPieces(t, re, s)
				got, ok := ourPieces(tc.split, s)
				if !ok || !slices.Equal(got, want) {
					bad++
					if bad <= 5 {
						i := 0
						for i < min(len(got), len(want)) && got[i] == want[i] {
							i++
						}
						t.Errorf("%q: pieces differ at piece %d (ok %v):\n got %q\nwant %q", clipQ(s), i, ok, got[i:min(len(got), i+4)], want[i:min(len(want), i+4)])
					}
				}
			}
			if bad > 0 {
				t.Fatalf("%d of %d texts cut differently", bad, len(texts))
			}
		})
	}
}

func clipQ(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// Counting piece by piece (looked up or counted) gives the library's count of
// the whole text, the first time and again; text that is not valid UTF-8 is
// counted by the library whole.
func TestCountByPiecesIsTheLibrarysCount(t *testing.T) {
	texts := corpus(t)
	texts = append(texts, "bad \xff\xfe bytes", "\xc3", "ok \xe2\x82 cut")
	for _, tc := range []struct {
		model string
		enc   func() *codec.Codec
	}{{"gpt-4o", codec.NewO200kBase}, {"gpt-4", codec.NewCl100kBase}} {
		t.Run(tc.model, func(t *testing.T) {
			enc := tc.enc()
			c := For(tc.model)
			for round := range 2 {
				for _, s := range texts {
					want, err := enc.Count(s)
					if err != nil {
						t.Fatal(err)
					}
					if got := c.Count(s); got != want {
						t.Fatalf("round %d: Count(%q) = %d, the library counts %d", round, clipQ(s), got, want)
					}
				}
			}
		})
	}
}

// The piece counts do not keep the texts they were cut from.
func TestPieceCountsHoldCopies(t *testing.T) {
	c := For("gpt-4o")
	text := strings.Repeat("unusualword ", 3) + "zzqxj"
	c.Count(text)
	c.pieces.mu.RLock()
	defer c.pieces.mu.RUnlock()
	for p := range c.pieces.m {
		if len(p) > 0 && strings.Contains(text, p) && unsafeSameMemory(p, text) {
			t.Fatalf("piece %q points into the counted text", p)
		}
	}
}

// unsafeSameMemory reports whether p's bytes lie inside s's.
func unsafeSameMemory(p, s string) bool {
	pp, sp := uintptr(unsafe.Pointer(unsafe.StringData(p))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return pp >= sp && pp < sp+uintptr(len(s))
}
