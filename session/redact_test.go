package session

import (
	"context"
	"encoding/json"
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

// TestEchoedKeyNeverSaved: a reply that echoes the configured API key in the
// plan's own text, its commands, its file contents, a patch, a memory value or a
// context request leaves no trace of the key in the saved plan file or the
// returned record; a change that carried it holds [REDACTED], is flagged, and
// Apply refuses to write it.
func TestEchoedKeyNeverSaved(t *testing.T) {
	key := gatewayKey
	actions := func(as ...any) func(m map[string]any) {
		return func(m map[string]any) {
			m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": as}
		}
	}
	tests := []struct {
		name    string
		replies []func(m map[string]any)
		changed string // the file whose change carried the key ("" = none)
	}{
		{"summary", []func(m map[string]any){func(m map[string]any) { m["summary"] = "the gateway rejects key " + key + " because it expired" }}, ""},
		{"steps, risks, questions, verification", []func(m map[string]any){func(m map[string]any) {
			m["plan"] = []any{map[string]any{"step": "check " + key, "details": "export FIXPLAN_API_KEY=" + key}}
			m["risks"] = []any{"the key " + key + " is in the shell history"}
			m["questions"] = []any{"is " + key + " still valid?"}
			m["verification"] = []any{"curl -H 'X-Key: " + key + "' https://gw/health"}
			m["rollback"] = []any{"unset " + key}
		}}, ""},
		{"commands", []func(m map[string]any){func(m map[string]any) {
			m["commands_to_run"] = []any{"curl -H 'Authorization: Bearer " + key + "' https://gw/v1/models"}
			m["proposed_changes"] = map[string]any{"patch": nil, "actions": []any{}, "commands_to_run": []any{"FIXPLAN_API_KEY=" + key + " pytest -q"}}
		}}, ""},
		{"updated file content", []func(m map[string]any){actions(map[string]any{"kind": "UPDATE_FILE", "path": "calc.py",
			"content": "API_KEY = \"" + key + "\"\n\ndef divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n"})}, "calc.py"},
		{"created file content", []func(m map[string]any){actions(map[string]any{"kind": "CREATE_FILE", "path": "settings.cfg", "content": "FIXPLAN_API_KEY=" + key + "\n"})}, "settings.cfg"}, // not *.env: a secret file, which fixplan never writes
		{"patch", []func(m map[string]any){func(m map[string]any) {
			m["proposed_changes"] = map[string]any{"actions": []any{}, "commands_to_run": []any{},
				"patch": "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,3 @@\n+KEY = \"" + key + "\"\n def divide(a, b):\n     return a / b\n"}
		}}, "calc.py"},
		{"memory value", []func(m map[string]any){func(m map[string]any) {
			m["memory_patch"] = []any{map[string]any{"key": "project.notes", "value": "the gateway key is " + key}}
		}}, ""},
		{"context request", []func(m map[string]any){requests(map[string]any{"type": "search", "query": key}), nil}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FIXPLAN_API_KEY", key)
			var replies []llmtest.Reply
			for _, mut := range tt.replies {
				replies = append(replies, reply(t, mut))
			}
			f := newFixture(t, nil, replies...)
			rec, err := f.plan(t)
			if err != nil {
				t.Fatal(err)
			}
			saved := planFileBytes(t, f.root, rec.ID)
			if strings.Contains(string(saved), key) {
				t.Errorf("the saved plan file holds the key:\n%.3000s", saved)
			}
			if !strings.Contains(string(saved), "[REDACTED]") {
				t.Errorf("the saved plan shows no redaction:\n%.3000s", saved)
			}
			if b, _ := json.Marshal(rec); strings.Contains(string(b), key) {
				t.Errorf("the returned record holds the key:\n%.3000s", b)
			}
			if tt.changed == "" {
				return
			}
			var flagged bool
			for _, c := range rec.Changes {
				if c.Path == tt.changed {
					flagged = strings.Contains(strings.Join(c.Flags, "\n"), "writes [REDACTED]") && strings.Contains(c.Diff, "[REDACTED]")
				}
			}
			if !flagged {
				t.Errorf("the change of %s is not flagged: %+v", tt.changed, rec.Changes)
			}
			before, _ := os.ReadFile(filepath.Join(f.root, tt.changed))
			if _, err := f.s.Apply(context.Background(), rec.ID, nil, nil); err == nil || !strings.Contains(err.Error(), "[REDACTED]") {
				t.Errorf("Apply = %v; want it refused for writing the [REDACTED] mark", err)
			}
			if after, _ := os.ReadFile(filepath.Join(f.root, tt.changed)); string(after) != string(before) || strings.Contains(string(after), key) {
				t.Errorf("%s changed: %q", tt.changed, after)
			}
		})
	}
}
