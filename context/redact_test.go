package codectx

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"nothing", "x := compute(a, b)\n", "x := compute(a, b)\n", 0},
		{"aws key id", "key AKIAIOSFODNN7EXAMPLE in log", "key [REDACTED] in log", 1},
		{"github token", "using ghp_" + strings.Repeat("a1B2", 9) + " now", "using [REDACTED] now", 1},
		{"openai key", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz123456", "OPENAI=[REDACTED]", 1},
		{"slack token", "hook xoxb-1234567890-abcdefghij", "hook [REDACTED]", 1},
		{"password assignment", "password=hunter22\n", "password=[REDACTED]\n", 1},
		{"quoted token", `token = "abc123xyz"`, `token = "[REDACTED]"`, 1},
		{"json secret", `{"client_secret": "s3cr3tvalue", "name": "x"}`, `{"client_secret": "[REDACTED]", "name": "x"}`, 1},
		{"yaml api key", "api_key: 9f8e7d6c5b4a\n", "api_key: [REDACTED]\n", 1},
		{"env style upper", "DB_PASSWORD=correcthorse\nPORT=8080\n", "DB_PASSWORD=[REDACTED]\nPORT=8080\n", 1},
		{"code call left alone", "token = get_token(user)\n", "token = get_token(user)\n", 0},
		{"dotted name left alone", "password = settings.DB_PASSWORD\n", "password = settings.DB_PASSWORD\n", 0},
		{"comparison left alone", "if token == expected {\n", "if token == expected {\n", 0},
		{"null left alone", "password: null\n", "password: null\n", 0},
		{"number left alone", "max_tokens: 8192\n", "max_tokens: 8192\n", 0},
		{"env reference left alone", "password=${DB_PASS}\n", "password=${DB_PASS}\n", 0},
		{"private key block keeps lines", "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----\nb\n",
			"a\n[REDACTED]\n[REDACTED]\n[REDACTED]\n[REDACTED]\nb\n", 1},
		{"two on a line", "user=bob password=pw1234 token=tk5678", "user=bob password=[REDACTED] token=[REDACTED]", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Redact(tt.in)
			if got != tt.want || n != tt.n {
				t.Errorf("Redact(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
			}
		})
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("password=abc123 AKIAIOSFODNN7EXAMPLE")
	f.Add("-----BEGIN PRIVATE KEY-----\nx\n")
	f.Fuzz(func(t *testing.T, s string) {
		got, n := Redact(s)
		if n == 0 && got != s {
			t.Fatalf("text changed without a redaction: %q → %q", s, got)
		}
		if strings.Count(got, "\n") != strings.Count(s, "\n") {
			t.Fatalf("line count changed: %q → %q", s, got)
		}
	})
}
