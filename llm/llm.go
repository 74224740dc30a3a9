// Package llm holds provider-neutral chat types, the Client interface the fix loop
// calls, and the error kinds adapters map provider failures to. No SDK type crosses it.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Role of a chat message.
type Role string

// Chat roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
}

// Format is the response format asked of the provider.
type Format string

// Response formats, strongest first. Adapters fall back down this list when a
// provider rejects one, and remember the result per provider.
const (
	FormatJSONSchema Format = "json_schema"
	FormatJSONObject Format = "json_object"
	FormatText       Format = "text"
)

// Request is one chat completion request.
type Request struct {
	Messages []Message
	// Schema is the strict JSON schema (sent as response_format json_schema when supported).
	Schema json.RawMessage
	// SchemaName is the json_schema name, e.g. "fix_plan".
	SchemaName string
	// MaxTokens caps the reply; 0 leaves it to the provider.
	MaxTokens int
	// MaxAttempts caps the attempts a transient failure may take (a retry may
	// be billed like the request: a per-plan ceiling allows only so many); 0
	// leaves it to the client's own retry setting.
	MaxAttempts int
	// OnProgress, when set, is called as streamed content arrives (may be called often).
	OnProgress func(Progress)
}

// Progress reports streaming progress.
type Progress struct {
	// Chunks is how many content deltas arrived so far; Chars how many characters.
	Chunks int
	Chars  int
	// Attempt is the 1-based attempt number (retries increase it).
	Attempt int
}

// Response is the provider's reply.
type Response struct {
	Content      string
	FinishReason string
	Model        string
	// Format is the response format that was actually used.
	Format           Format
	PromptTokens     int
	CompletionTokens int
	// Attempts is how many HTTP attempts it took (1 = no retry).
	Attempts int
	Duration time.Duration
}

// Client sends chat requests to one provider.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// Servers whose context window an adapter can ask for (Window.Server).
const (
	ServerOllama   = "ollama"
	ServerLMStudio = "lmstudio"
	ServerLlamaCpp = "llamacpp"
	ServerVLLM     = "vllm"
)

// Window is the context window a server serves for a model: prompt and reply
// together must fit in Tokens. Tokens 0 means the server did not say.
type Window struct {
	Tokens int `json:"tokens"`
	// Max is the most the model supports, when the server says (the window may be
	// raised up to it).
	Max int `json:"max,omitempty"`
	// Server is one of the Server* names ("" when unknown).
	Server string `json:"server,omitempty"`
	// Source says where the number came from, for people.
	Source string `json:"source,omitempty"`
}

// Kind classifies a provider failure so the edges can word it for people.
type Kind string

// Error kinds.
const (
	KindAuth        Kind = "auth"        // 401/403: bad or missing key
	KindQuota       Kind = "quota"       // insufficient_quota: billing, not retried
	KindRateLimit   Kind = "rate_limit"  // 429 after all retries
	KindUnavailable Kind = "unavailable" // connection refused, DNS, 5xx after retries
	KindTimeout     Kind = "timeout"     // deadline exceeded after retries
	KindBadRequest  Kind = "bad_request" // 400/404/422: model name, parameters
	KindTruncated   Kind = "truncated"   // finish_reason=length or a cut stream
	KindTooLarge    Kind = "too_large"   // the reply grew past the client's size cap; not retried
	KindCancelled   Kind = "cancelled"   // the caller's context was cancelled
)

// Error is a classified provider error. Its message never contains the API key.
type Error struct {
	Kind       Kind
	StatusCode int
	Message    string
	Attempts   int
	Err        error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("llm %s", e.Kind)
	if e.StatusCode != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.StatusCode)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of the first *Error in err's chain, or "".
func KindOf(err error) Kind {
	var le *Error
	if errors.As(err, &le) {
		return le.Kind
	}
	return ""
}
