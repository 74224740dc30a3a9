package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCheck measures what the syntax check adds to a preview: an update of
// a 2,000-line file whose new content parses (the common case: after parses,
// before is not parsed) and one that breaks it (both are parsed).
func BenchmarkCheck(b *testing.B) {
	gen := func(line func(i int) string) string {
		var sb strings.Builder
		for i := 0; i < 2000; i++ {
			sb.WriteString(line(i))
		}
		return sb.String()
	}
	goSrc := "package big\n\n" + gen(func(i int) string { return fmt.Sprintf("func F%d(a, b int) int { return a*%d + b }\n", i, i) })
	tsSrc := gen(func(i int) string {
		return fmt.Sprintf("export const f%d = (a: number, b: number): number => a * %d + b;\n", i, i)
	})
	jsonSrc := "[" + gen(func(i int) string { return fmt.Sprintf("{\"id\": %d, \"name\": \"item %d\"},\n", i, i) }) + "{}]"
	yamlSrc := gen(func(i int) string { return fmt.Sprintf("key%d:\n  id: %d\n  tags: [a, b]\n", i, i) })
	for _, tc := range []struct{ name, path, src, broken string }{
		{"Go", "big.go", goSrc, strings.Replace(goSrc, "return a*7 + b }", "return a*7 + }", 1)},
		{"TypeScript", "big.ts", tsSrc, strings.Replace(tsSrc, "a * 7 + b;", "a * 7 + ;", 1)},
		{"JSON", "big.json", jsonSrc, strings.Replace(jsonSrc, `"id": 7,`, `"id": 7,,`, 1)},
		{"YAML", "big.yaml", yamlSrc, strings.Replace(yamlSrc, "key7:\n  id: 7", "key7:\n id: 7\n   x", 1)},
	} {
		if Check(tc.path, []byte(tc.src), []byte(tc.broken)) == nil {
			b.Fatalf("%s: the broken variant parses", tc.name)
		}
		b.Run(tc.name+"/parses", func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for i := 0; i < b.N; i++ {
				Check(tc.path, []byte(tc.src), []byte(tc.src))
			}
		})
		b.Run(tc.name+"/broken", func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for i := 0; i < b.N; i++ {
				Check(tc.path, []byte(tc.src), []byte(tc.broken))
			}
		})
	}
}

// BenchmarkDepth measures the nesting screen that runs before esbuild (the
// part of BenchmarkCheck/TypeScript that is not parsing).
func BenchmarkDepth(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "export const f%d = (a: number, b: number): number => a * %d + b; // f(%d)\n", i, i, i)
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		depthOf("big.ts", "TypeScript", src)
	}
}
