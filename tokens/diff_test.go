package tokens

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer/codec"
)

// The counts are checked against the library's over texts made to break
// them: every code point in the contexts the patterns tell apart, runs of
// digits and whitespace of every mix, contractions, invalid UTF-8, long
// lines and random texts; and, with -tags tokensdiff and -mirrors, over the files of git repositories (diff_external_test.go).

// encoding is one tokenizer as the library and as this package count it.
type encoding struct {
	name    string
	model   string
	lib     *codec.Codec
	re      *regexp2.Regexp
	split   func(string, func(string))
	counter Counter
}

var encodings = sync.OnceValue(func() []*encoding {
	return []*encoding{
		{O200k, "gpt-4o", codec.NewO200kBase(), regexp2.MustCompile(o200kPattern, regexp2.None), splitO200k, For("gpt-4o")},
		{Cl100k, "gpt-4", codec.NewCl100kBase(), regexp2.MustCompile(cl100kPattern, regexp2.None), splitCl100k, For("gpt-4")},
	}
})

// mismatch is how our count of s differs from the library's, "" when it does
// not: the counts, and the first piece cut or counted differently.
func (e *encoding) mismatch(s string) string {
	want, err := e.reference(s)
	if err != nil {
		return fmt.Sprintf("the library fails: %v", err)
	}
	got := e.counter.Count(s)
	if got == want {
		return ""
	}
	text := s
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	var wantP []string
	m, _ := e.re.FindStringMatch(strings.ReplaceAll(text, "\x7f", "\x1f"))
	for ; m != nil; m, _ = e.re.FindNextMatch(m) {
		wantP = append(wantP, m.String())
	}
	gotP := ourPieces(e.split, strings.ReplaceAll(text, "\x7f", "\x1f"))
	i := 0
	for i < min(len(gotP), len(wantP)) && gotP[i] == wantP[i] {
		i++
	}
	if i < len(gotP) || i < len(wantP) {
		return fmt.Sprintf("%s: %d tokens, the library %d; pieces differ at %d: got %q, want %q", e.name, got, want, i,
			gotP[i:min(len(gotP), i+3)], wantP[i:min(len(wantP), i+3)])
	}
	for _, p := range gotP {
		ours := e.counter.ranks().count(p)
		theirs, _ := e.lib.Count(p)
		if ours != theirs {
			return fmt.Sprintf("%s: %d tokens, the library %d; piece %q merges into %d, the library's %d", e.name, got, want, clipQ(p), ours, theirs)
		}
	}
	return fmt.Sprintf("%s: %d tokens, the library %d; the same pieces, each counted the same", e.name, got, want)
}

// reference is the library's count of s, but for U+007F (DEL), which the
// library's generated engine leaves out of [^\r\n\p{L}\p{N}] and
// [^\s\p{L}\p{N}] (its ASCII bitmaps stop at 126), so that no alternative
// matches it and the character is dropped, uncounted: OpenAI's tokenizer
// counts it as the patterns say (TestCountOracle), and so does Count. A text
// holding DEL is cut by the library's engine with each DEL read as U+001F,
// a control character of the same classes, and its pieces are merged by a
// plain byte-pair merge over the library's ranks.
func (e *encoding) reference(s string) (int, error) {
	if !strings.Contains(s, "\x7f") {
		return e.lib.Count(s)
	}
	text := s
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	stand := strings.ReplaceAll(text, "\x7f", "\x1f")
	n, at := 0, 0
	m, err := e.re.FindStringMatch(stand)
	for ; m != nil && err == nil; m, err = e.re.FindNextMatch(m) {
		p := m.String()
		if !strings.HasPrefix(stand[at:], p) {
			return 0, fmt.Errorf("the library's engine skips %q", stand[at:at+1])
		}
		n += plainMerge(e.counter.ranks(), text[at:at+len(p)])
		at += len(p)
	}
	return n, err
}

// plainMerge is byte-pair encoding as its definition says: while two
// neighbouring parts make a token, merge the leftmost pair of the lowest
// rank; the number of parts left.
func plainMerge(r *ranks, piece string) int {
	bounds := make([]int, 0, len(piece)+1)
	for i := range len(piece) + 1 {
		bounds = append(bounds, i)
	}
	for {
		best, at := uint32(noRank), -1
		for i := 0; i+2 < len(bounds); i++ {
			if rk := r.rank(piece[bounds[i]:bounds[i+2]]); rk < best {
				best, at = rk, i
			}
		}
		if at < 0 {
			return len(bounds) - 1
		}
		bounds = slices.Delete(bounds, at+1, at+2)
	}
}

