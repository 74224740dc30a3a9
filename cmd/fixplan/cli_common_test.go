package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fixplan/llm/llmtest"
)

// The CLI as the tests run it: a project, a scripted environment, one user per test.

const cliKey = "sk-cli-SECRET-000111222333"

const traceback = `Traceback (most recent call last):
  File "test_calc.py", line 5, in test_divide_by_zero
    assert divide(1, 0) is None
  File "calc.py", line 2, in divide
    return a / b
ZeroDivisionError: division by zero`

func cliProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range map[string]string{
		"calc.py":      "def divide(a, b):\n    return a / b\n",
		"test_calc.py": "from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) is None\n",
	} {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// runEnv runs the CLI with a scripted environment.
func runEnv(t *testing.T, vars map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runIn(t, vars, stdin, false, args...)
}

// runTerminal is runEnv with stdin a terminal: questions are asked and answered
// from stdin.
func runTerminal(t *testing.T, vars map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runIn(t, vars, stdin, true, args...)
}

func runIn(t *testing.T, vars map[string]string, stdin string, tty bool, args ...string) (int, string, string) {
	t.Helper()
	cfg := userConfig(t)
	getenv := func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		switch k {
		case "FIXPLAN_SETTINGS":
			return filepath.Join(cfg, "settings.json")
		case "FIXPLAN_USER_PREFS":
			return filepath.Join(cfg, "preferences.json")
		}
		return ""
	}
	var out, errb bytes.Buffer
	e := &env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: getenv, StdinIsTTY: tty}
	code := run(context.Background(), e, args)
	return code, out.String(), errb.String()
}

// userConfig is one config folder per top-level test: the same "user" (and state
// key) across the CLI runs of a test, as for a real user.
func userConfig(t *testing.T) string {
	cfgMu.Lock()
	defer cfgMu.Unlock()
	top, _, _ := strings.Cut(t.Name(), "/")
	if d, ok := cfgDirs[top]; ok {
		return d
	}
	d, err := os.MkdirTemp("", "fixplan-cli-cfg-")
	if err != nil {
		t.Fatal(err)
	}
	cfgDirs[top] = d
	return d
}

var (
	cfgMu   sync.Mutex
	cfgDirs = map[string]string{}
)

func providerEnv(srv *llmtest.Server) map[string]string {
	return map[string]string{"FIXPLAN_BASE_URL": srv.URL(), "FIXPLAN_MODEL": "fake-model", "FIXPLAN_API_KEY": cliKey}
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range cfgDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}
