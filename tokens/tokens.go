// Package tokens counts the tokens of the text fixplan sends to a model. For
// OpenAI-family model names it counts with the model's real BPE tokenizer
// (o200k_base or cl100k_base, the ranks of github.com/tiktoken-go/tokenizer's
// tables embedded in the binary: nothing is downloaded at run time); for any
// other model it estimates from the byte count. Every count says which of the
// two it is, so the user can be told when a number is an estimate.
//
// The tokenizer is written out here rather than run from the library: the
// text is cut into the pieces the tokenizer's pattern cuts (split.go: the
// library's regular-expression engine cost ~70% of its count) and each piece's
// bytes are merged by rank (ranks.go: the library builds a map of its 200,000
// ranks when a codec is made, ~25 ms of CPU and ~30 MB; the embedded table is
// read in ~2 ms). Both are checked against the library (split_test.go,
// diff_test.go, FuzzCount): the same pieces, the same count for every text but
// those holding U+007F, which the library's engine drops uncounted and this
// package counts, as OpenAI's tokenizer does. A counter's table is read when
// the counter is made (For), on a goroutine of its own, so the first count
// finds it ready; never at start-up: commands that make no counter pay nothing.
package tokens

import (
	"strings"
	"sync"
	"unicode/utf8"
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
	name  string
	ranks func() *ranks // the tokenizer's BPE ranks (ranks.go); nil: estimate
	// split cuts a text into the pieces the tokenizer merges one by one
	// (split.go)
	split func(string, func(string))
	// recent are the counts of the last long texts counted
	recent *recentCounts
}

var o200kRecent, cl100kRecent recentCounts

// recentCounts are the counts of the last few long texts a tokenizer counted:
// a plan counts the same prompt before it is sent, to cap the reply, and for
// the record of the call; the second and third counts are a comparison.
type recentCounts struct {
	mu     sync.Mutex
	texts  [8]string
	counts [8]int
	next   int
}

// minRecent is the shortest text recentCounts keeps (shorter ones count in
// about the time a comparison takes).
const minRecent = 4 << 10

func (rc *recentCounts) get(s string) (int, bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i, t := range rc.texts {
		if t == s {
			return rc.counts[i], true
		}
	}
	return 0, false
}

func (rc *recentCounts) put(s string, n int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.texts[rc.next], rc.counts[rc.next] = s, n
	rc.next = (rc.next + 1) % len(rc.texts)
}

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
		c = Counter{name: O200k, ranks: o200kRanks, split: splitO200k, recent: &o200kRecent}
	case has("gpt-4", "gpt-3.5", "gpt-35"), strings.HasPrefix(m, "ft:gpt-4"), strings.HasPrefix(m, "ft:gpt-3.5"),
		strings.HasPrefix(m, "text-embedding-3"), strings.HasPrefix(m, "text-embedding-ada-002"):
		c = Counter{name: Cl100k, ranks: cl100kRanks, split: splitCl100k, recent: &cl100kRecent}
	default:
		return Counter{}
	}
	// the ranks' table is built beside what comes before the first count (a
	// base context is gathered before anything is counted)
	go c.ranks()
	return c
}

// Tokenizer is the name of what counts: o200k_base, cl100k_base or estimate.
func (c Counter) Tokenizer() string {
	if c.ranks == nil {
		return Estimate
	}
	return c.name
}

// Estimated reports whether counts are estimates from the byte count.
func (c Counter) Estimated() bool { return c.ranks == nil }

// Count returns the number of tokens of s (0 for ""). With a real tokenizer it is
// exact for the text (chat formatting adds a few tokens per message; see
// Messages); otherwise it is EstimateBytes(len(s)).
func (c Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	if c.ranks == nil {
		return EstimateBytes(len(s))
	}
	long := len(s) >= minRecent
	if long {
		if n, ok := c.recent.get(s); ok {
			return n
		}
	}
	text := s
	if !utf8.ValidString(text) {
		// tiktoken reads the text as characters, each invalid byte a U+FFFD
		text = string([]rune(text))
	}
	r := c.ranks()
	n := 0
	c.split(text, func(piece string) { n += r.count(piece) })
	if long {
		c.recent.put(s, n)
	}
	return n
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