// checkAll reports every text whose count differs from the library's, in
// either encoding (the first few in full).
func checkAll(t *testing.T, texts []string) {
	t.Helper()
	bad := 0
	for _, e := range encodings() {
		for _, s := range texts {
			if msg := e.mismatch(s); msg != "" {
				bad++
				if bad <= 8 {
					t.Errorf("%q: %s", clipQ(s), msg)
				}
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d texts counted differently", bad, 2*len(texts))
	}
}

var allCodePoints = flag.Bool("all-code-points", false, "TestCountEveryCodePoint counts every code point in every context (~1.5 min)")

// Every code point, in the contexts the patterns tell apart (alone, after and
// before letters of both cases, after a space, a digit, a newline, an
// apostrophe), counts as the library counts it.
func TestCountEveryCodePoint(t *testing.T) {
	contexts := []struct{ before, after string }{
		{"", ""}, {"a", ""}, {"", "a"}, {"A", "a"}, {"a", "A"}, {" ", ""}, {" ", "a"}, {"'", "s"}, {"", "'s "},
		{"1", "2"}, {"\n", " "}, {" ", "\n"}, {"  ", "x"}, {"x'", ""}, {"!", "!"}, {"/", "\n"},
		{"a'r", ""}, {"A'l", "x"}, {"'", "e"},
	}
	var texts []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			texts = append(texts, b.String())
			b.Reset()
		}
	}
	// every code point in one of the contexts (the k-th context from k on,
	// every 16th); with -all-code-points, every one in every context
	step, offset := len(contexts), 1
	if *allCodePoints {
		step, offset = 1, 0
	} else if testing.Short() {
		step = 97
	}
	for k, ctx := range contexts {
		for r := rune(k * offset); r <= utf8.MaxRune; r += rune(step) {
			if !utf8.ValidRune(r) {
				continue
			}
			b.WriteString(ctx.before)
			b.WriteRune(r)
			b.WriteString(ctx.after)
			if b.Len() >= 1<<10 {
				flush()
			}
		}
		flush()
	}
	checkAll(t, texts)
}

// adversarialTexts are the texts tokenizers are known to cut wrongly, with
// every mix of up to mix whitespace characters.
func adversarialTexts(mix int) []string {
	var texts []string
	add := func(s ...string) { texts = append(texts, s...) }
	// scripts, marks, emoji, right-to-left
	add("Ünïcödé naïve façade Ærøskøbing", "Ελληνικά ΚΕΦΑΛΑΙΑ", "Кириллица ПРОПИСНЫЕ ёЁ",
		"עברית עם ניקוד: שָׁלוֹם", "العربية: مَرْحَبًا بالعالم ١٢٣٤٥", "हिन्दी देवनागरी क्षत्रिय", "ภาษาไทย ไม่มีช่องว่าง",
		"中文字符，全角标点。日本語のかな カタカナ ｶﾀｶﾅ", "한국어 한글 ᄀᄁ", "ሰላም ዓለም", "ᚠᛇᚻ᛫ᛒᛦᚦ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝐀𝐁𝐂 𝟏𝟐𝟑",
		"Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇", "e\u0301\u0301\u0301 E\u0301 \u0301\u0301", "👨‍👩‍👧‍👦 👍🏽 🏳️‍🌈 🇫🇷🇩🇪 ❤️ 1️⃣",
		"\u202eevil\u202c \u200f\u200e\u2066x\u2069", "\ufeffBOM", "ǅungla ǈ ǋ ᾈ", "ʰʲʷ ˢ ᵃᵇ", "ǀǁǂǃ", "Ⅰ Ⅱ Ⅻ ⅻ ① ⑴ ¼ ²³",
		"\uffff\ufffe\U0010FFFF\U000E0001", "\u00ad soft\u00adhyphen", "tab\u000bvt\u000cff\u001cfs\u0085nel")
	// digit runs of every length, alone and between letters and spaces
	for n := 1; n <= 20; n++ {
		d := strings.Repeat("1234567890", 2)[:n]
		add(d, "x"+d+"y", " "+d+" ", "v"+d+".0", "٣"+strings.Repeat("٤", n), strings.Repeat("½", n), d+"ab"+d)
	}
	// contractions in every case, straight and curly, after every kind of character
	for _, c := range []string{"s", "t", "re", "ve", "m", "ll", "d"} {
		for _, v := range []string{c, strings.ToUpper(c), strings.ToUpper(c[:1]) + c[1:]} {
			for _, q := range []string{"'", "’", "‘", "ʼ"} {
				add("it"+q+v, "IT"+q+v, q+v, " "+q+v, "1"+q+v, "é"+q+v+"x", q+v+q+v, "x "+q+v+" y", "\n"+q+v)
			}
		}
	}
	add("'ſ", "it'ſ", "'K", "'\u212a", "'ll've", "''s", "'s's", "y'all'd've")
	// whitespace: every mix of up to five of space, tab, \n, \r\n, \r, between and after words
	ws := []string{" ", "\t", "\n", "\r\n", "\r", "\u00a0"}
	var mixes func(prefix string, n int)
	mixes = func(prefix string, n int) {
		if prefix != "" {
			add(prefix, "a"+prefix, prefix+"b", "a"+prefix+"b", "a."+prefix+"1", "}"+prefix+"//")
		}
		if n == 0 {
			return
		}
		for _, w := range ws {
			mixes(prefix+w, n-1)
		}
	}
	mixes("", mix)
	add("line  \nline\t\n  \n\n   \r\n\t\tx   ", strings.Repeat(" ", 100)+"\n", strings.Repeat("\n", 100), strings.Repeat("\r\n", 50)+"x")
	// invalid UTF-8 and NUL bytes
	add("\x7f", "a\x7fb", " \x7f", "\x7f\x7f\x7f", "x\x7f\n", "'\x7fs", "\x7f's", "1\x7f2", "\x7fA", "\x7f\x7fé")
	add("\xff", "\xfe\xff", "a\xffb", "\xc3", "\xc3(", "\xe2\x82", "\xe2\x82\x28", "\xed\xa0\x80", "\xf0\x90\x80", "\xf4\x90\x80\x80",
		"\xc0\xaf", "\x80\x80\x80", "ok \xe2\x82 cut 's \xff's", "\x00", "a\x00b", strings.Repeat("\x00", 300), "\x00\xff\x00 ")
	// long words and lines
	add(strings.Repeat("a", 5000), strings.Repeat("Ab", 3000), strings.Repeat("é", 3000), strings.Repeat("日本", 2000),
		strings.Repeat("-", 9000), strings.Repeat("/", 3000)+"\n", strings.Repeat("0", 5000), "Supercalifragilisticexpialidocious"+strings.Repeat("ness", 500),
		strings.Repeat("QUJDRGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo0NTY3ODk=", 300))
	return texts
}

