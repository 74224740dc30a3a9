package tokens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestForPicksTheModelsTokenizer(t *testing.T) {
	for _, tc := range []struct{ model, want string }{
		{"gpt-4o-mini", O200k},
		{"gpt-4o", O200k},
		{"openai/gpt-4.1-mini", O200k},
		{"GPT-5", O200k},
		{"o3-mini", O200k},
		{"gpt-4-turbo", Cl100k},
		{"gpt-3.5-turbo", Cl100k},
		{"qwen2.5-coder:7b", Estimate},
		{"llama3.1", Estimate},
		{"local-model", Estimate},
		{"", Estimate},
		{"o1x-custom", Estimate},
	} {
		t.Run(tc.model, func(t *testing.T) {
			c := For(tc.model)
			if got := c.Tokenizer(); got != tc.want {
				t.Fatalf("For(%q).Tokenizer() = %s, want %s", tc.model, got, tc.want)
			}
			if c.Estimated() != (tc.want == Estimate) {
				t.Fatalf("Estimated() = %v for %s", c.Estimated(), tc.want)
			}
		})
	}
}

// The counts of the real tokenizers are tiktoken's for the same text.
func TestCountMatchesTiktoken(t *testing.T) {
	for _, tc := range []struct {
		model, text string
		want        int
	}{
		{"gpt-4o", "hello world", 2},
		{"gpt-4", "hello world", 2},
		{"gpt-4o", "", 0},
	} {
		if got := For(tc.model).Count(tc.text); got != tc.want {
			t.Errorf("For(%q).Count(%q) = %d, want %d", tc.model, tc.text, got, tc.want)
		}
	}
}

func TestEstimateRoundsUp(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{0, 0}, {1, 1}, {3, 1}, {4, 2}, {32, 10}, {33, 11}, {3200, 1000}} {
		if got := EstimateBytes(tc.n); got != tc.want {
			t.Errorf("EstimateBytes(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	if got := For("llama3").Count(strings.Repeat("x", 320)); got != 100 {
		t.Errorf("estimate of 320 bytes = %d, want 100", got)
	}
}

// The estimate must not under-count code: a small window would overflow. It is
// compared with cl100k_base on this repository's own sources.
func TestEstimateIsConservative(t *testing.T) {
	files, _ := filepath.Glob("../session/*.go")
	more, _ := filepath.Glob("../context/*.go")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("expected the repository's sources next to this package, found %d files", len(files))
	}
	real, est, bytes := 0, 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		real += For("gpt-4").Count(string(b))
		est += For("llama3").Count(string(b))
		bytes += len(b)
	}
	t.Logf("%d bytes: cl100k %d tokens (%.2f bytes/token), estimate %d", bytes, real, float64(bytes)/float64(real), est)
	if est < real {
		t.Fatalf("the estimate (%d) under-counts cl100k_base (%d) on Go code", est, real)
	}
}

// BenchmarkCount100KB is the tokenizer's cost per 100 KB of Go code (the ranks are
// built before the timer starts; the text is one not counted just before).
func BenchmarkCount100KB(b *testing.B) {
	var sb strings.Builder
	files, _ := filepath.Glob("../session/*.go")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		sb.Write(data)
		if sb.Len() >= 100<<10 {
			break
		}
	}
	text := sb.String()[:100<<10]
	for _, model := range []string{"gpt-4o", "gpt-4", "llama3"} {
		c := For(model)
		c.Count("warm up")
		b.Run(c.Tokenizer(), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			i := 0
			for b.Loop() {
				// a text not counted just before (Count remembers the last few)
				i++
				c.Count(text[i%64:])
			}
		})
	}
}

// A long text counted again is looked up, and a text of the same length that
// differs is counted, not taken for it.
func TestCountRemembersRecentLongTexts(t *testing.T) {
	c := For("gpt-4o")
	a := strings.Repeat("func main() { fmt.Println(\"hi\") }\n", 200)
	b := a[:len(a)-2] + "x\n"
	n := c.Count(a)
	if got, ok := c.recent.get(a); !ok || got != n {
		t.Fatalf("a long text counted is not remembered: %d, %v", got, ok)
	}
	if again := c.Count(a); again != n {
		t.Fatalf("counted again: %d, first %d", again, n)
	}
	if _, ok := c.recent.get(b); ok {
		t.Fatal("a text never counted is remembered")
	}
	want := 0
	c.split(b, func(p string) { want += c.ranks().count(p) })
	if nb := c.Count(b); nb != want {
		t.Fatalf("a text that differs in its last line counts %d, its pieces %d", nb, want)
	}
	if _, ok := c.recent.get("short"); ok || c.Count("short") != 1 {
		t.Fatal("a short text is remembered")
	}
}
