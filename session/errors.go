package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fixplan/llm"
	"fixplan/plan"
)

// ProviderError words a model-client failure for people: a stable code, what
// happened and what to do. It never includes the API key (llm errors do not carry it).
func ProviderError(err error, provider string, ctx context.Context) error {
	if ctx.Err() != nil {
		return plan.Errorf(plan.ErrCancelled, "planning was cancelled").WithHint("press Fix (plan) again to start over")
	}
	var le *llm.Error
	if !errors.As(err, &le) {
		return &plan.Error{Code: plan.ErrProviderUnavailable, Msg: "the model request failed", Err: err,
			Hint: "check the provider settings and try again"}
	}
	where := provider
	if where == "" {
		where = "the provider"
	}
	attempts := ""
	if le.Attempts > 1 {
		attempts = fmt.Sprintf(" after %d attempts", le.Attempts)
	}
	detail := le.Message
	said := "" // the server's own words, once
	if detail != "" {
		said = ": " + detail
	}
	status := ""
	if le.StatusCode != 0 {
		status = fmt.Sprintf(" (HTTP %d)", le.StatusCode)
	}
	// Msg says it all once (what failed, the status, the server's words); the
	// llm error stays in the chain for errors.As but adds no text of its own,
	// which would repeat the status and the server's words.
	e := &plan.Error{Err: silent{err}}
	switch le.Kind {
	case llm.KindAuth:
		e.Code, e.Msg = plan.ErrProviderAuth, fmt.Sprintf("%s refused the API key%s%s", where, status, said)
		e.Hint = "set FIXPLAN_API_KEY (or OPENAI_API_KEY), or store the key in Settings"
	case llm.KindQuota:
		e.Code, e.Msg = plan.ErrProviderQuota, fmt.Sprintf("%s says the account is out of quota%s%s", where, status, said)
		e.Hint = "check the account's plan and billing, or switch to another provider"
	case llm.KindRateLimit:
		e.Code, e.Msg = plan.ErrProviderUnavailable, fmt.Sprintf("%s kept rate-limiting the request%s%s%s", where, attempts, status, said)
		e.Hint = "wait a minute and press Fix (plan) again, or raise max retries in Settings"
	case llm.KindTimeout:
		e.Code, e.Msg = plan.ErrProviderUnavailable, fmt.Sprintf("%s did not answer in time%s%s", where, attempts, said)
		e.Hint = "raise the timeout (FIXPLAN_TIMEOUT or Settings) or use a faster model"
	case llm.KindBadRequest:
		e.Code, e.Msg = plan.ErrProviderRequest, fmt.Sprintf("%s rejected the request%s%s", where, status, said)
		e.Hint = "check the model name (FIXPLAN_MODEL or Settings) and the base URL"
		if contextOverflow(detail) {
			e.Hint = "the context is too big for this model: lower the context budget in Settings (context_budget) or use a model with a larger context window"
		}
		if strings.HasPrefix(detail, "the provider redirected") { // llm/openai refuses redirects that leave the base URL's origin
			what, _, _ := strings.Cut(detail, " — ") // the fix goes in the hint
			e.Msg = fmt.Sprintf("%s redirected the request elsewhere: %s", where, what)
			e.Hint = "set the base URL (FIXPLAN_BASE_URL or Settings) to the address the provider redirects to, if you trust it"
		}
	case llm.KindTooLarge:
		// the server is up and answered, so this is not "unavailable": the reply
		// (or the stream) went on past the client's cap
		e.Code, e.Msg = plan.ErrProviderRequest, fmt.Sprintf("%s sent a reply too large to accept", where)
		if size, _, _ := strings.Cut(detail, ";"); size != "" {
			e.Msg += " (" + size + ")"
		}
		e.Hint = "lower Max tokens (max_tokens in Settings, or FIXPLAN_MAX_TOKENS) so the model writes a shorter plan; " +
			"if it is already low, check that the base URL points at an OpenAI-compatible server whose replies end (FIXPLAN_BASE_URL or Settings)"
	case llm.KindCancelled:
		e.Code, e.Msg = plan.ErrCancelled, "planning was cancelled"
		e.Hint = "press Fix (plan) again to start over"
	default: // unavailable, and anything new
		e.Code, e.Msg = plan.ErrProviderUnavailable, fmt.Sprintf("cannot get an answer from %s%s%s%s", where, attempts, status, said)
		e.Hint = "is the server running and the base URL right? (FIXPLAN_BASE_URL or Settings)"
	}
	return e
}

// silent keeps an error in the chain (errors.As, llm.KindOf) without adding its
// text to the plan.Error's: the message already says what it says.
type silent struct{ err error }

func (silent) Error() string   { return "" }
func (s silent) Unwrap() error { return s.err }

// contextOverflow recognises "too much context" in the wording of OpenAI, vLLM,
// llama.cpp and Ollama.
func contextOverflow(msg string) bool {
	m := strings.ToLower(msg)
	for _, w := range []string{"context_length_exceeded", "maximum context length", "context length", "context window", "too many tokens", "exceeds the context", "n_ctx"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}
