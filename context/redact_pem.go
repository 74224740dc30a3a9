package codectx

import (
	"regexp"
	"strings"
)

// Private key blocks, line by line: the block keeps its number of lines (each
// line becomes [REDACTED]) so line numbers shown to the model stay right. A text
// may be a window of a file (a line range, the tail of a log) that cuts a block:
//
//   - BEGIN … END: the whole block, when what lies between the markers looks like
//     key material (base64 lines, PEM headers, quoted or escaped as in source
//     code or JSON); two marker literals with code between them are left alone;
//   - BEGIN without its END (the text ends inside the block): the BEGIN line and
//     the key-material lines that follow it;
//   - END without its BEGIN (the text starts inside the block): the key-material
//     lines above it and the END line.
//
// A window that starts and ends inside one block holds no marker at all: that is
// why files are redacted whole before they are sliced, and why a streamed line
// range tracks the markers from the start of the file (redact_stream.go).

var (
	pemBeginRe = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEndRe   = regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	// pemHeaderRe are the headers a PEM or PGP armored block may carry.
	pemHeaderRe = regexp.MustCompile(`^(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset): \S`)
)

// pemMarker is a BEGIN or END marker at [start,end).
type pemMarker struct {
	start, end int
	begin      bool
}

// pemSpans returns the spans of the private key blocks in text.
func pemSpans(text string) []secretSpan {
	if !strings.Contains(text, "PRIVATE KEY") {
		return nil
	}
	var ms []pemMarker
	for _, l := range pemBeginRe.FindAllStringIndex(text, -1) {
		ms = append(ms, pemMarker{l[0], l[1], true})
	}
	for _, l := range pemEndRe.FindAllStringIndex(text, -1) {
		ms = append(ms, pemMarker{l[0], l[1], false})
	}
	sortMarkers(ms)
	var out []secretSpan
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		if m.begin {
			if i+1 < len(ms) && !ms[i+1].begin && pemBody(text[m.end:ms[i+1].start]) {
				out = append(out, secretSpan{m.start, ms[i+1].end, "private-key"})
				i++
				continue
			}
			if e := pemRunBelow(text, m.end); e > m.end {
				out = append(out, secretSpan{m.start, e, "private-key"})
			}
			continue
		}
		if s := pemRunAbove(text, m.start); s < m.start {
			out = append(out, secretSpan{s, m.end, "private-key"})
		}
	}
	return out
}

func sortMarkers(ms []pemMarker) {
	for i := 1; i < len(ms); i++ { // few markers: insertion sort
		for j := i; j > 0 && ms[j].start < ms[j-1].start; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// pemBody reports whether s (the text between a BEGIN and an END marker) is key
// material: every line blank, a PEM header or base64 (quotes, escapes and
// concatenation of source code stripped), with some base64 in it (4 characters or more).
func pemBody(s string) bool {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		core, ok := pemLine(line)
		if !ok {
			return false
		}
		n += len(core)
	}
	return n >= 4
}

// pemLine strips a line of a key block as it appears in source code, YAML or
// JSON and reports whether it is key material (base64, a PEM header or blank);
// core is what is left of the base64.
func pemLine(line string) (core string, ok bool) {
	s := strings.ReplaceAll(line, `\n`, "")
	s = strings.ReplaceAll(s, `\r`, "")
	s = strings.Trim(s, " \t\r\"'`,;+()\\")
	if s == "" {
		return "", true
	}
	if pemHeaderRe.MatchString(s) {
		return "", true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=') {
			return "", false
		}
	}
	return s, true
}

// pemRunBelow returns the end of the key material that follows an unterminated
// BEGIN marker ending at i: the rest of its line, then whole lines, up to the
// last non-blank one; i itself when there is none.
func pemRunBelow(text string, i int) int {
	end := i
	le := lineEndForward(text, i, 0)
	rest := strings.TrimRight(text[i:le], "\n")
	core, ok := pemLine(rest)
	if !ok {
		return i
	}
	if core != "" {
		end = i + len(rest)
	}
	for pos := le; pos < len(text); {
		next := lineEndForward(text, pos, 0)
		line := strings.TrimRight(text[pos:next], "\n")
		core, ok := pemLine(line)
		if !ok || (core != "" && !keyish(core)) {
			break
		}
		if core != "" || pemHeaderRe.MatchString(strings.TrimSpace(line)) {
			end = pos + len(strings.TrimRight(line, "\r"))
		}
		pos = next
	}
	return end
}

// pemRunAbove returns the start of the key material that precedes an END marker
// starting at i whose BEGIN is not in the text: the part of its line before it
// and whole lines above, up to the first non-blank one; i itself when there is
// none.
func pemRunAbove(text string, i int) int {
	start := i
	ls := lineStartBack(text, i, 0)
	prefix := text[ls:i]
	core, ok := pemLine(prefix)
	if !ok {
		return i
	}
	if core != "" {
		start = ls + firstNonSpace(prefix)
	}
	for pos := ls; pos > 0; {
		prev := lineStartBack(text, pos-1, 0)
		line := text[prev : pos-1]
		core, ok := pemLine(line)
		if !ok || (core != "" && !keyish(core)) {
			break
		}
		if core != "" || pemHeaderRe.MatchString(strings.TrimSpace(line)) {
			start = prev + firstNonSpace(line)
		}
		pos = prev
	}
	return start
}

// keyish tells a line of key material from a word on a line of its own
// ("return", "else"): long, or with a digit, '+', '/' or '='.
func keyish(core string) bool {
	return len(core) >= 20 || strings.ContainsAny(core, "0123456789+/=")
}

func firstNonSpace(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return i
		}
	}
	return len(s)
}
