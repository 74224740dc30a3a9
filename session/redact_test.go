package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
	"fixplan/plan"
)

// Fake secrets, assembled so that this file does not look like a leak.
var (
	dbPassword = "Sup3r" + "SecretPw9"
	ghSecret   = "ghp_" + strings.Repeat("Zx9Q", 9)
	// gatewayKey has no known format: only the configured-key pass catches it.
	gatewayKey = "gwkey-" + "7c1d2e3f4a5b6c7d"
	keyLine    = "c2VjcmV0LWtleS1tYXRlcmlhbC1mb3ItdGVzdHMtb25seQ"
)

// planFileBytes reads the saved record of id as stored on disk.
func planFileBytes(t *testing.T, root, id string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".fixplan", "plans", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSecretsNeverLeave runs the fix loop against the fake provider with secrets
// in what the user gives and in the project, and checks the recorded request
// bodies and the saved plan file.
func TestSecretsNeverLeave(t *testing.T) {
	keyFile := "deploy notes\n-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat(keyLine+"\n", 6) + "-----END RSA PRIVATE KEY-----\ndone\n"
	tests := []struct {
		name    string
		files   map[string]string
		replies func(t *testing.T) []llmtest.Reply
		in      plan.ProblemInput
		secrets []string
		failed  bool // the reply stays invalid: a failed record is saved
	}{
		{
			name:    "problem text",
			replies: func(t *testing.T) []llmtest.Reply { return []llmtest.Reply{reply(t, nil)} },
			in: plan.ProblemInput{Problem: "connecting to postgres://app:" + dbPassword + "@db.internal/app fails with " + ghSecret +
				" and our gateway key " + gatewayKey + "\n" + pytestFailure},
			secrets: []string{dbPassword, ghSecret, gatewayKey},
		},
		{
			name:    "captured check output",
			replies: func(t *testing.T) []llmtest.Reply { return []llmtest.Reply{reply(t, nil)} },
			in: plan.ProblemInput{Problem: "tests fail\n" + pytestFailure,
				Logs: []plan.LogSource{{Source: "verification", Text: "$ pytest -q\nGITHUB_TOKEN=" + ghSecret + "\n1 failed\n"}}},
			secrets: []string{ghSecret},
		},
		{
			name:  "read_file range inside a key block",
			files: map[string]string{"deploy/notes.md": keyFile},
			replies: func(t *testing.T) []llmtest.Reply {
				return []llmtest.Reply{reply(t, requests(map[string]any{"type": "read_file", "path": "deploy/notes.md", "start_line": 4, "end_line": 6})), reply(t, nil)}
			},
			in:      plan.ProblemInput{Problem: "deploy fails\n" + pytestFailure},
			secrets: []string{keyLine},
		},
		{
			name: "raw reply of a failed plan",
			replies: func(t *testing.T) []llmtest.Reply {
				prose := llmtest.Reply{Content: "I would set password=" + dbPassword + " and retry."}
				return []llmtest.Reply{prose, prose}
			},
			in:      plan.ProblemInput{Problem: "it fails\n" + pytestFailure},
			secrets: []string{dbPassword},
			failed:  true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FIXPLAN_API_KEY", gatewayKey)
			f := newFixture(t, nil, tt.replies(t)...)
			for p, c := range tt.files {
				full := filepath.Join(f.root, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := f.s.Plan(context.Background(), tt.in)
			var re *ReplyError
			switch {
			case tt.failed && !errors.As(err, &re):
				t.Fatalf("err = %v, want a ReplyError", err)
			case !tt.failed && err != nil:
				t.Fatal(err)
			}
			id := ""
			if rec != nil {
				id = rec.ID
			}
			if re != nil {
				id = re.RecordID
			}
			saved := planFileBytes(t, f.root, id)
			if len(f.srv.Requests()) == 0 {
				t.Fatal("no request reached the provider")
			}
			for _, s := range tt.secrets {
				for i, r := range f.srv.Requests() {
					if strings.Contains(string(r.Body), s) {
						t.Errorf("request %d carries %q", i+1, s)
					}
				}
				if strings.Contains(string(saved), s) {
					t.Errorf("the saved plan file holds %q", s)
				}
			}
			if !strings.Contains(string(saved), "[REDACTED]") {
				t.Errorf("the saved plan shows no redaction:\n%.2000s", saved)
			}
		})
	}
}

// TestRedactedInputStillPlans: the redacted problem still carries what the loop
// needs (the trace resolves to the code window).
func TestRedactedInputStillPlans(t *testing.T) {
	f := newFixture(t, nil, reply(t, nil))
	rec, err := f.s.Plan(context.Background(), plan.ProblemInput{Problem: fmt.Sprintf("token=%s\n%s", ghSecret, pytestFailure)})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Input.Problem == "" || strings.Contains(rec.Input.Problem, ghSecret) || !strings.Contains(rec.Input.Problem, "ZeroDivisionError") {
		t.Errorf("recorded problem = %q", rec.Input.Problem)
	}
	if user := f.srv.Requests()[0].LastUser(); !strings.Contains(user, "return a / b") {
		t.Errorf("the code window is missing:\n%s", user)
	}
}
