package codectx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

func TestFulfilReadFile(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"f.txt":     "one\ntwo\r\nthree\nfour\nfive\n",
		"cfg.yaml":  "db:\n  password: s3cretvalue\n",
		"empty.go":  "",
		"long.txt":  strings.Repeat("abcdefghij\n", 100),
		"alias.txt": "->f.txt",
	})
	g := newGatherer(t, root, Options{MaxResultBytes: 300})
	tests := []struct {
		name       string
		path       string
		start, end *int
		want       string
		err        string
		whole      bool
	}{
		{"whole", "f.txt", nil, nil, "read_file f.txt lines 1-5 of 5\n1 | one\n2 | two\n3 | three\n4 | four\n5 | five\n", "", true},
		{"range", "f.txt", ptr(2), ptr(3), "read_file f.txt lines 2-3 of 5\n2 | two\n3 | three\n", "", false},
		{"clamped end", "f.txt", ptr(4), ptr(99), "read_file f.txt lines 4-5 of 5\n4 | four\n5 | five\n", "", false},
		{"clamped start", "f.txt", ptr(-3), ptr(1), "read_file f.txt lines 1-1 of 5\n1 | one\n", "", false},
		{"start only", "f.txt", ptr(5), nil, "read_file f.txt lines 5-5 of 5\n5 | five\n", "", false},
		{"start past end", "f.txt", ptr(9), nil, "", "only 5 lines", false},
		{"start after end", "f.txt", ptr(4), ptr(2), "", "after end_line", false},
		{"symlink inside the root keeps the asked path", "alias.txt", ptr(1), ptr(1), "read_file alias.txt lines 1-1 of 5\n1 | one\n", "", false},
		{"backslash path", `.\f.txt`, ptr(1), ptr(1), "read_file f.txt lines 1-1 of 5\n1 | one\n", "", false},
		{"redacted", "cfg.yaml", nil, nil, "read_file cfg.yaml lines 1-2 of 2\n1 | db:\n2 |   password: [REDACTED]\n", "", true},
		{"empty file", "empty.go", nil, nil, "read_file empty.go lines 1-1 of 1\n1 | \n", "", true},
		{"capped", "long.txt", nil, nil, "", "", true},
		{"no path", "", nil, nil, "", "needs a path", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := plan.ContextRequest{Type: plan.ReqReadFile, StartLine: tt.start, EndLine: tt.end}
			if tt.path != "" {
				req.Path = ptr(tt.path)
			}
			res := g.Fulfil(context.Background(), plan.ProblemInput{}, req)
			if tt.err != "" {
				if res.OK || !strings.Contains(res.Error, tt.err) {
					t.Fatalf("got OK=%v %q, want error %q", res.OK, res.Error, tt.err)
				}
				return
			}
			if !res.OK {
				t.Fatalf("refused: %s", res.Error)
			}
			if tt.name == "capped" {
				if len(res.Text) > 300 || !strings.HasSuffix(res.Text, "lines]") {
					t.Errorf("not capped: %d bytes, ends %q", len(res.Text), res.Text[len(res.Text)-20:])
				}
				if len(res.Seen) != 1 || res.Seen[0].Whole {
					t.Errorf("Seen = %+v, want the file marked as partly seen", res.Seen)
				}
				return
			}
			if res.Text != tt.want {
				t.Errorf("text = %q, want %q", res.Text, tt.want)
			}
			if len(res.Seen) != 1 || res.Seen[0].Whole != tt.whole {
				t.Errorf("Seen = %+v, want whole=%v", res.Seen, tt.whole)
			}
		})
	}
}

