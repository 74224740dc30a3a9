// Package redact replaces secrets in text before it leaves the machine: a text
// (a pasted problem, a log, a message), a file's content (with the rules of its
// path), a whole file before a range of its lines is cut out of it (Whole: a
// slice that starts inside a private key block is still redacted), a line range
// streamed from a file too big to hold (ReadRange), and known values such as the
// configured API key (Values). Every function keeps the number of lines, so line
// numbers stay right.
//
// Detection is gitleaks' default rule set (rules.go) plus hand-written
// detectors (hand.go, forms.go, cli.go, pem.go); value.go judges the values
// they find.
package redact

import (
	"hash/maphash"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Redacted replaces every secret-looking value in text sent to the model.
const Redacted = "[REDACTED]"

// MinLiteralSecret is the shortest value Values replaces: shorter strings
// ("ollama", "none") are placeholder keys of local servers and would turn up in
// ordinary text.
const MinLiteralSecret = 8

// secretSpan is a byte range [s,e) of a text to replace.
type secretSpan struct {
	s, e int
	rule string // the detector: a gitleaks rule id or one of the hand-written ones
}

// Text replaces secret-looking values in text with [REDACTED] and returns the new
// text and the number of replacements. It never changes the number of lines: a
// secret spanning lines (a private key block) becomes one [REDACTED] per line.
//
// It finds what gitleaks' default rule set finds (Stripe, AWS, GitHub, GitLab,
// Slack, Google, JWTs, 200 more providers, generic `api_key = "…"` assignments of
// high entropy) plus: private key blocks, also when the text starts or ends inside
// one; literal values assigned to names that end in password/token/secret/api_key
// and the like, in any syntax (`password=hunter2`, `"token": "abc"`, `API_KEY:
// xyz`, `'password' => 'x'`, `Pwd=x;` in a connection string, also inside a
// string of code), unless they look like code (calls, indexing, dotted or
// camelCase names, CONSTANTS, numbers, null/true/false, ${VAR}, $VAR, a name
// that only mentions a secret such as masterSecretLabel or TOKEN_READ), a
// message or validation rules; the same names bound to literals in other
// forms (forms.go): setters and builders (`setPassword("x")`, `.password("x")`),
// pairs of arguments (`define('DB_PASSWORD', 'x')`, `setProperty("…password",
// "x")`), credentials calls (`new NetworkCredential("u", "x")`), config
// directives (`requirepass x`, `rootpw x`, BIND's `secret "x";`), SQL
// (`PASSWORD 'x'`, `IDENTIFIED BY 'x'`), name and value fields (Kubernetes
// `name: DB_PASSWORD` / `value: x`, `<add key="…Password" value="x"/>`) and
// XML elements (`<password>x</password>`); keys and salts whose literal looks
// random (WordPress' AUTH_KEY … NONCE_SALT); the password
// of a URL (`postgres://user:[REDACTED]@host/db`); bearer tokens and basic
// credentials; JWTs; `sk-` keys with a run of at least 10 letters and digits
// after the dash, a digit and a letter among them (OpenAI-style; skKey says why
// 10); passwords on command lines (`mysql -pS3cret`, `--password S3cret`,
// `PGPASSWORD=x psql`, `sshpass -p`, `redis-cli -a`) and in .netrc entries; a
// bare AWS secret access key near its key id or its name; private keys encoded
// in base64 (kubeconfig's client-key-data) or escaped in JSON strings.
func Text(text string) (string, int) { return redactPath(text, "") }

// File is Text for the content of the file at path (root-relative,
// slash-separated): gitleaks' path-specific rules apply (Terraform, Kubernetes
// YAML, NuGet config, PHP), and its path allowlists (lock files, vendored code)
// switch its rules off for the file — the hand-written detectors still run. In a
// file of a language whose string literals are quoted (Go, Python, JavaScript,
// Java, C, Rust, ...: by extension) an unquoted value assigned to a secret-like
// name is an expression, never a literal secret, and is left alone.
func File(path, text string) (string, int) { return redactPath(text, path) }

func redactPath(text, path string) (string, int) {
	spans := findSpans(text, path)
	if len(spans) == 0 {
		return text, 0
	}
	return applySpans(text, spans), len(spans)
}

// LineRange is an inclusive 1-based range of lines.
type LineRange struct{ From, To int }

// Lines are the 1-based line ranges of a text's redactions, in order.
type Lines []LineRange

// In counts the redactions that touch lines [from,to].
func (r Lines) In(from, to int) int {
	n := 0
	for _, x := range r {
		if x.To >= from && x.From <= to {
			n++
		}
	}
	return n
}

// Whole redacts text whole (the content of the file at path; "" for other
// text) before any part of it is cut out, and returns the lines each redaction
// covers (a slice of the result shows Lines.In of its lines).
func Whole(path, text string) (string, Lines) {
	spans := findSpans(text, path)
	if len(spans) == 0 {
		return text, nil
	}
	red := make(Lines, len(spans))
	line, pos := 1, 0
	for i, x := range spans {
		line += strings.Count(text[pos:x.s], "\n")
		pos = x.s
		red[i] = LineRange{line, line + strings.Count(text[x.s:x.e], "\n")}
	}
	return applySpans(text, spans), red
}

// findSpans returns the merged, sorted spans of every secret in text. The
// answer for a text of some size is remembered (spanMemo): one plan redacts the
// same file many times (read for the base context, for definitions, again in
// every message sent), and the keyword scan is the cost of redaction.
func findSpans(text, path string) []secretSpan {
	if len(text) < memoMinBytes || len(text) > memoMaxText {
		return scanSpans(text, path)
	}
	if ss, ok := spanMemo.get(text, path); ok {
		return ss
	}
	ss := scanSpans(text, path)
	spanMemo.put(text, path, ss)
	return slices.Clone(ss)
}

func scanSpans(text, path string) []secretSpan {
	out := pemSpans(text)
	out = append(out, rules().find(text, path)...)
	return mergeSpans(out)
}

// Texts shorter than memoMinBytes are scanned every time (cheap, and many), and
// so are texts over memoMaxText; the memo holds at most memoMaxBytes of texts
// (it is emptied when full).
const (
	memoMinBytes = 2 << 10
	memoMaxText  = 2 << 20
	memoMaxBytes = 16 << 20
)

// spanMemo remembers the spans found in recent texts. A hit needs the very
// same text and path (compared whole, not only by hash), so an answer is never
// one computed for other bytes.
var spanMemo = &memo{seed: maphash.MakeSeed()}

type memo struct {
	mu    sync.Mutex
	seed  maphash.Seed
	m     map[uint64][]memoEntry
	bytes int
}

type memoEntry struct {
	text, path string
	spans      []secretSpan
}

func (c *memo) key(text, path string) uint64 {
	return maphash.String(c.seed, path) ^ maphash.String(c.seed, text)*0x9e3779b97f4a7c15
}

func (c *memo) get(text, path string) ([]secretSpan, bool) {
	k := c.key(text, path)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, en := range c.m[k] {
		if en.path == path && en.text == text {
			return slices.Clone(en.spans), true
		}
	}
	return nil, false
}

func (c *memo) put(text, path string, spans []secretSpan) {
	k := c.key(text, path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.bytes+len(text) > memoMaxBytes {
		c.m, c.bytes = map[uint64][]memoEntry{}, 0
	}
	c.m[k] = append(c.m[k], memoEntry{text: text, path: path, spans: slices.Clone(spans)})
	c.bytes += len(text)
}

// mergeSpans sorts spans and merges the overlapping ones.
func mergeSpans(ss []secretSpan) []secretSpan {
	if len(ss) < 2 {
		return ss
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i].s < ss[j].s || ss[i].s == ss[j].s && ss[i].e > ss[j].e })
	out := ss[:1]
	for _, x := range ss[1:] {
		last := &out[len(out)-1]
		if x.s < last.e {
			last.e = max(last.e, x.e)
			continue
		}
		out = append(out, x)
	}
	return out
}

