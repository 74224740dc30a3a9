// Package section is the unit of the base context: a titled body of text that
// may show lines of one project file (Candidate), and how such text is cut to a
// byte budget (Cap) and numbered (Numbered). The gatherer (package codectx)
// ranks and budgets the candidates the context packages build.
package section

import (
	"fmt"
	"strconv"
	"strings"

	"fixplan/internal/lazyre"
	"fixplan/plan"
)

// Candidate is a section before the budget is applied, with the file it shows.
type Candidate struct {
	Sec    plan.Section
	Seen   *plan.SeenFile // the file whose lines it shows, or nil
	Ranges []LineRange    // the file's lines shown
	// Redacted is set when the body was cut out of a text redacted whole
	// (files, logs); Redactions is then the number of redactions it shows. The
	// budget redacts the other bodies itself.
	Redacted   bool
	Redactions int
}

// LineRange is an inclusive 1-based range of lines.
type LineRange struct{ From, To int }

// truncMarker is appended where text was cut; the model sees how much is missing.
func truncMarker(lines int) string { return fmt.Sprintf("…[truncated %d lines]", lines) }

// Cap cuts text to at most max bytes (marker included) at a line boundary and
// marks the cut with …[truncated N lines]. Text within max is returned as is.
func Cap(text string, max int) string {
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

// Numbered renders lines[from-1:to] (1-based, inclusive) with right-aligned line
// numbers: "  12 | text".
func Numbered(lines []string, from, to int) string {
	w := len(strconv.Itoa(to))
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%*d | %s\n", w, i, lines[i-1])
	}
	return b.String()
}

// numberedLineRe finds the line number of a numbered line ("  12 | text").
var numberedLineRe = lazyre.New(`(?m)^\s*(\d+) \| `)

// ShownLines returns the numbers of the numbered lines ("  12 | text") body
// still shows once cut at maxBody bytes (the per-section cap), in order.
func ShownLines(body string, maxBody int) []int {
	var out []int
	for _, sm := range numberedLineRe.FindAllStringSubmatch(Cap(body, maxBody), -1) {
		n, _ := strconv.Atoi(sm[1])
		out = append(out, n)
	}
	return out
}

// Shown returns the lines of c's file that its body still shows once cut at
// maxBody bytes (the per-section cap): c.Ranges when it fits.
func (c Candidate) Shown(maxBody int) []LineRange {
	if maxBody <= 0 || len(c.Sec.Body) <= maxBody {
		return c.Ranges
	}
	var out []LineRange
	for _, n := range ShownLines(c.Sec.Body, maxBody) {
		if k := len(out) - 1; k >= 0 && n == out[k].To+1 {
			out[k].To = n
			continue
		}
		out = append(out, LineRange{n, n})
	}
	return out
}

// List joins up to max names, then "…".
func List(names []string, max int) string {
	if len(names) > max {
		return strings.Join(names[:max], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}
