package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"fixplan/llm"
)

// jsonObjectNote is added for providers that only support json_object: the schema
// travels in the prompt instead.
const jsonObjectNote = "Answer with ONE JSON object that validates against this JSON schema, and nothing else:\n"

func (c *Client) request(req llm.Request, f llm.Format) goopenai.ChatCompletionRequest {
	msgs := make([]goopenai.ChatCompletionMessage, 0, len(req.Messages)+1)
	for _, m := range req.Messages {
		msgs = append(msgs, goopenai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content})
	}
	out := goopenai.ChatCompletionRequest{Model: c.cfg.Model, Stream: c.cfg.Stream}
	maxTok := req.MaxTokens
	if maxTok == 0 {
		maxTok = c.cfg.MaxTokens
	}
	out.MaxTokens = maxTok
	switch f {
	case llm.FormatJSONSchema:
		out.ResponseFormat = &goopenai.ChatCompletionResponseFormat{
			Type: goopenai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &goopenai.ChatCompletionResponseFormatJSONSchema{
				Name: schemaName(req), Schema: req.Schema, Strict: true,
			},
		}
	case llm.FormatJSONObject:
		out.ResponseFormat = &goopenai.ChatCompletionResponseFormat{Type: goopenai.ChatCompletionResponseFormatTypeJSONObject}
		msgs = append(msgs, goopenai.ChatCompletionMessage{Role: "system", Content: jsonObjectNote + string(req.Schema)})
	case llm.FormatText:
		if len(req.Schema) > 0 {
			msgs = append(msgs, goopenai.ChatCompletionMessage{Role: "system", Content: jsonObjectNote + string(req.Schema)})
		}
	}
	out.Messages = msgs
	return out
}

func schemaName(req llm.Request) string {
	if req.SchemaName != "" {
		return req.SchemaName
	}
	return "response"
}

// holder carries per-attempt response facts from the transport back to Complete.
type holder struct {
	retryAfter time.Duration
}

type holderKey struct{}

// attemptError wraps a failed attempt with what the transport saw.
type attemptError struct {
	err        error
	retryAfter time.Duration
	timedOut   bool // the attempt's own deadline passed
}

func (e *attemptError) Error() string { return e.err.Error() }
func (e *attemptError) Unwrap() error { return e.err }

func retryAfter(err error) time.Duration {
	var ae *attemptError
	if errors.As(err, &ae) {
		return ae.retryAfter
	}
	return 0
}

// attempt makes one HTTP request with the per-attempt timeout.
func (c *Client) attempt(ctx context.Context, req llm.Request, f llm.Format, n int) (llm.Response, error) {
	h := &holder{}
	actx, cancel := context.WithTimeout(context.WithValue(ctx, holderKey{}, h), c.cfg.Timeout)
	defer cancel()
	creq := c.request(req, f)
	var resp llm.Response
	var err error
	if c.cfg.Stream {
		resp, err = c.stream(actx, creq, req.OnProgress, n)
	} else {
		resp, err = c.once(actx, creq)
	}
	if err != nil {
		var le *llm.Error
		if errors.As(err, &le) {
			return resp, err
		}
		return resp, &attemptError{err: err, retryAfter: h.retryAfter,
			timedOut: ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded)}
	}
	return resp, nil
}

func (c *Client) once(ctx context.Context, creq goopenai.ChatCompletionRequest) (llm.Response, error) {
	r, err := c.api.CreateChatCompletion(ctx, creq)
	if err != nil {
		return llm.Response{}, err
	}
	if len(r.Choices) == 0 {
		return llm.Response{}, &llm.Error{Kind: llm.KindUnavailable, Message: "the provider answered without any choice"}
	}
	ch := r.Choices[0]
	resp := llm.Response{Content: ch.Message.Content, FinishReason: string(ch.FinishReason), Model: r.Model,
		PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens}
	if ch.FinishReason == goopenai.FinishReasonLength {
		return resp, &llm.Error{Kind: llm.KindTruncated, Message: "the reply hit the token limit (finish_reason length)"}
	}
	return resp, nil
}

