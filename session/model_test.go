package session

import (
	"testing"

	"fixplan/plan"
)

func TestNewModel(t *testing.T) {
	st := DefaultSettings()
	st.BaseURL, st.Model = "http://127.0.0.1:11434/v1", "qwen2.5-coder"
	if m, err := NewModel(st, ""); err != nil || m == nil {
		t.Fatalf("a local provider without a key: %v, %v", m, err)
	}
	for _, tc := range []struct {
		name string
		mod  func(*Settings)
		key  string
		code plan.Code // "" is the client's own error, worded by each edge
	}{
		{"OpenAI's API without a key", func(s *Settings) { s.BaseURL = "https://api.openai.com/v1" }, "", plan.ErrProviderAuth},
		{"a base URL that is not http(s)", func(s *Settings) { s.BaseURL = "ftp://example.com" }, "k", plan.ErrConfig},
		{"no model name", func(s *Settings) { s.Model = " " }, "k", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := st
			tc.mod(&s)
			m, err := NewModel(s, tc.key)
			if err == nil || plan.CodeOf(err) != tc.code {
				t.Fatalf("err = %v, want code %q", err, tc.code)
			}
			if m != nil {
				t.Errorf("a refused model is %#v, not nil", m)
			}
		})
	}
}
