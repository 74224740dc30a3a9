package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"fixplan/llm"
	"fixplan/llm/llmtest"
)

const testKey = "sk-test-SECRET-0123456789abcdef"

var schema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["ok"],"properties":{"ok":{"type":"boolean"}}}`)

type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func newClient(t *testing.T, srv *llmtest.Server, mod func(*Config)) (*Client, *waits) {
	t.Helper()
	w := &waits{}
	cfg := Config{BaseURL: srv.URL(), Model: "fake-model", APIKey: testKey, Timeout: 2 * time.Second,
		MaxRetries: 3, Sleep: w.sleep, Jitter: func() float64 { return 1 }}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, w
}

func request() llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: "be brief"}, {Role: llm.RoleUser, Content: "hello"}},
		Schema: schema, SchemaName: "fix_plan"}
}

func TestCompleteSendsStrictSchemaAndTemperatureZero(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Reply{Content: `{"ok":true}`})
	c, _ := newClient(t, srv, func(c *Config) { c.MaxTokens = 512 })
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != `{"ok":true}` || resp.Format != llm.FormatJSONSchema || resp.Attempts != 1 {
		t.Fatalf("resp = %+v", resp)
	}
	r := srv.Requests()[0]
	rf := r.JSON["response_format"].(map[string]any)
	js := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["strict"] != true || js["name"] != "fix_plan" {
		t.Errorf("response_format = %v", rf)
	}
	got, _ := json.Marshal(js["schema"])
	var want any
	json.Unmarshal(schema, &want)
	wantB, _ := json.Marshal(want)
	if string(got) != string(wantB) {
		t.Errorf("schema on the wire = %s", got)
	}
	if !strings.Contains(string(r.Body), `"temperature":0`) {
		t.Errorf("temperature 0 not on the wire: %s", r.Body)
	}
	if r.JSON["max_tokens"] != float64(512) {
		t.Errorf("max_tokens = %v", r.JSON["max_tokens"])
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("authorization header = %q", r.Header.Get("Authorization"))
	}
	if len(r.Messages) != 2 || r.Messages[1].Content != "hello" {
		t.Errorf("messages = %+v", r.Messages)
	}
}

func TestStreamingReportsProgress(t *testing.T) {
	content := `{"ok":true,"padding":"` + strings.Repeat("x", 100) + `"}`
	srv := llmtest.NewServer(t, llmtest.Reply{Content: content})
	c, _ := newClient(t, srv, func(c *Config) { c.Stream = true })
	var progress []llm.Progress
	req := request()
	req.OnProgress = func(p llm.Progress) { progress = append(progress, p) }
	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != content || resp.FinishReason != "stop" {
		t.Fatalf("resp = %+v", resp)
	}
	if len(progress) < 5 || progress[len(progress)-1].Chars != len(content) || !srv.Requests()[0].Stream {
		t.Fatalf("progress = %+v", progress)
	}
}

func TestRetriesAndErrors(t *testing.T) {
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		mod      func(*Config)
		kind     llm.Kind
		attempts int
		waits    []time.Duration
	}{
		{name: "429 then success honours Retry-After", replies: []llmtest.Reply{
			{Status: 429, Error: "slow down", Header: map[string]string{"Retry-After": "7"}}, {Content: `{"ok":true}`}},
			attempts: 2, waits: []time.Duration{7 * time.Second}},
		{name: "500 then 502 then success backs off exponentially", replies: []llmtest.Reply{
			{Status: 500, Error: "boom"}, {Status: 502, Body: "<html>bad gateway</html>"}, {Content: `{"ok":true}`}},
			attempts: 3, waits: []time.Duration{500 * time.Millisecond, time.Second}},
		{name: "500 forever stops after max retries", replies: []llmtest.Reply{
			{Status: 500, Error: "boom"}, {Status: 500, Error: "boom"}, {Status: 500, Error: "boom"}, {Status: 500, Error: "boom"}},
			kind: llm.KindUnavailable, attempts: 4, waits: []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}},
		{name: "429 forever is a rate limit", replies: []llmtest.Reply{{Status: 429, Error: "slow"}, {Status: 429, Error: "slow"}},
			mod: func(c *Config) { c.MaxRetries = 1 }, kind: llm.KindRateLimit, attempts: 2, waits: []time.Duration{500 * time.Millisecond}},
		{name: "400 is not retried", replies: []llmtest.Reply{{Status: 400, Error: "model 'nope' does not exist"}},
			kind: llm.KindBadRequest, attempts: 1},
		{name: "401 is auth", replies: []llmtest.Reply{{Status: 401, Error: "Incorrect API key provided: " + testKey}},
			kind: llm.KindAuth, attempts: 1},
		{name: "insufficient_quota is not retried", replies: []llmtest.Reply{{Status: 429, Error: "You exceeded your current quota", Code: "insufficient_quota"}},
			kind: llm.KindQuota, attempts: 1},
		{name: "timeout per attempt, retried", replies: []llmtest.Reply{{Delay: 3 * time.Second, Content: "late"}, {Content: `{"ok":true}`}},
			mod: func(c *Config) { c.Timeout = 200 * time.Millisecond }, attempts: 2, waits: []time.Duration{500 * time.Millisecond}},
		{name: "timeout forever", replies: []llmtest.Reply{{Delay: 3 * time.Second}, {Delay: 3 * time.Second}},
			mod: func(c *Config) { c.Timeout = 200 * time.Millisecond; c.MaxRetries = 1 }, kind: llm.KindTimeout, attempts: 2, waits: []time.Duration{500 * time.Millisecond}},
		{name: "finish_reason length is truncated", replies: []llmtest.Reply{{Content: `{"ok":tr`, FinishReason: "length"}},
			kind: llm.KindTruncated, attempts: 1},
		{name: "cut stream is truncated", replies: []llmtest.Reply{{Content: `{"ok":true,"padding":"` + strings.Repeat("y", 80) + `"}`, Truncate: true}},
			mod: func(c *Config) { c.Stream = true }, kind: llm.KindTruncated, attempts: 1},
		{name: "stream with 503 then success", replies: []llmtest.Reply{{Status: 503, Error: "overloaded"}, {Content: `{"ok":true}`}},
			mod: func(c *Config) { c.Stream = true }, attempts: 2, waits: []time.Duration{500 * time.Millisecond}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.replies...)
			c, w := newClient(t, srv, tc.mod)
			resp, err := c.Complete(context.Background(), request())
			if tc.kind == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if resp.Attempts != tc.attempts || resp.Content != `{"ok":true}` {
					t.Fatalf("resp = %+v", resp)
				}
			} else {
				var le *llm.Error
				if !asLLM(err, &le) || le.Kind != tc.kind {
					t.Fatalf("err = %v, want kind %s", err, tc.kind)
				}
				if le.Attempts != tc.attempts {
					t.Errorf("attempts = %d, want %d", le.Attempts, tc.attempts)
				}
				if strings.Contains(err.Error(), testKey) {
					t.Errorf("the API key leaked into the error: %v", err)
				}
			}
			if len(srv.Requests()) != tc.attempts {
				t.Errorf("server saw %d requests, want %d", len(srv.Requests()), tc.attempts)
			}
			if len(w.d) != len(tc.waits) {
				t.Fatalf("waits = %v, want %v", w.d, tc.waits)
			}
			for i := range w.d {
				if w.d[i] != tc.waits[i] {
					t.Errorf("wait %d = %v, want %v", i, w.d[i], tc.waits[i])
				}
			}
		})
	}
}

func asLLM(err error, le **llm.Error) bool {
	e, ok := err.(*llm.Error)
	if ok {
		*le = e
	}
	return ok
}

func TestFormatFallbackIsRemembered(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Reply{RejectFormat: "json_schema", Content: "unused"},
		llmtest.Reply{Content: `{"ok":true}`},
		llmtest.Reply{Content: `{"ok":true}`},
	)
	c, w := newClient(t, srv, nil)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Format != llm.FormatJSONObject || len(w.d) != 0 {
		t.Fatalf("format = %s waits %v", resp.Format, w.d)
	}
	if _, err := c.Complete(context.Background(), request()); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if reqs[0].ResponseFormat != "json_schema" || reqs[1].ResponseFormat != "json_object" || reqs[2].ResponseFormat != "json_object" {
		t.Fatalf("formats = %s, %s, %s", reqs[0].ResponseFormat, reqs[1].ResponseFormat, reqs[2].ResponseFormat)
	}
	if !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, `"additionalProperties":false`) {
		t.Errorf("json_object request does not carry the schema in the prompt")
	}
}

func TestFallbackDownToText(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Reply{RejectFormat: "json_schema"},
		llmtest.Reply{RejectFormat: "json_object"},
		llmtest.Reply{Content: `{"ok":true}`},
	)
	c, _ := newClient(t, srv, nil)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Format != llm.FormatText || srv.Requests()[2].ResponseFormat != "" {
		t.Fatalf("format = %s, last request format %q", resp.Format, srv.Requests()[2].ResponseFormat)
	}
}

func TestCancelStopsAtOnce(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Reply{Delay: 5 * time.Second})
	c, w := newClient(t, srv, func(c *Config) { c.Timeout = 10 * time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(srv.Requests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	_, err := c.Complete(ctx, request())
	if llm.KindOf(err) != llm.KindCancelled || len(w.d) != 0 {
		t.Fatalf("err = %v waits = %v", err, w.d)
	}
}

func TestConnectionRefused(t *testing.T) {
	srv := llmtest.NewServer(t)
	url := srv.URL()
	srv.Close()
	c, err := New(Config{BaseURL: url, Model: "m", MaxRetries: 1, Sleep: (&waits{}).sleep})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), request())
	if llm.KindOf(err) != llm.KindUnavailable || !strings.Contains(err.Error(), "after 2 attempts") {
		t.Fatalf("err = %v", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{{BaseURL: "ftp://x", Model: "m"}, {BaseURL: "http://127.0.0.1:1/v1"}, {BaseURL: "", Model: "m"}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		v    string
		want time.Duration
	}{
		{"", 0}, {"3", 3 * time.Second}, {"0.5", 500 * time.Millisecond}, {"9999", maxRetryAfter},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second}, {"soon", 0}, {"-4", 0},
	}
	for _, tc := range tests {
		if got := parseRetryAfter(tc.v, now); got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
