package session

import (
	"strings"
	"testing"
)

// TestScrubStream: a key split across output chunks never reaches the display;
// nothing else is held back at the end.
func TestScrubStream(t *testing.T) {
	const key = "correct-horse-battery-staple-4242"
	sc := scrubber(knownSecrets([]string{key}))
	out := "line one\nthe key is " + key + " and again " + key + "\nlast line"
	for size := 1; size <= len(out); size++ {
		var got strings.Builder
		write, flush := sc.stream(func(s string) { got.WriteString(s) })
		for i := 0; i < len(out); i += size {
			write(out[i:min(i+size, len(out))])
			if strings.Contains(got.String(), key[:len(key)/2+1]) {
				t.Fatalf("chunks of %d: part of the key was shown: %q", size, got.String())
			}
		}
		flush()
		if want := strings.ReplaceAll(out, key, "[REDACTED]"); got.String() != want {
			t.Fatalf("chunks of %d: %q, want %q", size, got.String(), want)
		}
	}
	if w, flush := scrubber(nil).stream(nil); w != nil {
		t.Fatal("a nil sink got a writer")
	} else {
		flush()
	}
}
