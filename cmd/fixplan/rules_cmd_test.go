package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// TestContextBaseRules: `fixplan context base` shows the project's rules
// section and which files it used; --no-rules and the no_project_rules setting
// leave it out.
func TestContextBaseRules(t *testing.T) {
	root := t.TempDir()
	for p, c := range map[string]string{
		"AGENTS.md":     "Run tests with make test.\n",
		"app/AGENTS.md": "App code uses Decimal for money.\n",
		"app/calc.py":   "def add(a, b):\n    return a - b\n",
	} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settingsOff := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(settingsOff, []byte(`{"no_project_rules": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	settingsOn := filepath.Join(t.TempDir(), "settings.json") // missing: defaults
	problem := "  File \"app/calc.py\", line 2, in add\n"
	tests := []struct {
		name     string
		settings string
		args     []string
		rules    bool
	}{
		{"default", settingsOn, nil, true},
		{"--no-rules", settingsOn, []string{"--no-rules"}, false},
		{"setting off", settingsOff, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			e := &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
				if k == "FIXPLAN_SETTINGS" {
					return tt.settings
				}
				return ""
			}}
			args := append([]string{"--root", root, "context", "base", "--problem", problem}, tt.args...)
			if code := run(context.Background(), e, args); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			got := out.String()
			has := strings.Contains(got, "=== Project rules (app/AGENTS.md, AGENTS.md) ===") &&
				strings.Contains(got, "App code uses Decimal") && strings.Contains(got, "--- app/AGENTS.md (nearest to app/calc.py) ---")
			if has != tt.rules || (!tt.rules && strings.Contains(got, "Decimal")) {
				t.Errorf("rules shown = %v, want %v:\n%s", has, tt.rules, got)
			}
		})
	}
}

// TestPlanNoRules: fixplan plan sends the project's AGENTS.md as PROJECT RULES,
// and --no-rules leaves it out of what reaches the model.
func TestPlanNoRules(t *testing.T) {
	for _, off := range []bool{false, true} {
		root := cliProject(t)
		if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("Use pytest -q for tests.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		srv := llmtest.NewServer(t, llmtest.Reply{Content: goodPlan})
		args := []string{"--root", root, "plan", "--problem", traceback, "--json"}
		if off {
			args = append(args, "--no-rules")
		}
		if code, _, errOut := runEnv(t, providerEnv(srv), "", args...); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		user := srv.Requests()[0].LastUser()
		if sent := strings.Contains(user, "PROJECT RULES ") && strings.Contains(user, " — Project rules (AGENTS.md)") && strings.Contains(user, "Use pytest -q"); sent == off {
			t.Errorf("--no-rules=%v: rules sent = %v:\n%s", off, sent, user)
		}
	}
}
