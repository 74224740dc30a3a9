package defs

import "strings"

// The arguments of every bracket of a definition's lines, read in one pass.
// pyDispatched asks for the arguments of each call of its lines (an item
// passed to a callee); read from each call's bracket to its end, a line of
// nested calls (f0(f1(f2(…f20000(x)…)))) was read again for each of them:
// 150 KB took seconds, a megabyte minutes.

// bracketIndex holds the brackets of lines (a span's blanked lines) by line
// (0-based) and column: each one's arguments as bracketArgs gives them and
// the line it closes on.
type bracketIndex struct {
	at map[[2]int]bracketArgList
}

type bracketArgList struct {
	args  []string
	close int // the line (0-based) of its closing bracket
}

// newBracketIndex reads the brackets of lines: the lines are one text, each
// followed by a space (as bracketArgs reads them), and a closing bracket ends
// the innermost open one, whatever its kind.
func newBracketIndex(lines []string) *bracketIndex {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte(' ')
	}
	text := b.String()
	type open struct {
		line, col int
		from      int // where its current argument starts in text
		args      []string
	}
	ix := &bracketIndex{at: map[[2]int]bracketArgList{}}
	var stack []open
	off := 0
	for li, l := range lines {
		for j := 0; j < len(l); j++ {
			pos := off + j
			switch l[j] {
			case '(', '[', '{':
				stack = append(stack, open{line: li, col: j, from: pos + 1})
			case ')', ']', '}':
				if len(stack) == 0 {
					continue // closes a bracket opened before the lines
				}
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				ix.at[[2]int{top.line, top.col}] = bracketArgList{append(top.args, strings.TrimSpace(text[top.from:pos])), li}
			case ',':
				if n := len(stack); n > 0 {
					stack[n-1].args = append(stack[n-1].args, strings.TrimSpace(text[stack[n-1].from:pos]))
					stack[n-1].from = pos + 1
				}
			}
		}
		off += len(l) + 1 // (the space after the line is the argument's)
	}
	return ix
}

// args returns the arguments of the bracket at line (0-based) and col, nil
// when it does not close by line last.
func (ix *bracketIndex) args(line, col, last int) []string {
	a, ok := ix.at[[2]int{line, col}]
	if !ok || a.close > last {
		return nil
	}
	return a.args
}