func TestFulfilLogs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"var/app.log":           "a\nb\nc\nd\n",
		".fixplan/project.json": `{"project": {"log_paths": {"runtime": "var/app.log", "evil": "../../etc/passwd"}}}`,
		"bin.log":               "x\x00y",
	})
	outside := filepath.Join(t.TempDir(), "build.txt")
	if err := os.WriteFile(outside, []byte("compiling\nerror: boom\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := newGatherer(t, root, Options{LogLastN: 2})
	in := plan.ProblemInput{Logs: []plan.LogSource{
		{Source: "verification", Text: "$ pytest -q\n1 failed\napi_key=abcdef123456\n"},
		{Source: "build", Path: outside},
		{Source: "bin", Path: "bin.log"},
	}}
	tests := []struct {
		name, source string
		lastN        *int
		want, err    string
	}{
		{"captured text, default last n", "verification", nil, "logs verification (captured output): last 2 of 3 lines\n1 failed\napi_key=[REDACTED]\n", ""},
		{"attached outside the root", "build", ptr(10), "logs build (attached log build.txt): last 2 of 2 lines\ncompiling\nerror: boom\n", ""},
		{"configured in project memory", "runtime", ptr(1), "logs runtime (configured log var/app.log): last 1 of 4 lines\nd\n", ""},
		{"case-insensitive source", "RUNTIME", ptr(1), "logs runtime (configured log var/app.log): last 1 of 4 lines\nd\n", ""},
		{"configured path escaping the root is never offered", "evil", nil, "", `no log source "evil"`},
		{"binary log", "bin", nil, "", "binary"},
		{"unknown source lists the known ones", "nope", nil, "", "available: bin, build, runtime, verification"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := g.Fulfil(context.Background(), in, plan.ContextRequest{Type: plan.ReqLogs, Source: ptr(tt.source), LastN: tt.lastN})
			if tt.err != "" {
				if res.OK || !strings.Contains(res.Error, tt.err) {
					t.Fatalf("got OK=%v %q %q, want error %q", res.OK, res.Text, res.Error, tt.err)
				}
				return
			}
			if !res.OK || res.Text != tt.want {
				t.Errorf("got OK=%v %q %q, want %q", res.OK, res.Text, res.Error, tt.want)
			}
		})
	}
}

func TestFulfilBadRequests(t *testing.T) {
	g := newGatherer(t, t.TempDir(), Options{})
	tests := []struct {
		name string
		req  plan.ContextRequest
		err  string
	}{
		{"unknown type", plan.ContextRequest{Type: "shell"}, `unknown request type "shell"`},
		{"search without query", plan.ContextRequest{Type: plan.ReqSearch}, "non-empty query"},
		{"logs without source", plan.ContextRequest{Type: plan.ReqLogs}, "needs a source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := g.Fulfil(context.Background(), plan.ProblemInput{}, tt.req)
			if res.OK || !strings.Contains(res.Error, tt.err) {
				t.Errorf("got OK=%v %q, want %q", res.OK, res.Error, tt.err)
			}
			if res.Request.Type != tt.req.Type {
				t.Error("result does not carry its request")
			}
		})
	}
}

func TestNewRefusesMissingRoot(t *testing.T) {
	_, err := New(filepath.Join(t.TempDir(), "nope"), Options{})
	if plan.CodeOf(err) != plan.ErrInvalidInput {
		t.Errorf("err = %v, want %s", err, plan.ErrInvalidInput)
	}
}

// TestLogsTailOfBigFile reads only the end of a log bigger than the tail window
// and never shows the partial line where the window starts.
func TestLogsTailOfBigFile(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "log line %07d\n", i)
	}
	p := filepath.Join(t.TempDir(), "big.log")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	g := newGatherer(t, t.TempDir(), Options{})
	text, err := g.Logs(plan.ProblemInput{Logs: []plan.LogSource{{Source: "runtime", Path: p}}}, "runtime", 3)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if got, want := strings.Join(lines[1:], "\n"), strings.Join(all[len(all)-3:], "\n"); got != want {
		t.Errorf("last lines = %q, want %q", got, want)
	}
	// asking for more lines than the window holds: every line shown is whole
	text, err = g.Logs(plan.ProblemInput{Logs: []plan.LogSource{{Source: "runtime", Path: p}}}, "runtime", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n")[1:] {
		if !strings.HasPrefix(l, "log line ") || len(l) != len("log line 0000000") {
			t.Fatalf("partial line %q", l)
		}
	}
}
