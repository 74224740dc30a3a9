package redact

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
)

// sourceFile returns the first 2,000 lines of a real source file: Go's own
// go/parser/parser.go (in GOROOT).
func sourceFile(b *testing.B) string {
	b.Helper()
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "go", "parser", "parser.go"))
	if err != nil {
		b.Skipf("no Go source tree: %v", err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	return strings.Join(lines[:min(2000, len(lines))], "")
}

// BenchmarkRedact redacts a typical 2,000-line source file, as every file read for
// the model is, with and without secrets in it, as a code file and as text of no
// file (a pasted problem, a log). It measures the scan a text's first redaction
// pays: File remembers the answer for the same text (spanMemo), so timing File
// in a loop would time the memo.
func BenchmarkRedact(b *testing.B) {
	src := sourceFile(b)
	lines := strings.SplitAfter(src, "\n")
	for i := 100; i < len(lines); i += 200 { // 10 secrets
		lines[i] = `	apiKey := "` + stripeLive + `" // password=hunter22` + "\n"
	}
	withSecrets := strings.Join(lines, "")
	rules() // compiled once per process; measured by BenchmarkCompileRules
	for _, c := range []struct{ name, path, text string }{
		{"go-2000-lines", "go/parser/parser.go", src},
		{"go-2000-lines-10-secrets", "go/parser/parser.go", withSecrets},
		{"text-2000-lines", "", src},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			b.ReportAllocs()
			for b.Loop() {
				applySpans(c.text, scanSpans(c.text, c.path))
			}
		})
	}
}

// BenchmarkCompileRules is what the first redaction of a process pays: parsing
// gitleaks' default configuration, compiling its global allowlists and the
// keyword trie (a rule's expressions are compiled when first used).
func BenchmarkCompileRules(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		rs, err := loadRules(config.DefaultConfig)
		if err != nil {
			b.Fatal(err)
		}
		rs.build()
	}
}
