package codectx

import (
	"testing"

	"fixplan/internal/lazyre"
)

// Every pattern compiled on first use must compile: a typo would otherwise only
// show when a user's output first reaches it. The test binary links every
// package of the context (frames, defs, envprobe, section, ...), so all their
// patterns are registered.
func TestLazyPatternsCompile(t *testing.T) {
	patterns := lazyre.All()
	if len(patterns) < 40 {
		t.Fatalf("only %d lazy patterns registered", len(patterns))
	}
	for _, l := range patterns {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("pattern %q does not compile: %v", l.Source(), r)
				}
			}()
			l.Regexp()
		}()
	}
}
