// Package llmtest is a fake OpenAI-compatible Chat Completions server for tests: it
// answers from a script of replies (JSON or SSE, errors, delays, cut streams),
// records every request, and fails the test when a scripted reply was never asked for
// or an unscripted request arrives. Tests drive the real client over real HTTP.
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"fixplan/llm"
)

// Reply is one scripted reply, served in order.
type Reply struct {
	// Status is the HTTP status (0 → 200). With a non-2xx status, Body (or an
	// OpenAI-style error built from Error/Code) is sent.
	Status int `json:"status,omitempty"`
	// Content is the assistant message; it becomes a chat.completion JSON, or SSE
	// chunks when the request asked to stream.
	Content string `json:"content,omitempty"`
	// FinishReason defaults to "stop"; "length" simulates a reply cut at max tokens.
	FinishReason string `json:"finish_reason,omitempty"`
	// Body, when set, is sent verbatim (any status).
	Body string `json:"body,omitempty"`
	// Error and Code build {"error":{"message":Error,"code":Code,"type":...}}.
	Error string `json:"error,omitempty"`
	Code  string `json:"code,omitempty"`
	// Header adds response headers (e.g. Retry-After).
	Header map[string]string `json:"header,omitempty"`
	// Delay waits before replying (the request's cancellation ends it early).
	Delay time.Duration `json:"delay,omitempty"`
	// Truncate cuts an SSE stream half-way, without finish_reason or [DONE].
	Truncate bool `json:"truncate,omitempty"`
	// RejectFormat answers 400 "response_format X is not supported" when the
	// request's response_format type equals it; otherwise the reply is served.
	RejectFormat string `json:"reject_format,omitempty"`
	// Model is reported in the reply (default "fake-model").
	Model string `json:"model,omitempty"`
	// PromptTokens and CompletionTokens are the usage reported with a JSON
	// reply (0: the request's and the reply's bytes / 4).
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
	// NoUsage leaves the usage out of a JSON reply (most servers other than
	// OpenAI's report none when streaming).
	NoUsage bool `json:"no_usage,omitempty"`
	// Repeat serves Content that many times over (0 or 1 → once), generated while
	// it is written, so a test can be sent a reply of many megabytes without the
	// server holding it. The server stops writing when the client goes away.
	Repeat int `json:"repeat,omitempty"`
}

// Recorded is one request the server received.
type Recorded struct {
	Method   string
	Path     string
	Header   http.Header
	Body     []byte
	JSON     map[string]any
	Messages []llm.Message
	Stream   bool
	// ResponseFormat is the response_format type asked for ("" when absent).
	ResponseFormat string
}

// Server is the fake provider.
type Server struct {
	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	replies []Reply
	next    int
	reqs    []Recorded
	// mux, probes and models serve the model-information endpoints (window.go).
	mux    *http.ServeMux
	probes []Recorded
	models string
}

// NewServer starts a server scripted with replies. It is closed at the end of the
// test, which fails if a scripted reply was never requested.
func NewServer(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	s := &Server{t: t, replies: append([]Reply(nil), replies...), models: defaultModels}
	mux := http.NewServeMux()
	s.mux = mux
	mux.HandleFunc("/v1/chat/completions", s.chat)
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.probes = append(s.probes, recordProbe(r))
		body := s.models
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		s.srv.CloseClientConnections()
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.next < len(s.replies) {
			t.Errorf("llmtest: %d scripted repl(ies) never requested (served %d of %d)", len(s.replies)-s.next, s.next, len(s.replies))
		}
	})
	return s
}

// URL is the base URL, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close stops the server now (later requests fail to connect).
func (s *Server) Close() { s.srv.CloseClientConnections(); s.srv.Close() }

// Add appends scripted replies.
func (s *Server) Add(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// Requests returns every chat request received so far.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.reqs...)
}

