package openai

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"fixplan/llm"
	"fixplan/llm/llmtest"
)

// Each server kind answers its own model endpoint; the client finds the window it
// actually serves and says where the number came from.
func TestWindowAsksEachServerKind(t *testing.T) {
	for _, tc := range []struct {
		server, source string
		tokens         int
	}{
		{llm.ServerOllama, "/api/ps", 2048},
		{llm.ServerLMStudio, "loaded_context_length", 4096},
		{llm.ServerLlamaCpp, "/props", 8192},
		{llm.ServerVLLM, "max_model_len", 16384},
	} {
		t.Run(tc.server, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.ServeWindow(tc.server, "fake-model", tc.tokens)
			c, _ := newClient(t, srv, nil)
			w := c.Window(context.Background())
			if w.Tokens != tc.tokens || w.Server != tc.server || !strings.Contains(w.Source, tc.source) {
				t.Fatalf("Window() = %+v, want %d tokens from %s (%s)", w, tc.tokens, tc.server, tc.source)
			}
			// cached for the session: asking again sends nothing
			n := len(srv.Probes())
			if w2 := c.Window(context.Background()); w2 != w || len(srv.Probes()) != n {
				t.Fatalf("second Window() = %+v after %d more probes, want the cached answer", w2, len(srv.Probes())-n)
			}
		})
	}
}

// An Ollama model that is not loaded: num_ctx from its parameters, else the
// server's default window, never more than the model's own context_length.
func TestWindowOllamaModelNotLoaded(t *testing.T) {
	for _, tc := range []struct {
		name, show string
		env        string
		want       int
		source     string
	}{
		{"num_ctx", `{"parameters":"num_ctx 8192\nstop \"x\"","model_info":{"llama.context_length":131072}}`, "", 8192, "num_ctx"},
		{"default", `{"parameters":"stop \"x\"","model_info":{"llama.context_length":131072}}`, "", OllamaDefaultContext, "default"},
		{"env on a local server", `{"parameters":"","model_info":{"llama.context_length":131072}}`, "32768", 32768, "OLLAMA_CONTEXT_LENGTH"},
		{"capped by the model", `{"parameters":"num_ctx 8192","model_info":{"phi.context_length":2048}}`, "", 2048, "num_ctx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OLLAMA_CONTEXT_LENGTH", tc.env)
			srv := llmtest.NewServer(t)
			srv.Handle("GET /api/ps", http.StatusOK, `{"models":[{"name":"other:latest","model":"other:latest","context_length":65536}]}`)
			srv.Handle("POST /api/show", http.StatusOK, tc.show)
			c, _ := newClient(t, srv, nil)
			w := c.Window(context.Background())
			if w.Tokens != tc.want || w.Server != llm.ServerOllama || !strings.Contains(w.Source, tc.source) {
				t.Fatalf("Window() = %+v, want %d (%s)", w, tc.want, tc.source)
			}
			var show *llmtest.Recorded
			for _, p := range srv.Probes() {
				if p.Path == "/api/show" {
					show = &p
				}
			}
			if show == nil || !strings.Contains(string(show.Body), `"model":"fake-model"`) {
				t.Fatalf("/api/show was not asked about the configured model: %+v", show)
			}
		})
	}
}

// A server that answers none of the model endpoints: unknown (0), and planning
// is not held up. The key goes only to the provider's own host.
func TestWindowUnknownServerAndKey(t *testing.T) {
	srv := llmtest.NewServer(t)
	c, _ := newClient(t, srv, nil)
	if w := c.Window(context.Background()); w.Tokens != 0 || w.Server != "" {
		t.Fatalf("Window() = %+v, want unknown", w)
	}
	for _, p := range srv.Probes() {
		if got := p.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Fatalf("probe %s carried Authorization %q", p.Path, got)
		}
	}
}

func TestWindowLMStudioModelNotLoaded(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle("GET /api/v0/models", http.StatusOK, `{"data":[{"id":"fake-model","state":"not-loaded","max_context_length":131072},{"id":"other","state":"not-loaded","max_context_length":4096}]}`)
	c, _ := newClient(t, srv, nil)
	if w := c.Window(context.Background()); w.Tokens != 131072 || w.Server != llm.ServerLMStudio || !strings.Contains(w.Source, "not loaded") {
		t.Fatalf("Window() = %+v", w)
	}
}

// OpenAI's API serves known windows and has none of these endpoints: never probed.
func TestWindowNeverProbesOpenAI(t *testing.T) {
	c, err := New(Config{BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // any request would fail at once; none is made
	if w := c.Window(ctx); w.Tokens != 0 {
		t.Fatalf("Window() = %+v", w)
	}
}

func TestStreamUsageAskedOfOpenAIOnly(t *testing.T) {
	for url, want := range map[string]bool{
		"https://api.openai.com/v1":  true,
		"https://API.OpenAI.com/v1/": true,
		"http://127.0.0.1:11434/v1":  false,
		"https://openai.com.evil/v1": false,
		"https://openrouter.ai/api":  false,
	} {
		if got := reportsStreamUsage(url); got != want {
			t.Errorf("reportsStreamUsage(%q) = %v", url, got)
		}
	}
}

// A streamed reply to a local server does not carry stream_options (servers that
// do not know it refuse the request).
func TestStreamToLocalServerAsksNoUsage(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Reply{Content: `{"ok":true}`})
	c, _ := newClient(t, srv, func(c *Config) { c.Stream = true })
	if _, err := c.Complete(context.Background(), request()); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Requests()[0].JSON["stream_options"]; ok {
		t.Fatalf("stream_options sent to a local server: %s", srv.Requests()[0].Body)
	}
}

// A server that does not answer holds the plan only as long as the caller allows:
// cancelling returns "unknown" at once, and that is not remembered.
func TestWindowCancelledWhileTheServerHangs(t *testing.T) {
	srv := llmtest.NewServer(t)
	hit := make(chan struct{}, 8)
	srv.HandleFunc("GET /props", func(w http.ResponseWriter, r *http.Request) {
		hit <- struct{}{}
		<-r.Context().Done()
	})
	c, _ := newClient(t, srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan llm.Window)
	go func() { done <- c.Window(ctx) }()
	<-hit
	cancel()
	if w := <-done; w.Tokens != 0 {
		t.Fatalf("Window() = %+v after cancel", w)
	}
	c.windows.mu.Lock()
	n := len(c.windows.byPM)
	c.windows.mu.Unlock()
	if n != 0 {
		t.Fatal("an answer cut short by cancelling was remembered")
	}
}
