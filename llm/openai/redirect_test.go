package openai

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"fixplan/llm"
	"fixplan/llm/llmtest"
)

// A provider that redirects the chat request to another port on the same host
// (another program on that machine) must not get the API key sent there: Go's
// client keeps the Authorization header when only the port differs.
func TestRedirectToAnotherOriginIsRefusedWithoutSendingTheKey(t *testing.T) {
	for _, stream := range []bool{false, true} {
		other := llmtest.NewServer(t) // no reply scripted: any chat request there fails the test
		front := llmtest.NewServer(t)
		front.HandleFunc("/r/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL()+"/chat/completions", http.StatusTemporaryRedirect)
		})
		c, _ := newClient(t, front, func(c *Config) {
			c.BaseURL = strings.TrimSuffix(front.URL(), "/v1") + "/r/v1"
			c.Stream = stream
		})
		_, err := c.Complete(context.Background(), request())
		var le *llm.Error
		if !errors.As(err, &le) || le.Kind != llm.KindBadRequest || !strings.Contains(le.Message, "redirected to "+other.URL()+"/chat/completions") ||
			!strings.Contains(le.Message, "set the base URL to the final address") {
			t.Fatalf("stream=%v: err = %v, want a bad_request naming the redirect target and the fix", stream, err)
		}
		if le.Attempts != 1 {
			t.Errorf("stream=%v: a refused redirect was retried (%d attempts)", stream, le.Attempts)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Errorf("stream=%v: the error holds the key: %v", stream, err)
		}
		for _, r := range other.Requests() {
			if strings.Contains(r.Header.Get("Authorization"), testKey) {
				t.Errorf("stream=%v: the other server at %s received the API key", stream, other.URL())
			}
		}
		if n := len(other.Requests()); n != 0 {
			t.Errorf("stream=%v: the other server got %d request(s)", stream, n)
		}
	}
}

// A redirect within the base URL's own origin (a moved path) is followed, with
// the key, and the reply is used.
func TestRedirectWithinTheOriginIsFollowed(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Reply{Content: `{"ok":true}`})
	srv.HandleFunc("/old/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/chat/completions", http.StatusTemporaryRedirect)
	})
	c, _ := newClient(t, srv, func(c *Config) { c.BaseURL = strings.TrimSuffix(srv.URL(), "/v1") + "/old/v1" })
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != `{"ok":true}` {
		t.Fatalf("content = %q", resp.Content)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer "+testKey || len(reqs[0].Messages) != 2 {
		t.Fatalf("the redirected request lost its key or body: %+v", reqs)
	}
}

func TestOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://api.example.com/v1", "https://API.example.com:443/v2", true},
		{"http://127.0.0.1:18801/v1", "http://127.0.0.1:18802/v1", false},
		{"http://example.com/v1", "https://example.com/v1", false},
		{"http://example.com/v1", "http://example.com:80/x", true},
		{"https://example.com/v1", "https://evil.example.com/v1", false},
	} {
		a, b := mustURL(t, tc.a), mustURL(t, tc.b)
		if got := origin(a) == origin(b); got != tc.same {
			t.Errorf("same origin %s, %s = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
