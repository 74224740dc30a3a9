package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateContext = flag.Bool("update-context", false, "rewrite testdata/context goldens")

// contextProject builds a small project for the context CLI tests.
func contextProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"app/calc.py":        "def add(a, b):\n    return a - b\n\n\ndef div(a, b):\n    return a / b\n",
		"tests/test_calc.py": "from app.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
		"app/settings.py":    "password = 'hunter22'\n",
		".env":               "TOKEN=add-secret\n",
		"many.txt":           strings.Repeat("hit\n", 60),
		"logs/run.log":       "start\nboom\n",
	}
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const cliTrace = `Traceback (most recent call last):
  File "/home/alice/proj/tests/test_calc.py", line 5, in test_add
    assert add(2, 3) == 5
  File "C:\Users\bob\proj\app\calc.py", line 2, in add
  File "/usr/lib/python3.11/site-packages/_pytest/python.py", line 160, in call
at Object.<anonymous> (/srv/web/src/server.js:14:32)
`

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = run(context.Background(), e, args)
	return code, out.String(), errb.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", "context", name)
	if *updateContext {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("read golden (go test -run Context -update-context): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s\ngot:\n%s\nwant:\n%s", p, got, want)
	}
}

func TestContextCommand(t *testing.T) {
	root := contextProject(t)
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		golden string // compare stdout with testdata/context/<golden>
		out    string // else stdout must contain this
		errOut string // stderr must contain this
	}{
		{name: "trace json", stdin: cliTrace, args: []string{"trace", "--json"}, golden: "trace.golden.json"},
		{name: "trace text", stdin: cliTrace, args: []string{"trace"}, golden: "trace.golden.txt"},
		{name: "read range", args: []string{"read", "app/calc.py", "--lines", "2:3"}, out: "read_file app/calc.py lines 2-3 of 6\n2 |     return a - b\n3 | \n"},
		{name: "read flags first", args: []string{"read", "--lines", "5:", "app/calc.py"}, out: "read_file app/calc.py lines 5-6 of 6\n5 | def div(a, b):\n6 |     return a / b\n"},
		{name: "read redacts", args: []string{"read", "app/settings.py"}, out: "1 | password = '[REDACTED]'\n"},
		{name: "read secret refused", args: []string{"read", ".env"}, code: 1, errOut: "secret file"},
		{name: "read outside refused", args: []string{"read", "../x"}, code: 1, errOut: "outside the project root"},
		{name: "read bad lines", args: []string{"read", "app/calc.py", "--lines", "a:b"}, code: 2, errOut: "want A:B"},
		{name: "read without path", args: []string{"read"}, code: 2, errOut: "exactly one PATH"},
		{name: "search json", args: []string{"search", "add", "--json"}, golden: "search.golden.json"},
		{name: "search text", args: []string{"search", "add", "--glob", "**/*.py"}, golden: "search.golden.txt"},
		{name: "search bad glob", args: []string{"search", "x", "--glob", "[a"}, code: 1, errOut: "invalid glob"},
		{name: "logs attached", args: []string{"logs", "test", "--last", "1", "--log", "test=" + filepath.Join(root, "logs/run.log")}, out: "logs test (attached log run.log): last 1 of 2 lines\nboom\n"},
		{name: "logs unknown", args: []string{"logs", "runtime"}, code: 1, errOut: "no log source"},
		{name: "logs bad flag", args: []string{"logs", "test", "--log", "nofile"}, code: 2, errOut: "SOURCE=FILE"},
		{name: "base problem", args: []string{"base", "--problem", cliTrace}, out: "=== File app/calc.py lines 1-6 of 6 (around the stack frames) ===\n1 | def add(a, b):\n"},
		{name: "base stdin", stdin: "FAILED tests/test_calc.py::test_add", args: []string{"base", "--problem-file", "-"}, out: "(failing test test_add) ===\n"},
		{name: "base without problem", args: []string{"base"}, code: 2, errOut: "--problem"},
		{name: "no subcommand", args: nil, code: 2, errOut: "usage: fixplan"},
		{name: "unknown subcommand", args: []string{"grep"}, code: 2, errOut: "unknown subcommand"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.stdin, append([]string{"--root", root, "context"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			switch {
			case tt.golden != "":
				checkGolden(t, tt.golden, out)
			case tt.out != "" && !strings.Contains(out, tt.out):
				t.Errorf("stdout lacks %q:\n%s", tt.out, out)
			}
			if !strings.Contains(errOut, tt.errOut) {
				t.Errorf("stderr %q lacks %q", errOut, tt.errOut)
			}
			if strings.Contains(out+errOut, "hunter22") || strings.Contains(out+errOut, "add-secret") {
				t.Error("a secret reached the output")
			}
		})
	}
}

func TestContextSearchMax(t *testing.T) {
	root := contextProject(t)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"default is the model's bound", nil, 50},
		{"explicit max", []string{"--max", "7"}, 7},
		{"max 0 is every match", []string{"--max", "0"}, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--root", root, "context", "search", "hit", "--json"}, tt.args...)
			code, out, errOut := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var ms []struct {
				Path string `json:"path"`
				Line int    `json:"line"`
				Text string `json:"text"`
			}
			if err := json.Unmarshal([]byte(out), &ms); err != nil {
				t.Fatalf("bad JSON: %v\n%s", err, out)
			}
			if len(ms) != tt.want {
				t.Errorf("%d matches, want %d", len(ms), tt.want)
			}
		})
	}
}

func TestContextEnv(t *testing.T) {
	code, out, errOut := runCLI(t, "", "--root", contextProject(t), "context", "env")
	if code != 0 || !strings.HasPrefix(out, "os: ") || !strings.Contains(out, "virtualenv: ") {
		t.Errorf("exit %d, out %q, err %q", code, out, errOut)
	}
}

func TestAppendJSONString(t *testing.T) {
	tests := []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\r", "ctl\x01\x1f", "ünï ☃", "bad\xffutf8", "<html>&"}
	for _, s := range tests {
		t.Run(s, func(t *testing.T) {
			var back string
			if err := json.Unmarshal(appendJSONString(nil, s), &back); err != nil {
				t.Fatalf("invalid JSON for %q: %v", s, err)
			}
			want, _ := json.Marshal(s)
			var wantBack string
			_ = json.Unmarshal(want, &wantBack)
			if back != wantBack {
				t.Errorf("round trip %q = %q, want %q", s, back, wantBack)
			}
		})
	}
}
