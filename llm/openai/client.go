// Package openai is fixplan's adapter to any OpenAI-compatible Chat Completions
// endpoint (OpenAI, Azure, Ollama, LM Studio, llama.cpp server, vLLM, OpenRouter)
// through sashabaranov/go-openai. It is the only importer of go-openai: requests and
// errors cross its boundary as fixplan/llm types. It asks for strict json_schema
// output and falls back to json_object, then plain text, for providers that reject
// it (remembered per provider); retries transient failures with backoff and jitter
// honouring Retry-After; streams with progress callbacks; and sends temperature 0.
package openai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"fixplan/llm"
)

// Config configures a Client.
type Config struct {
	BaseURL string // e.g. https://api.openai.com/v1
	Model   string
	APIKey  string // may be empty for local servers
	// Timeout bounds each attempt (0 → 120 s).
	Timeout time.Duration
	// MaxTokens caps the reply (0 → not sent).
	MaxTokens int
	// MaxRetries is how many times a transient failure is retried (negative → 0).
	MaxRetries int
	// Stream asks for a streamed reply and reports progress.
	Stream bool
	// Sleep waits between retries (nil → a timer that honours ctx). Tests record waits.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a factor in [0.5, 1) applied to backoff waits (nil → random).
	Jitter func() float64
	// MaxReplyBytes caps the bytes of one reply as they arrive (the HTTP body after
	// decompression, streamed or not; 0 → DefaultMaxReplyBytes, 4 MiB). A bigger
	// reply is stopped at the cap and fails with a *ReplyTooLargeError, not retried.
	MaxReplyBytes int64
}

// Backoff bounds.
const (
	baseBackoff   = 500 * time.Millisecond
	maxBackoff    = 20 * time.Second
	maxRetryAfter = 60 * time.Second
)

// Client talks to one provider. It is safe for concurrent use.
type Client struct {
	cfg    Config
	api    *goopenai.Client
	mu     sync.Mutex
	format map[string]llm.Format // provider+model → the strongest format that worked
	// windows caches the context window the server serves (window.go).
	windows windowCache
}

var _ llm.Client = (*Client)(nil)

// New checks cfg and returns a Client. It fails when the base URL is not http(s)
// or the model is empty.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("new openai client: base URL %q is not an http(s) URL", cfg.BaseURL)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("new openai client: the model name is empty")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 120 * time.Second
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	if cfg.Jitter == nil {
		cfg.Jitter = func() float64 { return 0.5 + rand.Float64()/2 }
	}
	if cfg.MaxReplyBytes <= 0 {
		cfg.MaxReplyBytes = DefaultMaxReplyBytes
	}
	oc := goopenai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = &http.Client{Transport: &transport{base: http.DefaultTransport, maxReply: cfg.MaxReplyBytes},
		CheckRedirect: sameOriginOnly(u)} // the key goes to the base URL's origin only (redirect.go)
	return &Client{cfg: cfg, api: goopenai.NewClientWithConfig(oc), format: map[string]llm.Format{}}, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Client) providerKey() string { return c.cfg.BaseURL + "|" + c.cfg.Model }

// startFormat is the format to try first for this provider.
func (c *Client) startFormat(req llm.Request) llm.Format {
	if len(req.Schema) == 0 {
		return llm.FormatText
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.format[c.providerKey()]; ok {
		return f
	}
	return llm.FormatJSONSchema
}

func (c *Client) remember(f llm.Format) {
	c.mu.Lock()
	c.format[c.providerKey()] = f
	c.mu.Unlock()
}

func weaker(f llm.Format) (llm.Format, bool) {
	switch f {
	case llm.FormatJSONSchema:
		return llm.FormatJSONObject, true
	case llm.FormatJSONObject:
		return llm.FormatText, true
	}
	return "", false
}

// Complete sends req, retrying transient failures up to MaxRetries times and
// falling back to a weaker response format when the provider rejects one. Errors
// are *llm.Error; none contains the API key.
func (c *Client) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	start := time.Now()
	f := c.startFormat(req)
	attempts := 0
	retries := 0
	for {
		attempts++
		resp, err := c.attempt(ctx, req, f, attempts)
		if err == nil {
			if len(req.Schema) > 0 {
				c.remember(f)
			}
			resp.Attempts, resp.Duration, resp.Format = attempts, time.Since(start), f
			return resp, nil
		}
		le := c.classify(ctx, err)
		le.Attempts = attempts
		if tooLarge(le) { // the same request would stream the same flood again
			return llm.Response{Attempts: attempts}, le
		}
		if le.Kind == llm.KindTruncated {
			resp.Attempts, resp.Duration, resp.Format = attempts, time.Since(start), f
			return resp, le
		}
		if le.Kind == llm.KindBadRequest && rejectsFormat(le.Message) {
			if next, ok := weaker(f); ok && len(req.Schema) > 0 {
				f = next
				c.remember(f)
				continue
			}
		}
		if !retryable(le.Kind) || retries >= c.cfg.MaxRetries || (req.MaxAttempts > 0 && attempts >= req.MaxAttempts) {
			if le.Kind == llm.KindUnavailable && le.StatusCode == http.StatusTooManyRequests {
				le.Kind = llm.KindRateLimit
			}
			return llm.Response{Attempts: attempts}, le
		}
		retries++
		wait := c.backoff(retries)
		if ra := retryAfter(err); ra > 0 {
			wait = ra
		}
		if serr := c.cfg.Sleep(ctx, wait); serr != nil {
			return llm.Response{Attempts: attempts}, &llm.Error{Kind: llm.KindCancelled, Message: "cancelled while waiting to retry", Attempts: attempts, Err: serr}
		}
	}
}

func (c *Client) backoff(retry int) time.Duration {
	d := baseBackoff << (retry - 1)
	if d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	return time.Duration(float64(d) * c.cfg.Jitter())
}

func retryable(k llm.Kind) bool {
	return k == llm.KindRateLimit || k == llm.KindUnavailable || k == llm.KindTimeout
}

// rejectsFormat recognises a provider refusing response_format (OpenAI, vLLM,
// llama.cpp, LM Studio and Ollama word it differently).
func rejectsFormat(msg string) bool {
	m := strings.ToLower(msg)
	if !(strings.Contains(m, "response_format") || strings.Contains(m, "json_schema") || strings.Contains(m, "json_object") ||
		strings.Contains(m, "response format") || strings.Contains(m, "structured output")) {
		return false
	}
	for _, w := range []string{"not supported", "unsupported", "not support", "invalid", "unknown", "not allowed", "must be", "not available"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}