// applySpans replaces each span (sorted, disjoint) with [REDACTED], one per line
// of the span, so the text keeps its lines (and a CR before each line feed).
func applySpans(text string, spans []secretSpan) string {
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, x := range spans {
		b.WriteString(text[last:x.s])
		writeRedacted(&b, text[x.s:x.e])
		last = x.e
	}
	b.WriteString(text[last:])
	return b.String()
}

func writeRedacted(b *strings.Builder, seg string) {
	if !strings.Contains(seg, "\n") {
		b.WriteString(Redacted)
		return
	}
	for i, part := range strings.Split(seg, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		cr := strings.HasSuffix(part, "\r")
		if strings.TrimSpace(part) != "" {
			b.WriteString(Redacted)
		}
		if cr {
			b.WriteByte('\r')
		}
	}
}

// Values replaces every occurrence of each value (the configured API key,
// say) in text with [REDACTED] and returns the new text and the number of
// replacements. Values shorter than MinLiteralSecret or spanning lines are ignored.
func Values(text string, values ...string) (string, int) {
	n := 0
	for _, v := range values {
		if len(v) < MinLiteralSecret || strings.ContainsAny(v, "\r\n") {
			continue
		}
		if c := strings.Count(text, v); c > 0 {
			n += c
			text = strings.ReplaceAll(text, v, Redacted)
		}
	}
	return text, n
}