// LoadReplies reads a JSON array of Reply from a testdata file. Delay is in
// nanoseconds in the file ("delay": 2000000000 = 2 s).
func LoadReplies(t testing.TB, path string) []Reply {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("llmtest: read replies: %v", err)
	}
	var out []Reply
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("llmtest: %s is not a JSON array of replies: %v", path, err)
	}
	return out
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := Recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	_ = json.Unmarshal(body, &rec.JSON)
	if rec.JSON != nil {
		rec.Stream, _ = rec.JSON["stream"].(bool)
		if rf, ok := rec.JSON["response_format"].(map[string]any); ok {
			rec.ResponseFormat, _ = rf["type"].(string)
		}
		if msgs, ok := rec.JSON["messages"].([]any); ok {
			for _, m := range msgs {
				mm, _ := m.(map[string]any)
				role, _ := mm["role"].(string)
				content, _ := mm["content"].(string)
				rec.Messages = append(rec.Messages, llm.Message{Role: llm.Role(role), Content: content})
			}
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, rec)
	if s.next >= len(s.replies) {
		n := len(s.reqs)
		s.mu.Unlock()
		s.t.Errorf("llmtest: unexpected request %d (only %d scripted)", n, len(s.replies))
		http.Error(w, `{"error":{"message":"llmtest: no scripted reply left","type":"server_error"}}`, http.StatusInternalServerError)
		return
	}
	rp := s.replies[s.next]
	s.next++
	s.mu.Unlock()

	if rp.Delay > 0 {
		select {
		case <-time.After(rp.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rp.Header {
		w.Header().Set(k, v)
	}
	if rp.RejectFormat != "" && rp.RejectFormat == rec.ResponseFormat {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"message":"response_format type %s is not supported by this model","type":"invalid_request_error","param":"response_format","code":null}}`, rp.RejectFormat)
		return
	}
	status := rp.Status
	if status == 0 {
		status = http.StatusOK
	}
	if rp.Body != "" || status >= 300 {
		body := rp.Body
		if body == "" {
			code := "null"
			if rp.Code != "" {
				code = fmt.Sprintf("%q", rp.Code)
			}
			body = fmt.Sprintf(`{"error":{"message":%q,"type":"error","param":null,"code":%s}}`, rp.Error, code)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
		return
	}
	model := rp.Model
	if model == "" {
		model = "fake-model"
	}
	finish := rp.FinishReason
	if finish == "" {
		finish = "stop"
	}
	if rec.Stream {
		s.stream(w, r, rp, model, finish)
		return
	}
	if rp.Repeat > 1 {
		repeatJSON(w, r, rp, model, finish, len(body))
		return
	}
	in, out := len(body)/4, len(rp.Content)/4
	if rp.PromptTokens > 0 || rp.CompletionTokens > 0 {
		in, out = rp.PromptTokens, rp.CompletionTokens
	}
	resp := map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": rp.Content}}},
		"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out},
	}
	if rp.NoUsage {
		delete(resp, "usage")
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// stream sends the content (Repeat times) as SSE chunks of ~16 characters. It
// stops early when the client goes away.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, rp Reply, model, finish string) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	event := func(delta map[string]any, fin any) []byte {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}})
		return []byte("data: " + string(b) + "\n\n")
	}
	send := func(b []byte) bool {
		if _, err := w.Write(b); err != nil || r.Context().Err() != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	if !send(event(map[string]any{"role": "assistant", "content": ""}, nil)) {
		return
	}
	parts := splitRunes(rp.Content, 16)
	if rp.Truncate {
		parts = parts[:len(parts)/2]
	}
	events := make([][]byte, len(parts)) // marshalled once, sent Repeat times
	for i, p := range parts {
		events[i] = event(map[string]any{"content": p}, nil)
	}
	for range max(rp.Repeat, 1) {
		for _, ev := range events {
			if !send(ev) {
				return
			}
		}
	}
	if rp.Truncate {
		return
	}
	send(event(map[string]any{}, finish))
	io.WriteString(w, "data: [DONE]\n\n")
}

// repeatJSON writes a chat.completion whose content is rp.Content repeated
// rp.Repeat times, in blocks, stopping early when the client goes away.
func repeatJSON(w http.ResponseWriter, r *http.Request, rp Reply, model, finish string, reqLen int) {
	w.Header().Set("Content-Type", "application/json")
	esc, _ := json.Marshal(rp.Content)
	esc = esc[1 : len(esc)-1] // the escaped content without its quotes
	n := len(rp.Content) * rp.Repeat
	fmt.Fprintf(w, `{"id":"chatcmpl-fake","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"finish_reason":%q,"message":{"role":"assistant","content":"`, model, finish)
	per := max(1, (32<<10)/max(1, len(esc)))
	block := bytes.Repeat(esc, per)
	for left := rp.Repeat; left > 0; left -= per {
		b := block
		if left < per {
			b = block[:left*len(esc)]
		}
		if _, err := w.Write(b); err != nil || r.Context().Err() != nil {
			return
		}
	}
	fmt.Fprintf(w, `"}}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`+"\n", reqLen/4, n/4, (reqLen+n)/4)
}

func splitRunes(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		k := n
		if k > len(r) {
			k = len(r)
		}
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}

// SystemPrompt returns the first system message of a request ("" if none).
func (r Recorded) SystemPrompt() string {
	for _, m := range r.Messages {
		if m.Role == llm.RoleSystem {
			return m.Content
		}
	}
	return ""
}

// LastUser returns the last user message of a request.
func (r Recorded) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.RoleUser {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Contains reports whether any message of the request contains s.
func (r Recorded) Contains(s string) bool {
	return strings.Contains(string(r.Body), s) || func() bool {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, s) {
				return true
			}
		}
		return false
	}()
}
