package edit

import (
	"strings"
	"testing"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// FuzzPatch feeds arbitrary patches through the cleaner, go-gitdiff and the placer
// against a fixed file: no panic, and a placed result is valid line-joined text.
func FuzzPatch(f *testing.F) {
	f.Add("--- a/f.go\n+++ b/f.go\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n", "a\nb\nc\nd\n")
	f.Add("```diff\n--- f.go\n+++ f.go\n@@ -1 +1,2 @@\n a\n+x\n```", "a\r\nb\r\n")
	f.Add("--- /dev/null\n+++ b/f.go\n@@ -0,0 +1 @@\n+new\n", "")
	f.Add("@@\n-a\n+b\n", "a\n")
	f.Add("--- a/f.go\n+++ b/f.go\n@@ -1,2 +1,1 @@\n-a\n b\n\\ No newline at end of file\n", "a\nb")
	f.Fuzz(func(t *testing.T, patch, before string) {
		cleaned, err := cleanPatch(patch)
		if err != nil {
			return
		}
		files, _, err := gitdiff.Parse(strings.NewReader(cleaned))
		if err != nil {
			return
		}
		for _, fl := range files {
			after, placements, err := Place("f.go", []byte(before), fl.TextFragments)
			if err != nil {
				continue
			}
			if len(placements) != len(fl.TextFragments) {
				t.Fatalf("%d placements for %d hunks", len(placements), len(fl.TextFragments))
			}
			_ = after
		}
	})
}
