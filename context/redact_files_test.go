package codectx

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fixplan/plan"
)

// keyBody is a line of key material; the tests check it never comes out.
const keyBody = "c2VjcmV0LWtleS1tYXRlcmlhbC1mb3ItdGVzdHMtb25seQ"

// keyFile is a text file with a private key block on lines 4-10.
func keyFile() string {
	var b strings.Builder
	b.WriteString("# setup notes\nPaste this key into the CI settings:\n\n")
	b.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "%s%d\n", keyBody, i)
	}
	b.WriteString("-----END RSA PRIVATE KEY-----\n")
	b.WriteString("after-key marker\nthe end\n")
	return b.String()
}

// TestSlicesOfKeyBlocksAreRedacted: a line range, a search window, a frame window
// or a log tail that starts inside a key block holds no BEGIN marker; the file or
// log is redacted whole before it is cut.
func TestSlicesOfKeyBlocksAreRedacted(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"notes/setup.md": keyFile(), "app.py": "def f():\n    raise ValueError()\n"})
	g := newGatherer(t, root, Options{LogLastN: 4})
	ctx := context.Background()
	tests := []struct {
		name string
		get  func() (string, error)
		want []string // must be in the text
	}{
		{"read_file range inside the block", func() (string, error) {
			res := g.Fulfil(ctx, plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr("notes/setup.md"), StartLine: ptr(6), EndLine: ptr(8)})
			if !res.OK {
				return "", fmt.Errorf("%s", res.Error)
			}
			if res.Redactions != 1 {
				return "", fmt.Errorf("%d redactions counted, want 1", res.Redactions)
			}
			return res.Text, nil
		}, []string{"6 | [REDACTED]\n7 | [REDACTED]\n8 | [REDACTED]\n"}},
		{"search window starting inside the block", func() (string, error) {
			res := g.Fulfil(ctx, plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqSearch, Query: ptr("after-key")})
			if !res.OK {
				return "", fmt.Errorf("%s", res.Error)
			}
			return res.Text, nil
		}, []string{"notes/setup.md-9- [REDACTED]\n", "notes/setup.md-10- [REDACTED]\n", "notes/setup.md:11: after-key marker\n"}},
		{"log tail starting inside the block", func() (string, error) {
			res := g.Fulfil(ctx, plan.ProblemInput{Logs: []plan.LogSource{{Source: "ci", Text: keyFile()}}},
				plan.ContextRequest{Type: plan.ReqLogs, Source: ptr("ci")})
			if !res.OK {
				return "", fmt.Errorf("%s", res.Error)
			}
			return res.Text, nil
		}, []string{"last 4 of 12 lines\n[REDACTED]\n[REDACTED]\nafter-key marker\n"}},
		{"base context log section", func() (string, error) {
			got, err := g.Base(ctx, plan.ProblemInput{Problem: "it fails", Logs: []plan.LogSource{{Source: "ci", Text: keyFile()}}})
			var b strings.Builder
			for _, s := range got.Sections {
				b.WriteString(s.Body)
			}
			if got.Redactions == 0 {
				return "", fmt.Errorf("no redactions counted")
			}
			return b.String(), err
		}, []string{"[REDACTED]\n[REDACTED]\nafter-key marker\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := tt.get()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(text, keyBody) {
				t.Errorf("key material sent:\n%s", text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("missing %q in:\n%s", w, text)
				}
			}
		})
	}
}

// TestReadRangeOfBigFile: a file over MaxFileBytes cannot be read whole, but a
// line range of it is streamed, redacted (also inside a key block that starts
// before the range) and returned.
func TestReadRangeOfBigFile(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		switch {
		case i == 2000:
			b.WriteString("-----BEGIN OPENSSH PRIVATE KEY-----\n")
		case i > 2000 && i < 2030:
			fmt.Fprintf(&b, "%s%04d\n", keyBody, i)
		case i == 2030:
			b.WriteString("-----END OPENSSH PRIVATE KEY-----\n")
		case i == 3000:
			b.WriteString("db_password=hunter2\n")
		default:
			fmt.Fprintf(&b, "line %d of the log\n", i)
		}
	}
	writeTree(t, root, map[string]string{"big.log": b.String(), "tail.txt": strings.Repeat("x\n", 3000) + "last"})
	g := newGatherer(t, root, Options{MaxFileBytes: 4096, MaxResultBytes: 1 << 20})
	tests := []struct {
		name       string
		path       string
		start, end int
		want       []string
		err        string
		redactions int
	}{
		{"range in the middle", "big.log", 100, 102, []string{"read_file big.log lines 100-102 of 5000\n100 | line 100 of the log\n101 | line 101 of the log\n102 | line 102 of the log\n"}, "", 0},
		{"range inside a key block", "big.log", 2010, 2012, []string{"2010 | [REDACTED]\n2011 | [REDACTED]\n2012 | [REDACTED]\n"}, "", 1},
		{"range over the end of a key block", "big.log", 2028, 2032, []string{"2029 | [REDACTED]\n2030 | [REDACTED]\n2031 | line 2031 of the log\n"}, "", 1},
		{"range with an assignment", "big.log", 3000, 3000, []string{"3000 | db_password=[REDACTED]\n"}, "", 1},
		{"to the end", "tail.txt", 2999, 0, []string{"lines 2999-3001 of 3001\n2999 | x\n3000 | x\n3001 | last\n"}, "", 0},
		{"whole file refused", "big.log", 0, 0, nil, "too big to read whole", 0},
		{"start past the end", "big.log", 6000, 6001, nil, "has only 5000 lines", 0},
		{"start after end", "big.log", 20, 10, nil, "after end_line", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr(tt.path)}
			if tt.start != 0 {
				req.StartLine = ptr(tt.start)
			}
			if tt.end != 0 {
				req.EndLine = ptr(tt.end)
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
			for _, w := range tt.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("missing %q in:\n%s", w, res.Text)
				}
			}
			if strings.Contains(res.Text, keyBody) || strings.Contains(res.Text, "hunter2") {
				t.Errorf("secret sent:\n%s", res.Text)
			}
			if res.Redactions != tt.redactions {
				t.Errorf("%d redactions, want %d", res.Redactions, tt.redactions)
			}
		})
	}
}

// TestStreamRangeIsBounded: a range longer than the byte limit is cut, and the
// label says where to go on.
func TestStreamRangeIsBounded(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big.txt": strings.Repeat(strings.Repeat("y", 99)+"\n", 1000)})
	g := newGatherer(t, root, Options{MaxFileBytes: 2000, MaxResultBytes: 1 << 20})
	text, _, err := g.ReadRange("big.txt", 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "range was cut at 2000 bytes") || strings.Count(text, "\n") > 25 {
		t.Errorf("range not cut at the limit:\n%.300s", text)
	}
}
