package llmtest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors  []string
	cleanup []func()
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Cleanup(f func()) { r.cleanup = append(r.cleanup, f) }
func (r *recorder) Helper()          {}

func TestUnrequestedReplyFailsTheTest(t *testing.T) {
	rec := &recorder{TB: t}
	NewServer(rec, Reply{Content: "a"}, Reply{Content: "b"})
	for _, f := range rec.cleanup {
		f()
	}
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "2 scripted repl(ies) never requested") {
		t.Fatalf("errors = %q", rec.errors)
	}
}

func TestUnexpectedRequestFailsTheTest(t *testing.T) {
	rec := &recorder{TB: t}
	s := NewServer(rec)
	resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, f := range rec.cleanup {
		f()
	}
	if resp.StatusCode != 500 || len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "unexpected request") {
		t.Fatalf("status %d errors %q", resp.StatusCode, rec.errors)
	}
}

func TestLoadReplies(t *testing.T) {
	rs := LoadReplies(t, "testdata/replies.json")
	if len(rs) != 3 || rs[0].Status != 429 || rs[0].Header["Retry-After"] != "1" || !strings.Contains(rs[2].Content, "fix-plan") {
		t.Fatalf("replies = %+v", rs)
	}
}