func (c *Client) stream(ctx context.Context, creq goopenai.ChatCompletionRequest, onProgress func(llm.Progress), n int) (llm.Response, error) {
	if reportsStreamUsage(c.cfg.BaseURL) { // the plan's tokens and cost are then the provider's own
		creq.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
	}
	st, err := c.api.CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return llm.Response{}, err
	}
	defer st.Close()
	var b strings.Builder
	resp := llm.Response{}
	chunks := 0
	for {
		ev, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if tooLarge(err) {
				return llm.Response{}, err
			}
			if ctx.Err() != nil {
				return resp, err
			}
			resp.Content = b.String()
			return resp, &llm.Error{Kind: llm.KindTruncated, Message: "the stream broke off before the reply ended", Err: err}
		}
		if ev.Model != "" {
			resp.Model = ev.Model
		}
		if ev.Usage != nil {
			resp.PromptTokens, resp.CompletionTokens = ev.Usage.PromptTokens, ev.Usage.CompletionTokens
		}
		if len(ev.Choices) == 0 {
			continue
		}
		ch := ev.Choices[0]
		if ch.Delta.Content != "" {
			b.WriteString(ch.Delta.Content)
			chunks++
			if onProgress != nil {
				onProgress(llm.Progress{Chunks: chunks, Chars: b.Len(), Attempt: n})
			}
		}
		if ch.FinishReason != "" {
			resp.FinishReason = string(ch.FinishReason)
		}
	}
	resp.Content = b.String()
	switch resp.FinishReason {
	case "":
		return resp, &llm.Error{Kind: llm.KindTruncated, Message: "the stream ended without a finish reason (cut off)"}
	case string(goopenai.FinishReasonLength):
		return resp, &llm.Error{Kind: llm.KindTruncated, Message: "the reply hit the token limit (finish_reason length)"}
	}
	return resp, nil
}

// classify maps a failed attempt to an llm.Error. *RequestError is checked before
// *APIError (go-openai returns RequestError for non-JSON error bodies).
func (c *Client) classify(ctx context.Context, err error) *llm.Error {
	var le *llm.Error
	if errors.As(err, &le) {
		le.Message = c.scrub(le.Message)
		return le
	}
	if ctx.Err() != nil {
		return &llm.Error{Kind: llm.KindCancelled, Message: "the request was cancelled", Err: ctx.Err()}
	}
	var tl *ReplyTooLargeError
	if errors.As(err, &tl) {
		return &llm.Error{Kind: llm.KindTooLarge, Err: tl,
			Message: fmt.Sprintf("%s; lower max_tokens or check the server", tl.Error())}
	}
	var ae *attemptError
	if errors.As(err, &ae) && ae.timedOut {
		return &llm.Error{Kind: llm.KindTimeout, Message: fmt.Sprintf("no answer within %s", c.cfg.Timeout), Err: errors.New("attempt deadline exceeded")}
	}
	var reqErr *goopenai.RequestError
	var apiErr *goopenai.APIError
	switch {
	case errors.As(err, &reqErr):
		msg := strings.TrimSpace(string(reqErr.Body))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		if msg == "" && reqErr.Err != nil {
			msg = reqErr.Err.Error()
		}
		return c.byStatus(reqErr.HTTPStatusCode, "", msg)
	case errors.As(err, &apiErr):
		code := ""
		if s, ok := apiErr.Code.(string); ok {
			code = s
		}
		return c.byStatus(apiErr.HTTPStatusCode, code, apiErr.Message)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &llm.Error{Kind: llm.KindTimeout, Message: "the connection timed out"}
	}
	return &llm.Error{Kind: llm.KindUnavailable, Message: c.scrub(netMessage(err))}
}

func netMessage(err error) string {
	var oe *net.OpError
	if errors.As(err, &oe) {
		return fmt.Sprintf("cannot connect (%s %s)", oe.Op, oe.Err)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "cannot resolve " + dns.Name
	}
	return err.Error()
}

func (c *Client) byStatus(status int, code, msg string) *llm.Error {
	msg = c.scrub(msg)
	e := &llm.Error{StatusCode: status, Message: msg}
	switch {
	case code == "insufficient_quota":
		e.Kind = llm.KindQuota
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = llm.KindAuth
	case status == http.StatusTooManyRequests:
		e.Kind = llm.KindRateLimit
	case status == http.StatusRequestTimeout:
		e.Kind = llm.KindTimeout
	case status >= 500:
		e.Kind = llm.KindUnavailable
	case status >= 400:
		e.Kind = llm.KindBadRequest
	default:
		e.Kind = llm.KindUnavailable
	}
	return e
}

// scrub removes the API key from provider text (some echo it back).
func (c *Client) scrub(s string) string {
	if k := c.cfg.APIKey; len(k) >= 4 {
		s = strings.ReplaceAll(s, k, "[REDACTED]")
	}
	return s
}

// transport sends temperature 0 for real (go-openai omits a zero float), records
// Retry-After, and caps the bytes read of every response body at maxReply.
type transport struct {
	base     http.RoundTripper
	maxReply int64
}

func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions") && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("read request body: %w", err)
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) == nil {
			m["temperature"] = json.RawMessage("0")
			if nb, err := json.Marshal(m); err == nil {
				body = nb
			}
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		if t.maxReply > 0 {
			resp.Body = newLimitedBody(resp.Body, resp.ContentLength, t.maxReply)
		}
		if h, ok := r.Context().Value(holderKey{}).(*holder); ok {
			h.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
	}
	return resp, err
}

// parseRetryAfter reads seconds or an HTTP date, capped at maxRetryAfter.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.ParseFloat(v, 64); err == nil && n >= 0 {
		d = time.Duration(n * float64(time.Second))
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d < 0 {
		return 0
	}
	if d > maxRetryAfter {
		d = maxRetryAfter
	}
	return d
}
