package section

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/plan"
)

func TestCap(t *testing.T) {
	text := strings.Repeat("0123456789\n", 10) // 10 lines, 110 bytes
	tests := []struct {
		name string
		max  int
		want string
	}{
		{"fits", 110, text},
		{"cut", 60, strings.Repeat("0123456789\n", 3) + "…[truncated 7 lines]"},
		{"no room", 5, "…[truncated 10 lines]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Cap(text, tt.max); got != tt.want {
				t.Errorf("Cap = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNumbered(t *testing.T) {
	lines := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	if got, want := Numbered(lines, 8, 10), " 8 | h\n 9 | i\n10 | j\n"; got != want {
		t.Errorf("Numbered = %q, want %q", got, want)
	}
}

// TestShown: a candidate cut by the per-section cap shows only the numbered
// lines left before the cut, as runs of lines.
func TestShown(t *testing.T) {
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = strings.Repeat("x", 20)
	}
	body := Numbered(lines, 1, 10) + "…\n" + Numbered(lines, 21, 40)
	c := Candidate{Sec: plan.Section{Title: "File f", Body: body}, Ranges: []LineRange{{1, 10}, {21, 40}}}
	if got := fmt.Sprint(c.Shown(len(body))); got != "[{1 10} {21 40}]" {
		t.Errorf("uncut: Shown = %s", got)
	}
	if got := fmt.Sprint(c.Shown(15 * 27)); got != "[{1 10} {21 24}]" {
		t.Errorf("cut: Shown = %s (ShownLines %v)", got, ShownLines(body, 15*27))
	}
}

func TestList(t *testing.T) {
	if got := List([]string{"a", "b", "c"}, 3); got != "a, b, c" {
		t.Errorf("List = %q", got)
	}
	if got := List([]string{"a", "b", "c"}, 2); got != "a, b, …" {
		t.Errorf("List = %q", got)
	}
}
