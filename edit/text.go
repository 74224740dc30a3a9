package edit

import (
	"bytes"
	"strings"
)

// IsBinary reports content that is not text: a NUL byte, invalid UTF-8, or more
// than 10% control characters.
func IsBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	sample := b
	if len(sample) > 64<<10 {
		sample = sample[:64<<10]
	}
	ctrl := 0
	for _, c := range sample {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b {
			ctrl++
		}
	}
	return len(sample) > 0 && ctrl*10 > len(sample)
}

// usesCRLF reports whether most line breaks of b are CRLF.
func usesCRLF(b []byte) bool {
	crlf := bytes.Count(b, []byte("\r\n"))
	lf := bytes.Count(b, []byte("\n"))
	return crlf > 0 && crlf*2 >= lf
}

// ToLF returns b with every CRLF turned into LF.
func ToLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// Adapt fits new whole-file content to the conventions of the file it replaces:
// CRLF stays CRLF, and the final newline is kept or left out as before.
func Adapt(before []byte, after []byte) []byte {
	out := ToLF(after)
	if len(before) > 0 {
		beforeNL := bytes.HasSuffix(before, []byte("\n"))
		afterNL := bytes.HasSuffix(out, []byte("\n"))
		switch {
		case beforeNL && !afterNL && len(out) > 0:
			out = append(out, '\n')
		case !beforeNL && afterNL:
			out = out[:len(out)-1]
		}
	}
	if usesCRLF(before) {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out
}

// splitLines splits b into lines without their line breaks; finalEOL reports whether
// the final line ends with a break.
func splitLines(b []byte) (lines []string, finalEOL bool) {
	if bytes.Contains(b, []byte("\r\n")) {
		b = ToLF(b)
	}
	s := string(b) // one copy; the lines share it
	if s == "" {
		return nil, true
	}
	finalEOL = strings.HasSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n"), finalEOL
}

// Lines splits s into lines that keep their "\n" (and "\r\n"); a last line
// without a line break is kept as it is.
func Lines(s string) []string {
	out := strings.SplitAfter(s, "\n")
	if len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