// secretValue returns the span of the literal value starting at i, or an empty
// span when the value looks like code rather than a secret.
func secretValue(text string, i int) (int, int) {
	if i >= len(text) {
		return i, i
	}
	q := i
	if i+1 < len(text) && strings.IndexByte("NnEe", text[i]) >= 0 && text[i+1] == '\'' { // SQL's N'…', E'…'
		q = i + 1
	}
	if c := text[q]; c == '"' || c == '\'' || c == '`' {
		s, e := quotedLiteral(text, i)
		if e <= s || looksLikePlaceholder(text[s:e]) || concatenation(text[s:e]) {
			return i, i
		}
		return s, e
	}
	end := i
	for end < len(text) && !strings.ContainsRune(" \t\r\n,;\"'`)}]", rune(text[end])) {
		end++
	}
	v := text[i:end]
	if len(v) < 4 || isDigits(v) || strings.ContainsAny(v, "([{<>") || looksLikePlaceholder(v) || dottedNameRe().MatchString(v) {
		return i, i
	}
	return i, end
}

// concatenation reports whether what stands between two quotes is the code
// between two string literals (`"--password=" + pw + " db"`: ` + pw + `): it
// starts or ends with a blank and a concatenation operator (+ . .. || & ~).
func concatenation(v string) bool {
	isOp := func(c byte) bool { return c == '+' || c == '.' || c == '|' || c == '&' || c == '~' }
	if t := strings.TrimLeft(v, " \t"); len(t) < len(v) && t != "" && isOp(t[0]) {
		return true
	}
	if t := strings.TrimRight(v, " \t"); len(t) < len(v) && t != "" && isOp(t[len(t)-1]) {
		return true
	}
	return false
}

var dottedNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)
})

func looksLikePlaceholder(v string) bool {
	switch strings.ToLower(v) {
	case "", "null", "none", "nil", "true", "false", "undefined", "string", "str", "bool", "int", Redacted:
		return true
	}
	return strings.HasPrefix(v, "${") || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "{{") ||
		strings.HasPrefix(v, "%(") || v == strings.Repeat("*", len(v)) || strings.HasPrefix(v, "<")
}

func isDigits(v string) bool {
	for i := 0; i < len(v); i++ {
		if (v[i] < '0' || v[i] > '9') && v[i] != '.' {
			return false
		}
	}
	return true
}

// Finding is one value Text replaces: the detector that found it (a gitleaks
// rule id such as "stripe-access-token", or one of "private-key", "assignment",
// "url-password", "authorization", "jwt", "token", "aws-secret-key",
// "command-password", "netrc", "setter", "key-value", "directive",
// "sql-password", "field") and its byte range in the text.
type Finding struct {
	Rule       string
	Start, End int
}

// Find returns what File(path, text) replaces (path may be ""), in text
// order; overlapping findings are merged into the first one. It is for measuring
// and explaining redaction (the benchmark of false positives, `context` commands).
func Find(path, text string) []Finding {
	spans := findSpans(text, path)
	out := make([]Finding, len(spans))
	for i, x := range spans {
		out[i] = Finding{Rule: x.rule, Start: x.s, End: x.e}
	}
	return out
}
