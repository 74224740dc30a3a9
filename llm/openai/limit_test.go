package openai

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"fixplan/llm"
	"fixplan/llm/llmtest"
)

// TestHugeReplyIsStoppedWithBoundedMemory serves a 50 MB reply, streamed and not,
// and checks that the client stops reading at the cap, says so with a typed error
// that carries no key, does not retry, and allocates far less than the reply.
func TestHugeReplyIsStoppedWithBoundedMemory(t *testing.T) {
	const replyBytes = 50 << 20
	block := strings.Repeat("0123456789abcdef", 64) // 1 KiB
	for _, stream := range []bool{true, false} {
		name := "non-streamed"
		if stream {
			name = "streamed"
		}
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Reply{Content: block, Repeat: replyBytes / len(block)})
			c, w := newClient(t, srv, func(c *Config) { c.Stream = stream; c.MaxRetries = 3 })
			req := request()
			chars := 0
			req.OnProgress = func(p llm.Progress) { chars = p.Chars }

			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := c.Complete(context.Background(), req)
			runtime.ReadMemStats(&after)

			var tl *ReplyTooLargeError
			if !errors.As(err, &tl) || tl.Limit != DefaultMaxReplyBytes {
				t.Fatalf("err = %v, want a *ReplyTooLargeError of %d bytes", err, DefaultMaxReplyBytes)
			}
			var le *llm.Error
			if !errors.As(err, &le) || le.Attempts != 1 {
				t.Fatalf("err = %#v, want one *llm.Error attempt", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "the model's reply exceeded 4 MiB; lower max_tokens or check the server") || strings.Contains(msg, testKey) {
				t.Errorf("error = %q", msg)
			}
			if n := len(srv.Requests()); n != 1 || len(w.d) != 0 {
				t.Errorf("%d requests, waits %v: a too-large reply was retried", n, w.d)
			}
			if chars > DefaultMaxReplyBytes {
				t.Errorf("%d characters of content arrived past the 4 MiB cap", chars)
			}
			grew := after.TotalAlloc - before.TotalAlloc
			t.Logf("allocated %.1f MiB while refusing a %d MiB reply", float64(grew)/(1<<20), replyBytes>>20)
			if grew > 64<<20 && !raceDetector {
				t.Errorf("allocated %d MiB while refusing the reply, want < 64 MiB", grew>>20)
			}
		})
	}
}

func TestReplyCapIsConfigurable(t *testing.T) {
	content := `{"ok":true,"padding":"` + strings.Repeat("p", 3000) + `"}`
	tests := []struct {
		name    string
		stream  bool
		max     int64
		tooBig  bool
		errText string
	}{
		{name: "under the cap", max: 8 << 10},
		{name: "streamed, under the cap", stream: true, max: 64 << 10},
		{name: "over a small cap", max: 2 << 10, tooBig: true, errText: "exceeded 2 KiB"},
		{name: "streamed, over a small cap", stream: true, max: 2 << 10, tooBig: true, errText: "exceeded 2 KiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Reply{Content: content})
			c, _ := newClient(t, srv, func(c *Config) { c.Stream = tc.stream; c.MaxReplyBytes = tc.max })
			resp, err := c.Complete(context.Background(), request())
			if !tc.tooBig {
				if err != nil || resp.Content != content {
					t.Fatalf("err = %v, content %d bytes", err, len(resp.Content))
				}
				return
			}
			if !tooLarge(err) || !strings.Contains(err.Error(), tc.errText) || resp.Content != "" {
				t.Fatalf("err = %v, content %d bytes", err, len(resp.Content))
			}
		})
	}
}

func TestLimitedBody(t *testing.T) {
	tests := []struct {
		name          string
		body          string
		contentLength int64
		limit         int64
		want          string
		tooLarge      bool
	}{
		{name: "exactly the cap", body: "12345", contentLength: -1, limit: 5, want: "12345"},
		{name: "one byte over", body: "123456", contentLength: -1, limit: 5, want: "12345", tooLarge: true},
		{name: "Content-Length over the cap fails before reading", body: "123456", contentLength: 6, limit: 5, tooLarge: true},
		{name: "empty", body: "", contentLength: 0, limit: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newLimitedBody(io.NopCloser(&oneByteReader{s: tc.body}), tc.contentLength, tc.limit)
			got, err := io.ReadAll(b)
			if string(got) != tc.want || tooLarge(err) != tc.tooLarge || (!tc.tooLarge && err != nil) {
				t.Fatalf("read %q, err %v", got, err)
			}
		})
	}
}

// oneByteReader returns one byte per Read, the way a slow network does.
type oneByteReader struct{ s string }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.s[0]
	r.s = r.s[1:]
	return 1, nil
}
