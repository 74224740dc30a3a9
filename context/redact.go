package codectx

import (
	"bytes"
	"regexp"
	"strings"
)

// Redacted replaces every secret-looking value in text sent to the model.
const Redacted = "[REDACTED]"

var (
	privateKeyRe = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)`)
	tokenRe      = regexp.MustCompile(`\b(?:(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|sk-(?:proj-|ant-)?[A-Za-z0-9_\-]{20,}|xox[abposr]-[A-Za-z0-9\-]{10,}|glpat-[A-Za-z0-9_\-]{20,}|AIza[0-9A-Za-z_\-]{35})`)
	// assignRe finds `key = `, `key: `, `"key": ` where key names a secret; the value
	// that follows is judged by secretValueEnd.
	assignRe = regexp.MustCompile(`(?i)([A-Za-z0-9_.\-]*(?:password|passwd|pwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)[A-Za-z0-9_.\-]*)(["']?)(\s*(?::=|=|:)\s*)`)
)

// tokenMarkers and assignMarkers are cheap pre-checks: text without any of them
// cannot match tokenRe / assignRe (the latter compared case-insensitively).
var (
	tokenMarkers  = []string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "sk-", "xox", "glpat-", "AIza"}
	assignMarkers = []string{"pass", "pwd", "secret", "token", "api", "access", "private", "auth", "credential"}
)

func containsAny(s string, subs []string) bool {
	for _, m := range subs {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// containsFoldAny reports whether s contains any of the lower-case ASCII subs,
// ignoring ASCII case.
func containsFoldAny(s string, subs []string) bool {
	var buf [512]byte
	var low []byte
	if len(s) <= len(buf) {
		low = buf[:len(s)]
	} else {
		low = make([]byte, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	for _, m := range subs {
		if bytes.Contains(low, []byte(m)) {
			return true
		}
	}
	return false
}

// Redact replaces secret-looking values in text with [REDACTED] and returns the new
// text and the number of replacements: private key blocks (each line of the block,
// so line numbers stay right), AWS access key ids, GitHub/GitLab/Slack/OpenAI-style
// tokens, and literal values assigned to password/token/secret/api_key-like names
// (`password=hunter2`, `"token": "abc"`, `API_KEY: xyz`). Values that look like code
// (calls, indexing, dotted names, null/true/false) are left alone.
func Redact(text string) (string, int) {
	n := 0
	if strings.Contains(text, "PRIVATE KEY") {
		text = privateKeyRe.ReplaceAllStringFunc(text, func(m string) string {
			n++
			lines := strings.Count(m, "\n")
			return Redacted + strings.Repeat("\n"+Redacted, lines)
		})
	}
	if containsAny(text, tokenMarkers) {
		text = tokenRe.ReplaceAllStringFunc(text, func(string) string { n++; return Redacted })
	}
	if !containsFoldAny(text, assignMarkers) {
		return text, n
	}
	locs := assignRe.FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return text, n
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		start := loc[1] // value starts after the operator and spaces
		if start < last {
			continue
		}
		op := strings.TrimSpace(text[loc[6]:loc[7]])
		if op == "=" && start < len(text) && text[start] == '=' { // comparison ==
			continue
		}
		vs, ve := secretValue(text, start)
		if ve <= vs {
			continue
		}
		b.WriteString(text[last:vs])
		b.WriteString(Redacted)
		last = ve
		n++
	}
	if last == 0 {
		return text, n
	}
	b.WriteString(text[last:])
	return b.String(), n
}

// secretValue returns the span of the literal value starting at i, or an empty
// span when the value looks like code rather than a secret.
func secretValue(text string, i int) (int, int) {
	if i >= len(text) {
		return i, i
	}
	if q := text[i]; q == '"' || q == '\'' || q == '`' {
		end := strings.IndexByte(text[i+1:], q)
		nl := strings.IndexByte(text[i+1:], '\n')
		if end < 0 || (nl >= 0 && nl < end) || end == 0 {
			return i, i
		}
		v := text[i+1 : i+1+end]
		if looksLikePlaceholder(v) {
			return i, i
		}
		return i + 1, i + 1 + end
	}
	end := i
	for end < len(text) && !strings.ContainsRune(" \t\r\n,;\"'`)}]", rune(text[end])) {
		end++
	}
	v := text[i:end]
	if len(v) < 4 || isDigits(v) || strings.ContainsAny(v, "([{<>") || looksLikePlaceholder(v) || dottedNameRe.MatchString(v) {
		return i, i
	}
	return i, end
}

var dottedNameRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)

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
