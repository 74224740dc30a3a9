package session

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"fixplan/llm"
	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
)

// TestReplyTooLargeIsWordedAsSuch serves a 5 MiB reply through the fake server
// and the real client (cap 4 MiB) and checks the words people get: a reply too
// large, with what to do — not "is the server running?".
func TestReplyTooLargeIsWordedAsSuch(t *testing.T) {
	block := strings.Repeat("0123456789abcdef", 64) // 1 KiB
	for _, stream := range []bool{false, true} {
		name := "non-streamed"
		if stream {
			name = "streamed"
		}
		t.Run(name, func(t *testing.T) {
			// A minute per attempt: on a loaded machine, 5 MiB in 5,120 SSE events took
			// longer than the fixture's 5 s, and the timeout's retries hid the verdict.
			f := newFixture(t, func(c *openai.Config) { c.Stream = stream; c.Timeout = time.Minute },
				llmtest.Reply{Content: block, Repeat: 5 << 10})
			_, err := f.plan(t)
			var pe *plan.Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *plan.Error", err)
			}
			if pe.Code != plan.ErrProviderRequest {
				t.Errorf("code = %s, want %s", pe.Code, plan.ErrProviderRequest)
			}
			if k := llm.KindOf(err); k != llm.KindTooLarge {
				t.Errorf("kind = %q, want %q", k, llm.KindTooLarge)
			}
			wantMsg := f.srv.URL() + " sent a reply too large to accept (the model's reply exceeded 4 MiB)"
			if pe.Msg != wantMsg {
				t.Errorf("message = %q, want %q", pe.Msg, wantMsg)
			}
			for _, w := range []string{"lower Max tokens", "FIXPLAN_MAX_TOKENS", "FIXPLAN_BASE_URL"} {
				if !strings.Contains(pe.Hint, w) {
					t.Errorf("hint = %q, want it to mention %q", pe.Hint, w)
				}
			}
			if text := pe.Msg + " " + pe.Hint; strings.Contains(text, "server running") || strings.Contains(text, "cannot get an answer") {
				t.Errorf("worded as an unreachable server: %q", text)
			}
			if strings.Contains(pe.Error(), apiKey) {
				t.Errorf("key in error: %v", pe)
			}
			if n := len(f.srv.Requests()); n != 1 {
				t.Errorf("%d requests, want 1: a too-large reply is not retried", n)
			}
		})
	}
}

// TestRedirectElsewhereIsWordedAsSuch: a provider that redirects the chat request
// to another origin gets no API key, and the user is told where it redirected and
// how to point fixplan there.
func TestRedirectElsewhereIsWordedAsSuch(t *testing.T) {
	other := llmtest.NewServer(t) // no reply scripted: a chat request there fails the test
	front := llmtest.NewServer(t)
	front.HandleFunc("/moved/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL()+"/chat/completions", http.StatusPermanentRedirect)
	})
	f := newFixture(t, func(c *openai.Config) { c.BaseURL = strings.TrimSuffix(front.URL(), "/v1") + "/moved/v1" })
	_, err := f.plan(t)
	var pe *plan.Error
	if !errors.As(err, &pe) || pe.Code != plan.ErrProviderRequest {
		t.Fatalf("err = %v, want %s", err, plan.ErrProviderRequest)
	}
	if !strings.Contains(pe.Msg, "redirected to "+other.URL()+"/chat/completions") || !strings.Contains(pe.Hint, "set the base URL") {
		t.Errorf("message %q / hint %q do not say where it redirected and what to do", pe.Msg, pe.Hint)
	}
	if len(other.Requests()) != 0 || strings.Contains(pe.Error(), apiKey) {
		t.Errorf("the key left for %s", other.URL())
	}
}

// TestProviderFailureSaysItOnce: a server error reads as one sentence — what
// failed, the HTTP status once and the server's own words — in the message the
// window shows, in the error text (the CLI, the progress event) and never with the key.
func TestProviderFailureSaysItOnce(t *testing.T) {
	f := newFixture(t, func(c *openai.Config) { c.MaxRetries = 0 },
		llmtest.Reply{Status: http.StatusInternalServerError, Error: "the model backend is restarting"})
	_, err := f.plan(t)
	var pe *plan.Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a *plan.Error", err)
	}
	if k := llm.KindOf(err); k != llm.KindUnavailable {
		t.Errorf("kind = %q, want %q (the llm error stays in the chain)", k, llm.KindUnavailable)
	}
	want := "cannot get an answer from " + f.srv.URL() + " (HTTP 500): the model backend is restarting"
	if pe.Msg != want {
		t.Errorf("message = %q, want %q", pe.Msg, want)
	}
	var stageErr string
	f.ev.mu.Lock()
	for _, ev := range f.ev.ev {
		if ev.Stage == StageError {
			stageErr = ev.Message
		}
	}
	f.ev.mu.Unlock()
	for name, text := range map[string]string{"Error()": err.Error(), "error event": stageErr} {
		if n := strings.Count(text, "HTTP 500"); n != 1 {
			t.Errorf("%s names the status %d times: %q", name, n, text)
		}
		if n := strings.Count(text, "the model backend is restarting"); n != 1 {
			t.Errorf("%s has the server's message %d times: %q", name, n, text)
		}
		if strings.Contains(text, "llm unavailable") {
			t.Errorf("%s carries the client's internal prefix: %q", name, text)
		}
		if strings.Contains(text, apiKey) {
			t.Errorf("%s carries the API key: %q", name, text)
		}
	}
}
