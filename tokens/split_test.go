package tokens

import (
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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

func ourPieces(split func(string, func(string)), s string) []string {
	var out []string
	split(s, func(p string) { out = append(out, p) })
	return out
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
		split   func(string, func(string))
	}{{O200k, o200kPattern, splitO200k}, {Cl100k, cl100kPattern, splitCl100k}} {
		t.Run(tc.name, func(t *testing.T) {
			re := regexp2.MustCompile(tc.pattern, regexp2.None)
			bad := 0
			for _, s := range texts {
				want := regexPieces(t, re, s)
				got := ourPieces(tc.split, s)
				if !slices.Equal(got, want) {
					bad++
					if bad <= 5 {
						i := 0
						for i < min(len(got), len(want)) && got[i] == want[i] {
							i++
						}
						t.Errorf("%q: pieces differ at piece %d:\n got %q\nwant %q", clipQ(s), i, got[i:min(len(got), i+4)], want[i:min(len(want), i+4)])
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

// Count is the library's count of every text, valid UTF-8 or not, long
// pieces (runs of punctuation, base64) included.
func TestCountIsTheLibrarysCount(t *testing.T) {
	texts := corpus(t)
	texts = append(texts, "bad \xff\xfe bytes", "\xc3", "ok \xe2\x82 cut", "<|endoftext|> special",
		strings.Repeat("-", 5000), strings.Repeat("=+", 3000), strings.Repeat("QUJDRGVmZ2hpamtsbW5vcA", 400),
		strings.Repeat("\u00e9\u0301", 700), strings.Repeat(" ", 3000)+"x", strings.Repeat("a", 10000))
	for _, tc := range []struct {
		model string
		enc   func() *codec.Codec
	}{{"gpt-4o", codec.NewO200kBase}, {"gpt-4", codec.NewCl100kBase}} {
		t.Run(tc.model, func(t *testing.T) {
			enc := tc.enc()
			c := For(tc.model)
			for _, s := range texts {
				want, err := enc.Count(s)
				if err != nil {
					t.Fatal(err)
				}
				if got := c.Count(s); got != want {
					t.Fatalf("Count(%q) = %d, the library counts %d", clipQ(s), got, want)
				}
			}
		})
	}
}

var updateRanks = flag.Bool("update-ranks", false, "write o200k_base.ranks and cl100k_base.ranks from the library's tables (go generate)")

// libraryTokens are the tokens of the library's table, by rank.
func libraryTokens(t *testing.T, enc *codec.Codec) []string {
	var toks []string
	for id := uint(0); ; id++ {
		tok, err := enc.Decode([]uint{id})
		if err != nil {
			break
		}
		if tok == "" || len(tok) > 255 {
			t.Fatalf("%s: rank %d is %q", enc.GetName(), id, tok)
		}
		toks = append(toks, tok)
	}
	// the ranks are 0…n-1: none after the first gap but special tokens
	for id := len(toks); id < len(toks)+4096; id++ {
		if tok, err := enc.Decode([]uint{uint(id)}); err == nil && !strings.HasPrefix(tok, "<|") {
			t.Fatalf("%s: rank %d (%q) after a gap at %d", enc.GetName(), id, tok, len(toks))
		}
	}
	if len(toks) < 100000 {
		t.Fatalf("%s: %d ranks", enc.GetName(), len(toks))
	}
	return toks
}

// rankLayout lays tokens (by rank) out as newRanks reads them.
func rankLayout(tokens []string) []byte {
	bits := slotBits(len(tokens))
	mask := uint32(1)<<bits - 1
	slots := make([]int32, 1<<bits) // rank+1
	for rank, tok := range tokens {
		for h := hashBytes(tok) & mask; ; h = (h + 1) & mask {
			if slots[h] == 0 {
				slots[h] = int32(rank) + 1
				break
			}
		}
	}
	out := []byte{bits}
	prev := 0
	for slot, v := range slots {
		if v == 0 {
			continue
		}
		out = binary.AppendUvarint(out, uint64(slot-prev))
		prev = slot
		rank := v - 1
		out = append(out, byte(rank), byte(rank>>8), byte(rank>>16), byte(len(tokens[rank])))
		out = append(out, tokens[rank]...)
	}
	return out
}

// The embedded ranks are the library's tables: the same tokens with the same
// ranks, each found by its bytes, and nothing else. With -update-ranks (go
// generate) the files are written from the library instead.
func TestRanksAreTheLibrarys(t *testing.T) {
	for _, tc := range []struct {
		enc      func() *codec.Codec
		embedded string
		ranks    func() *ranks
	}{{codec.NewO200kBase, o200kRanksData, o200kRanks}, {codec.NewCl100kBase, cl100kRanksData, cl100kRanks}} {
		enc := tc.enc()
		t.Run(enc.GetName(), func(t *testing.T) {
			toks := libraryTokens(t, enc)
			want := rankLayout(toks)
			if *updateRanks {
				if err := os.WriteFile(enc.GetName()+".ranks", want, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s.ranks: %d ranks, %d bytes", enc.GetName(), len(toks), len(want))
				return
			}
			if string(want) != tc.embedded {
				t.Fatalf("%s.ranks is not the library's table (%d bytes, the library's %d): go generate ./tokens", enc.GetName(), len(tc.embedded), len(want))
			}
			r := tc.ranks()
			for rank, tok := range toks {
				if got := r.rank(tok); got != uint32(rank) {
					t.Fatalf("%q: rank %d, want %d", tok, got, rank)
				}
			}
			if got := r.rank("not a token at all, surely"); got != noRank {
				t.Fatalf("a text that is no token has rank %d", got)
			}
		})
	}
}
