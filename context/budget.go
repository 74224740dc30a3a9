package codectx

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// truncMarker is appended where text was cut; the model sees how much is missing.
func truncMarker(lines int) string { return fmt.Sprintf("…[truncated %d lines]", lines) }

// capText cuts text to at most max bytes (marker included) at a line boundary
// and marks the cut with …[truncated N lines]. Text within max is returned as is.
func capText(text string, max int) string {
	if max <= 0 || len(text) <= max {
		return text
	}
	total := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		total++
	}
	room := max - len(truncMarker(total)) - 1
	if room < 0 {
		room = 0
	}
	cut := strings.LastIndexByte(text[:room], '\n') + 1
	kept := strings.Count(text[:cut], "\n")
	return text[:cut] + truncMarker(total-kept)
}

// numbered renders lines[from-1:to] (1-based, inclusive) with right-aligned line
// numbers: "  12 | text".
func numbered(lines []string, from, to int) string {
	w := len(strconv.Itoa(to))
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%*d | %s\n", w, i, lines[i-1])
	}
	return b.String()
}

// lineRange is an inclusive 1-based range of lines.
type lineRange struct{ from, to int }

// windows returns the ranges ±n lines around each center, clamped to [1,total]
// and merged where they overlap or touch, in file order.
func windows(centers []int, n, total int) []lineRange {
	var rs []lineRange
	for _, c := range centers {
		if c < 1 || c > total {
			continue
		}
		rs = append(rs, lineRange{max(1, c-n), min(total, c+n)})
	}
	slices.SortFunc(rs, func(a, b lineRange) int { return a.from - b.from })
	var out []lineRange
	for _, r := range rs {
		if k := len(out) - 1; k >= 0 && r.from <= out[k].to+1 {
			out[k].to = max(out[k].to, r.to)
			continue
		}
		out = append(out, r)
	}
	return out
}
