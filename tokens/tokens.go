// Package tokens counts the tokens of the text fixplan sends to a model. For
// OpenAI-family model names it uses the model's real BPE tokenizer (o200k_base or
// cl100k_base, from github.com/tiktoken-go/tokenizer, whose ranks are compiled
// into the binary: nothing is downloaded at run time); for any other model it
// estimates from the byte count. Every count says which of the two it is, so the
// user can be told when a number is an estimate.
//
// A tokenizer's ranks are built when a counter for its model is made (For), on a
// goroutine of their own (~30 ms of CPU and tens of MB for o200k_base), so the
// first count finds them ready or waits only for the rest; never at start-up:
// commands that make no counter pay nothing.
//
// A count cuts the text into the tokenizer's pieces itself (split.go: the
// library's regular-expression engine cost ~70% of a count) and looks up the
// counts of the pieces met before in this process; only new pieces go to the
// library. A plan counts its ~60 KB prompt up to four times: ~15 ms each with
// the library alone, ~2 ms once its pieces are known.
package tokens

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Tokenizer names recorded with counts.
const (
	O200k    = "o200k_base"
	Cl100k   = "cl100k_base"
	Estimate = "estimate"
)

// BytesPerToken is the ratio the estimate uses: one token per 3.2 bytes, rounded
// up. Measured on this repository's Go sources
// (tokens_test.go, TestEstimateIsConservative): cl100k_base gives 3.3 bytes per
// token on the Go sources of session/ and context/, and the tokenizers of local model families
// (Llama 3, Qwen 2.5, Mistral) have vocabularies of the same size or smaller, so
// 3.2 over-counts a little rather than overflow a small window.
const BytesPerToken = 3.2

// Counter counts tokens for one model. The zero value estimates.
type Counter struct {
	name string
	enc  func() *codec.Codec
	// split cuts a text into the pieces the tokenizer merges one by one
	// (split.go); pieces holds the counts of the pieces met so far.
	split  func(string, func(string)) bool
	pieces *pieceCounts
}

var (
	o200k        = sync.OnceValue(codec.NewO200kBase)
	cl100k       = sync.OnceValue(codec.NewCl100kBase)
	o200kPieces  = &pieceCounts{m: map[string]int{}}
	cl100kPieces = &pieceCounts{m: map[string]int{}}
)

// pieceCounts are the token counts of the pieces a tokenizer has counted in
// this process. The same pieces come back in every text (a plan counts its
// prompt up to four times, and code repeats its words): a count looks up most
// of a text's pieces instead of merging them again.
type pieceCounts struct {
	mu sync.RWMutex
	m  map[string]int
}

// maxPieces bounds pieceCounts.m (a few MB): past it the map starts over.
const maxPieces = 1 << 17

// For returns the counter for a model name as the provider knows it. A provider
// prefix ("openai/gpt-4o", OpenRouter-style) is ignored. gpt-4o, gpt-4.1, gpt-5,
// chatgpt-4o, o1, o3 and o4 models count with o200k_base; gpt-4 and gpt-3.5 with
// cl100k_base; every other name (qwen2.5-coder, llama3.1, local-model, …)
// estimates (see BytesPerToken).
func For(model string) Counter {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if m == p || strings.HasPrefix(m, p+"-") || strings.HasPrefix(m, p+":") {
				return true
			}
		}
		return false
	}
	var c Counter
	switch {
	case has("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "chatgpt-4o", "o1", "o3", "o4", "gpt-oss", "codex"),
		strings.HasPrefix(m, "gpt-5"), strings.HasPrefix(m, "ft:gpt-4o"):
		c = Counter{name: O200k, enc: o200k, split: splitO200k, pieces: o200kPieces}
	case has("gpt-4", "gpt-3.5", "gpt-35"), strings.HasPrefix(m, "ft:gpt-4"), strings.HasPrefix(m, "ft:gpt-3.5"),
		strings.HasPrefix(m, "text-embedding-3"), strings.HasPrefix(m, "text-embedding-ada-002"):
		c = Counter{name: Cl100k, enc: cl100k, split: splitCl100k, pieces: cl100kPieces}
	default:
		return Counter{}
	}
	// the ranks are built beside what comes before the first count (a base
	// context is gathered before anything is counted)
	go c.enc()
	return c
}

// Tokenizer is the name of what counts: o200k_base, cl100k_base or estimate.
func (c Counter) Tokenizer() string {
	if c.enc == nil {
		return Estimate
	}
	return c.name
}

// Estimated reports whether counts are estimates from the byte count.
func (c Counter) Estimated() bool { return c.enc == nil }

// Count returns the number of tokens of s (0 for ""). With a real tokenizer it is
// exact for the text (chat formatting adds a few tokens per message; see
// Messages); otherwise it is EstimateBytes(len(s)).
func (c Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	if c.enc == nil {
		return EstimateBytes(len(s))
	}
	if c.split != nil && utf8.ValidString(s) {
		if n, ok := c.countPieces(s); ok {
			return n
		}
	}
	return c.countWhole(s)
}

// countWhole counts s with the library alone.
func (c Counter) countWhole(s string) int {
	n, err := c.enc().Count(s)
	if err != nil { // the default error mode never fails; estimate rather than guess 0
		return EstimateBytes(len(s))
	}
	return n
}

// countPieces counts s (valid UTF-8) piece by piece: the counts of the pieces
// met before are looked up, the others counted by the library (each piece is
// one match of its pattern, so the library counts it as it would inside s).
func (c Counter) countPieces(s string) (int, bool) {
	total := 0
	var missed map[string]int
	c.pieces.mu.RLock()
	ok := c.split(s, func(p string) {
		if n, hit := c.pieces.m[p]; hit {
			total += n
			return
		}
		if missed == nil {
			missed = map[string]int{}
		}
		missed[p]++
	})
	c.pieces.mu.RUnlock()
	if !ok {
		return 0, false
	}
	if len(missed) == 0 {
		return total, true
	}
	counted := make(map[string]int, len(missed))
	for p, times := range missed {
		n := c.countWhole(p)
		counted[strings.Clone(p)] = n // not a slice of s: the map must not keep s alive
		total += n * times
	}
	c.pieces.mu.Lock()
	if len(c.pieces.m)+len(counted) > maxPieces {
		c.pieces.m = map[string]int{}
	}
	for p, n := range counted {
		c.pieces.m[p] = n
	}
	c.pieces.mu.Unlock()
	return total, true
}

// PerMessage is the chat formatting a provider adds around every message (role
// and separators): 4 tokens in OpenAI's published accounting, and about as many
// in the chat templates of local models.
const PerMessage = 4

// Messages counts a conversation: every content plus PerMessage per message and
// 3 for the reply's priming.
func (c Counter) Messages(contents ...string) int {
	n := 3
	for _, s := range contents {
		n += PerMessage + c.Count(s)
	}
	return n
}

// EstimateBytes is the estimated token count of n bytes of text: n / BytesPerToken,
// rounded up.
func EstimateBytes(n int) int {
	if n <= 0 {
		return 0
	}
	t := int(float64(n) / BytesPerToken)
	if float64(t)*BytesPerToken < float64(n) {
		t++
	}
	return t
}
