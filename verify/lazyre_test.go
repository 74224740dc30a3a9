package verify

import "testing"

// Every pattern compiled on first use must compile: a typo would otherwise only
// show when a user's command output first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	if len(lazyPatterns) < 30 {
		t.Fatalf("only %d lazy patterns registered", len(lazyPatterns))
	}
	for _, l := range lazyPatterns {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("pattern %q does not compile: %v", l.src, r)
				}
			}()
			l.get()
		}()
	}
}
