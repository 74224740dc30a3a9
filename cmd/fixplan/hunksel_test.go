package main

import (
	"strings"
	"testing"
)

// A hunk selector is user input: a range ending at the largest int looped forever
// (n++ overflowed) and many large ranges grew without bound; both are refused now.
func TestHunkSelectorBounds(t *testing.T) {
	for _, v := range []string{
		"app/h.js:9223372036854775807-9223372036854775807,1",
		"app/h.js:1-9223372036854775807",
		"app/h.js:" + strings.Repeat("1-1000000,", 3),
		"app/h.js:0",
		"app/h.js:3-2",
	} {
		if fc, err := parseHunkSel(v); err == nil {
			t.Errorf("%.60s: accepted with %d hunks", v, len(fc.Hunks))
		}
	}
	fc, err := parseHunkSel("app/h.js:1,3-5")
	if err != nil || len(fc.Hunks) != 4 || fc.Path != "app/h.js" {
		t.Fatalf("1,3-5 = %+v, %v", fc, err)
	}
}
