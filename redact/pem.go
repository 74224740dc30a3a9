package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
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
// range tracks the markers from the start of the file (stream.go).

var (
	pemBeginRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`) })
	pemEndRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`) })
	// pemHeaderRe are the headers a PEM or PGP armored block may carry.
	pemHeaderRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset): \S`)
	})
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
	for _, l := range pemBeginRe().FindAllStringIndex(text, -1) {
		ms = append(ms, pemMarker{l[0], l[1], true})
	}
	for _, l := range pemEndRe().FindAllStringIndex(text, -1) {
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

// pemEscapes removes the escapes a key block carries inside a string: `\n` and
// `\r` (JSON, source code), the same escaped twice (`\\n`: JSON inside a string
// of JSON or code), and JSON's optional escape of '/' (`\/`, as PHP writes it).
var pemEscapes = strings.NewReplacer(`\\n`, "", `\\r`, "", `\n`, "", `\r`, "", `\/`, "/")

// pemLine strips a line of a key block as it appears in source code, YAML or
// JSON and reports whether it is key material (base64, a PEM header or blank);
// core is what is left of the base64.
func pemLine(line string) (core string, ok bool) {
	s := pemEscapes.Replace(line)
	s = strings.Trim(s, " \t\r\"'`,;+()\\")
	if s == "" {
		return "", true
	}
	if pemHeaderRe().MatchString(s) {
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
		if core != "" || pemHeaderRe().MatchString(strings.TrimSpace(line)) {
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
		if core != "" || pemHeaderRe().MatchString(strings.TrimSpace(line)) {
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

// Private keys encoded in base64, as kubeconfig's `client-key-data`, a
// Kubernetes Secret's `tls.key` or a CI variable holds them: a base64 token in
// which "-----BEGIN" is encoded — at any of the three byte alignments, so also
// a key that follows a certificate in an encoded bundle — and which decodes
// there to a `-----BEGIN … PRIVATE KEY-----` marker. The whole token is
// redacted, with the lines it wraps onto (`base64` wraps at 76 characters).
// An encoded certificate (`client-certificate-data`) decodes to a CERTIFICATE
// marker and is left alone.

// b64Begin are the characters that encode "-----BEGIN" whatever the bytes
// around it, at byte offsets 0, 1 and 2 of a 3-byte group.
var b64Begin = []string{"LS0tLS1CRUdJT", "0tLS0tQkVHSU", "tLS0tLUJFR0lO"}

var (
	b64BeginRe       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(strings.Join(b64Begin, "|")) })
	b64BeginKeywords = []string{strings.ToLower(b64Begin[0]), strings.ToLower(b64Begin[1]), strings.ToLower(b64Begin[2])}
)

func isB64Byte(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' }

// acceptB64Key checks that the encoded "-----BEGIN" at loc decodes to a private
// key's marker and redacts the token around it.
func acceptB64Key(sc *scan, off int, loc []int) {
	t := sc.text
	at := off + loc[0]
	if !b64PrivateKeyAt(t, at) {
		return
	}
	s, e := b64Token(t, at)
	sc.add(s, e, "private-key")
}

// b64PrivateKeyAt decodes the base64 around position at (an encoded
// "-----BEGIN"): the encoding's 4-character groups may start up to 3
// characters before it, so each start is tried. Line breaks of wrapped base64
// are skipped; at most ~120 characters are decoded.
func b64PrivateKeyAt(t string, at int) bool {
	for k := 0; k <= 3 && k <= at; k++ {
		src := make([]byte, 0, 160)
		for i := at - k; i < len(t) && len(src) < 160; i++ {
			c := t[i]
			switch {
			case c == '\n' || c == '\r' || c == ' ' || c == '\t':
				continue
			case isB64Byte(c):
				src = append(src, c)
				continue
			}
			break
		}
		src = src[:len(src)-len(src)%4]
		dst := make([]byte, len(src)/4*3)
		n, _ := base64.StdEncoding.Decode(dst, src)
		if pemBeginRe().Match(dst[:n]) {
			return true
		}
	}
	return false
}

// b64Token returns the base64 token around position at: the run of base64
// characters on its line, extended over the lines below that hold nothing but
// base64 while the token ends a full line (wrapped output), and over the lines
// above while the token starts its line and the line above ends with a full
// line of base64.
func b64Token(t string, at int) (int, int) {
	const wrapped = 48 // a line this long, all base64, is a line of a wrapped token
	s, e := at, at
	for s > 0 && isB64Byte(t[s-1]) && t[s-1] != '=' { // '=' pads the end only
		s--
	}
	for e < len(t) && isB64Byte(t[e]) {
		e++
	}
	// lines below: while this line ends with the token and is full
	for e-lineStartBack(t, e, 0) >= wrapped && tokenEndsLine(t, e) {
		next := lineEndForward(t, e, 0)
		ls := next
		for ls < len(t) && (t[ls] == ' ' || t[ls] == '\t') {
			ls++
		}
		le := ls
		for le < len(t) && isB64Byte(t[le]) {
			le++
		}
		if le == ls || !tokenEndsLine(t, le) {
			break
		}
		e = le
	}
	// lines above: while the token starts its line (after indentation) and
	// the line above ends with a full line's worth of base64
	for {
		ls := lineStartBack(t, s, 0)
		if ls == 0 || strings.TrimLeft(t[ls:s], " \t") != "" {
			break
		}
		pe := ls - 1
		if pe > 0 && t[pe-1] == '\r' {
			pe--
		}
		ps := pe
		for ps > 0 && isB64Byte(t[ps-1]) && t[ps-1] != '=' {
			ps--
		}
		if pe-ps < wrapped {
			break
		}
		s = ps
	}
	return s, e
}

// tokenEndsLine: position e is the end of its line (or of the text).
func tokenEndsLine(t string, e int) bool {
	return e == len(t) || t[e] == '\n' || t[e] == '\r' && (e+1 == len(t) || t[e+1] == '\n')
}
