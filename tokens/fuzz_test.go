package tokens

import (
	"testing"
)

// FuzzCount checks that every text counts as the library counts it (but for
// U+007F, which the library drops: see reference), in both tokenizers. The
// seeds are the adversarial texts of diff_test.go (whitespace mixes of up to
// three characters: TestCountAdversarialTexts counts the longer ones); inputs the fuzzer found are
// kept in testdata/fuzz/FuzzCount, so go test runs them all.
func FuzzCount(f *testing.F) {
	for _, s := range adversarialTexts(3) {
		if len(s) <= 4<<10 {
			f.Add(s)
		}
	}
	es := encodings()
	f.Fuzz(func(t *testing.T, s string) {
		for _, e := range es {
			if msg := e.mismatch(s); msg != "" {
				t.Fatalf("%q: %s", clipQ(s), msg)
			}
		}
	})
}
