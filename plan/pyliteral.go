package plan

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// pythonToJSON rewrites a Python literal (what repr() prints for a dict, and
// what models that answer "in Python" write) as JSON, token by token, in one
// pass: True, False and None outside strings become true, false and null;
// strings in single, double or triple quotes (u and r prefixes too) are
// re-encoded as JSON strings with Python's escapes read the Python way (\' is
// a quote, \x41 and \101 are "A", an unknown escape keeps its backslash); #
// comments are removed. Everything else is copied, so what is not a Python
// literal stays invalid. ok is false when a string does not end or holds a
// malformed escape. It is applied only when the text is not JSON.
func pythonToJSON(s []byte) (out []byte, ok bool) {
	out = make([]byte, 0, len(s)+len(s)/8)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			var ok bool
			if out, i, ok = pyString(s, i, false, out); !ok {
				return nil, false
			}
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			word := string(s[i:j])
			if j < len(s) && (s[j] == '\'' || s[j] == '"') {
				if raw, ok := stringPrefix(word); ok {
					var sok bool
					if out, i, sok = pyString(s, j, raw, out); !sok {
						return nil, false
					}
					continue
				}
			}
			switch word {
			case "True":
				out = append(out, "true"...)
			case "False":
				out = append(out, "false"...)
			case "None":
				out = append(out, "null"...)
			default:
				out = append(out, word...)
			}
			i = j
		case c >= '0' && c <= '9':
			// A number's letters (1e5, 0x1F) are never a keyword.
			j := i + 1
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				j++
			}
			out = append(out, s[i:j]...)
			i = j
		default:
			out = append(out, c)
			i++
		}
	}
	return out, true
}

func isIdentStart(c byte) bool { return c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' }
func isIdentByte(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

// stringPrefix reports whether word is a string prefix Python allows before a
// quote and that reads as text (u, r and their mixes); raw says backslashes
// are literal. Bytes and format strings are not literals of a plan.
func stringPrefix(word string) (raw, ok bool) {
	switch word {
	case "u", "U":
		return false, true
	case "r", "R":
		return true, true
	}
	return false, false
}

// pyString reads the Python string whose opening quote is s[i] and appends it
// to out as a JSON string; next is the index after its closing quote.
func pyString(s []byte, i int, raw bool, out []byte) (_ []byte, next int, ok bool) {
	q := s[i]
	triple := i+2 < len(s) && s[i+1] == q && s[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	out = append(out, '"')
	for i < len(s) {
		c := s[i]
		switch {
		case c == q && (!triple || i+2 < len(s) && s[i+1] == q && s[i+2] == q):
			if triple {
				i += 2
			}
			return append(out, '"'), i + 1, true
		case c == '\\' && i+1 < len(s):
			if raw {
				// In a raw string a backslash is itself, and it keeps the quote
				// after it inside the string.
				out = append(out, `\\`...)
				if s[i+1] == q || s[i+1] == '\\' {
					out = appendJSONByte(out, s[i+1])
					i += 2
				} else {
					i++
				}
				continue
			}
			var ok bool
			if out, i, ok = pyEscape(s, i, out); !ok {
				return nil, i, false
			}
		default:
			out = appendJSONByte(out, c)
			i++
		}
	}
	return nil, i, false // the string does not end
}

// appendJSONByte appends one byte of a string's text, escaped for JSON.
func appendJSONByte(out []byte, c byte) []byte {
	switch c {
	case '"':
		return append(out, `\"`...)
	case '\\':
		return append(out, `\\`...)
	case '\n':
		return append(out, `\n`...)
	case '\r':
		return append(out, `\r`...)
	case '\t':
		return append(out, `\t`...)
	}
	if c < 0x20 || c == 0x7f {
		return fmt.Appendf(out, `\u%04x`, c)
	}
	return append(out, c)
}

// pyEscape reads the escape sequence at s[i] (a backslash) the way Python does
// in a str literal and appends its JSON form.
func pyEscape(s []byte, i int, out []byte) (_ []byte, next int, ok bool) {
	e := s[i+1]
	switch e {
	case '\n':
		return out, i + 2, true // a line continuation
	case '\\', '\'', '"':
		return appendJSONByte(out, e), i + 2, true
	case 'n', 'r', 't', 'b', 'f':
		return append(out, '\\', e), i + 2, true
	case 'v':
		return append(out, `\u000b`...), i + 2, true
	case 'a':
		return append(out, `\u0007`...), i + 2, true
	case 'x', 'u', 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
		if i+2+n > len(s) {
			return nil, i, false
		}
		v, err := strconv.ParseUint(string(s[i+2:i+2+n]), 16, 32)
		if err != nil || v > utf8.MaxRune {
			return nil, i, false
		}
		return appendRune(out, rune(v)), i + 2 + n, true
	}
	if e >= '0' && e <= '7' {
		j, v := i+1, 0
		for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' {
			v = v*8 + int(s[j]-'0')
			j++
		}
		return appendRune(out, rune(v)), j, true
	}
	// Python keeps the backslash of an escape it does not know (\d, \/ …).
	return appendJSONByte(append(out, `\\`...), e), i + 2, true
}

// appendRune appends a code point as JSON: as a \u escape below U+0080 when it
// is not printable ASCII, as is above; a lone surrogate (\ud83d) stays an escape.
func appendRune(out []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return appendJSONByte(out, byte(r))
	case r >= 0xd800 && r <= 0xdfff:
		return fmt.Appendf(out, `\u%04x`, r)
	}
	return utf8.AppendRune(out, r)
}
