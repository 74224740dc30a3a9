package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse measures parsing a strict reply and a prose-wrapped one with a
// large whole-file action (the common case of a model rewriting one file).
func BenchmarkParse(b *testing.B) {
	strict, err := os.ReadFile(filepath.Join("testdata", "parse", "strict.txt"))
	if err != nil {
		b.Fatal(err)
	}
	big := strings.Replace(string(strict), `raise ValueError(\"b must not be 0\")\n`, strings.Repeat(`x = 1  # padding line\n`, 2000), 1)
	wrapped := "Here is the plan:\n```json\n" + big + "\n```\nDone."
	for _, tc := range []struct {
		name string
		raw  []byte
	}{{"strict", strict}, {"prose-wrapped 46KB", []byte(wrapped)}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.raw)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Parse(tc.raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
