package edit

import (
	"fmt"
	"strings"
)

// A refusal shows the lines the model expected and the closest lines of the
// file, so the model (or the user) sees what the file really says there.

// limit keeps the first n lines of ss, and a line saying how many more there are.
func limit(ss []string, n int) []string {
	if len(ss) > n {
		return append(ss[:n:n], fmt.Sprintf("… (%d more lines)", len(ss)-n))
	}
	return ss
}

// closest finds the window of lines sharing the most (whitespace-trimmed) lines with old.
func closest(lines, old []string) (int, int) {
	best, bestScore := 0, 0
	for i := 0; i < len(lines); i++ {
		score := 0
		for j := 0; j < len(old) && i+j < len(lines); j++ {
			if strings.TrimSpace(lines[i+j]) == norm(old[j], levelIndent) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, bestScore
}

// resembling finds the window of lines most like search when no line is equal:
// each line scores the share of its characters in a common prefix and suffix
// (whitespace-trimmed), counted from half similar.
func resembling(lines, search []string) (int, int) {
	if len(lines)*len(search) > 4<<20 {
		return 0, 0
	}
	best, bestScore := 0, 0
	for i := range lines {
		score := 0
		for j := 0; j < len(search) && i+j < len(lines); j++ {
			a, b := strings.TrimSpace(lines[i+j]), strings.TrimSpace(search[j])
			n := max(len(a), len(b))
			if n == 0 {
				continue
			}
			p := 0
			for p < len(a) && p < len(b) && a[p] == b[p] {
				p++
			}
			q := 0
			for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
				q++
			}
			if 2*(p+q) >= n {
				score += 100 * (p + q) / n
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, bestScore
}
