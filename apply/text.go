package apply

import (
	"bytes"
	"unicode/utf8"
)

// isBinary reports content that is not text: a NUL byte, invalid UTF-8, or more
// than 10% control characters.
func isBinary(b []byte) bool {
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

func toLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// adapt fits new whole-file content to the conventions of the file it replaces:
// CRLF stays CRLF, and the final newline is kept or left out as before.
func adapt(before []byte, after []byte) []byte {
	out := toLF(after)
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

func validUTF8(b []byte) bool { return utf8.Valid(b) }
