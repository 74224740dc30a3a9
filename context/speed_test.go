package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// netHTTPFailure is the output of net/http's TestHeaderWrite with every header
// line written without the space after its colon (go1.26, recorded).
const netHTTPFailure = `--- FAIL: TestHeaderWrite (0.00s)
    header_test.go:113: #1:
         got: "Content-Length:0\r\nContent-Type:text/html; charset=UTF-8\r\n"
        want: "Content-Length: 0\r\nContent-Type: text/html; charset=UTF-8\r\n"
    header_test.go:113: #3:
         got: "Content-Encoding:gzip\r\nExpires:-1\r\n"
        want: "Content-Encoding: gzip\r\nExpires: -1\r\n"
    header_test.go:113: #8:
         got: "Content-Type:text/html; charset=UTF-8\r\nNewlineInValue:1  Bar: 2\r\n"
        want: "Content-Type: text/html; charset=UTF-8\r\nNewlineInValue: 1  Bar: 2\r\n"
FAIL
FAIL	net/http	0.005s
FAIL
`

// BenchmarkBaseGoSrc gathers the base context of a net/http test failure in
// Go's own source tree (11,000 files; no repository, so the recent files come
// from the listing's times), without tool probes: the tree's listing, the
// failing test's definition, the message search over the tree and the type
// check of net/http with its tests. bench/speed measures the same on a copy
// with git, as a process.
func BenchmarkBaseGoSrc(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT:", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(filepath.Join(root, "net", "http", "header_test.go")); err != nil {
		b.Skip("no net/http in", root)
	}
	in := plan.ProblemInput{Problem: netHTTPFailure}
	for b.Loop() {
		g, err := New(root, Options{EnvCachePath: ""})
		if err != nil {
			b.Fatal(err)
		}
		g.lookPath = func(string) (string, error) { return "", os.ErrNotExist }
		got, err := g.Base(context.Background(), in)
		g.Close()
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := findSection(got, "definition of"); !ok {
			b.Fatalf("no definitions:\n%s", titles(got))
		}
	}
}