func TestCountAdversarialTexts(t *testing.T) {
	checkAll(t, adversarialTexts(5))
}

// A single line of a megabyte (a minified file, a base64 blob) counts as the
// library counts it.
func TestCountMegabyteLine(t *testing.T) {
	if testing.Short() {
		t.Skip("a megabyte through the library's engine takes seconds")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(randomText(rng, 1+rng.IntN(12)))
		b.WriteString([]string{"x", "é", "=", "0", ";", " "}[rng.IntN(6)])
	}
	line := strings.NewReplacer("\n", "", "\r", "", "\u2028", "").Replace(b.String())
	checkAll(t, []string{line, strings.Repeat("ab1;", 1<<18)})
}

// Random texts of the tricky characters, longer than split_test's.
func TestCountRandomTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	texts := make([]string, n)
	for i := range texts {
		texts[i] = randomText(rng, 1+rng.IntN(64))
		if rng.IntN(8) == 0 { // a few invalid bytes
			bs := []byte(texts[i])
			bs[rng.IntN(len(bs))] = byte(rng.IntN(256))
			texts[i] = string(bs)
		}
	}
	checkAll(t, texts)
}

// The counts remembered are those of the texts counted: the same text twice,
// texts differing in one byte (the first, a middle and the last), and many
// goroutines counting the same and different long texts at once (go test
// -race).
func TestCountRememberedIsTheTextsCount(t *testing.T) {
	base := strings.Repeat("func f(x int) error { return fmt.Errorf(\"x=%d\", x) }\n", 200)
	var texts []string
	for _, i := range []int{0, len(base) / 2, len(base) - 1} {
		for _, c := range []byte{' ', 'Z', '\n', 0xff} {
			b := []byte(base)
			b[i] = c
			texts = append(texts, string(b))
		}
	}
	texts = append(texts, base, base+" ", base[1:], base[:len(base)-1])
	for _, e := range encodings() {
		want := make([]int, len(texts))
		for i, s := range texts {
			want[i], _ = e.lib.Count(s)
		}
		for round := range 2 {
			for i, s := range texts {
				if got := e.counter.Count(s); got != want[i] {
					t.Fatalf("%s round %d: text %d counts %d, the library %d", e.name, round, i, got, want[i])
				}
			}
		}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 32 {
			wg.Go(func() {
				for k := range 40 {
					i := (g*7 + k*3) % len(texts)
					c := For(e.model) // counters of one tokenizer share what they remember
					if got := c.Count(texts[i]); got != want[i] {
						errs <- fmt.Sprintf("%s goroutine %d: text %d counts %d, the library %d", e.name, g, i, got, want[i])
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for msg := range errs {
			t.Error(msg)
		}
	}
}
