package main

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// termSafe wraps everything the CLI prints. Text that comes from a project or a
// model (file contents in diffs, paths, summaries, commands, command output,
// names of folders a clone shipped) may carry terminal control sequences: ESC
// codes and carriage returns can erase a line and print another, so the command
// the user approves would not be the one that runs. Every C0/C1 control
// character except newline and tab is shown as a visible \u00XX escape (valid in
// JSON strings too, so --json output stays JSON).
type termSafe struct {
	w     io.Writer
	carry []byte // an incomplete UTF-8 sequence from the previous write
}

func newTermSafe(w io.Writer) io.Writer {
	if _, ok := w.(*termSafe); ok || w == nil {
		return w
	}
	return &termSafe{w: w}
}

func (t *termSafe) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.carry) > 0 {
		p = append(append([]byte{}, t.carry...), p...)
		t.carry = nil
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				out = fmt.Appendf(out, `\u%04x`, c)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		if !utf8.FullRune(p[i:]) && len(p)-i < utf8.UTFMax {
			t.carry = append(t.carry, p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		if (r >= 0x80 && r <= 0x9f) || r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}
