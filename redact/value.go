package redact

import (
	"regexp"
	"strings"
	"sync"
)

// The judgement of a value found beside a secret's name, shared by the
// detectors of hand.go and forms.go: what a placeholder, a template, a message
// or a generated value looks like.

var (
	// templateRe: a value that is entirely a reference or a template: ${X},
	// $(X), {{ x }}, {x}, {0}, %(x)s, %s, $X, $1, :x, @x, ?, <x>, <%= x %>,
	// <?= x ?>, #{x}, &x, %X%, [[x]].
	templateRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\$\{[^}]*\}|\$\([^)]*\)|\{\{.*\}\}|\{%.*%\}|\{[A-Za-z_][A-Za-z0-9_.]*\}|\{[0-9]*\}|%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]|%[-+ #0-9.]*[a-zA-Z]|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9]+|[:@][A-Za-z_][A-Za-z0-9_.]*|\?|<[A-Za-z0-9_ .\-]+>|<%.*%>|<\?.*\?>|#\{[^}]*\}|&&?[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\[\[.*\]\])$`)
	})
	// validationRe: Laravel's validation rules (`required|string|min:8`).
	validationRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z_]+(?::[^|\s]*)?(?:\|[a-z_]+(?::[^|\s]*)?)+$`) })
	// identRe: a name of code or config (DB_PASSWORD, db.password, apiKey).
	identRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]*$`) })
)

// quotedSecret: a quoted value bound to a secret's name is a secret unless it
// is short (under 4 characters), is part of the name, has blanks where the name
// is a token's (a token is one word), or is not a value at all: a list of
// validation rules (`required|min:8`) or a message about the secret ("The
// provided password is incorrect.").
func quotedSecret(key, kind, v string) bool {
	if len(v) < 4 || strings.Contains(strings.ToLower(key), strings.ToLower(v)) {
		return false
	}
	if kind != "password" && strings.ContainsAny(v, " \t") {
		return false
	}
	return !validationRe().MatchString(v) && !message(v)
}

// message reports whether v is a sentence or a prompt rather than a
// passphrase: it has blanks, and it ends like a sentence or a prompt ("Current
// password: ") or has three words or more and names what it is about
// ("Password used to generate key").
func message(v string) bool {
	if !strings.ContainsAny(v, " \t") {
		return false
	}
	t := strings.TrimSpace(v)
	if t == "" || strings.IndexByte(".!?:)", t[len(t)-1]) >= 0 {
		return true
	}
	ws := strings.Fields(t)
	if len(ws) < 3 {
		return false // "top secret" may be a passphrase
	}
	for _, w := range ws {
		w = strings.ToLower(strings.Trim(w, ".,;:!?\"'()"))
		if secretWords[w] != "" || w == "key" {
			return true
		}
	}
	return false
}

// placeholderValue: a value that stands for a secret instead of being one — a
// template or a reference in the syntax of some language (templateRe), a word
// such as null or none, a run of `*`, `x` or `.`, or a secret's own name
// (password, your_password, SECRET), or what a program shows instead of one
// (REDACTED, hidden).
func placeholderValue(v string) bool {
	if templateRe().MatchString(v) || v == Redacted {
		return true
	}
	switch strings.ToLower(v) {
	case "", "null", "none", "nil", "true", "false", "undefined", "string", "str", "bool", "int", "redacted", "hidden", "masked":
		return true
	}
	if len(v) >= 3 && strings.Trim(v, ".xX*_-") == "" {
		return true
	}
	return cliPlaceholder(v) && identRe().MatchString(v)
}

// randomLiteral reports whether v looks generated rather than written: at
// least 16 characters of three classes or more (lower case, upper case, digits,
// symbols) that change class at least every third character (blanks aside),
// with the entropy of random text. Words, names and sentences change class
// rarely (a camelCase name, `app-settings-v2`, "is too short (minimum 8)");
// random keys, salts and base64 change often (WordPress' salts: ~0.7 of their
// characters).
func randomLiteral(v string) bool {
	if len(v) < 16 || templated(v) {
		return false
	}
	class := func(c byte) int {
		switch {
		case 'a' <= c && c <= 'z':
			return 0
		case 'A' <= c && c <= 'Z':
			return 1
		case '0' <= c && c <= '9':
			return 2
		}
		return 3
	}
	var seen [4]bool
	changes, n, prev := 0, 0, -1
	for i := 0; i < len(v); i++ {
		if v[i] == ' ' || v[i] == '\t' {
			prev = -1
			continue
		}
		c := class(v[i])
		seen[c] = true
		if prev >= 0 && c != prev {
			changes++
		}
		prev = c
		n++
	}
	classes := 0
	for _, s := range seen {
		if s {
			classes++
		}
	}
	return n >= 16 && classes >= 3 && changes*3 >= n && shannonEntropy(v) >= 3.5
}

// templated reports whether v holds a template's or an interpolation's
// markers (`${x}`, `{{ x }}`, `#{x}`, `$(x)`, `%(x)s`, `<%= x %>`, `{% x %}`):
// text made by a program at run time, not a literal.
func templated(v string) bool {
	for _, m := range []string{"${", "{{", "#{", "$(", "%(", "<%", "{%"} {
		if strings.Contains(v, m) {
			return true
		}
	}
	return false
}

// keyOrSaltName reports whether a name's last word is key or salt (NONCE_KEY,
// loggedInSalt, AUTH-KEY; not monkey): a secret when its value looks random.
// It reads the name in place (it runs on every match of a name that is not a
// secret's).
func keyOrSaltName(name string) bool {
	for _, suf := range []string{"key", "salt"} {
		n := len(name) - len(suf)
		if n < 0 || !strings.EqualFold(name[n:], suf) {
			continue
		}
		if n == 0 || !isAlnum(name[n-1]) {
			return true
		}
		p, c := name[n-1], name[n]
		if ('a' <= p && p <= 'z' || '0' <= p && p <= '9') && 'A' <= c && c <= 'Z' { // camelCase
			return true
		}
	}
	return false
}

// quotedLiteral returns the span of the text between the quotes of a string
// literal that starts at i and ends on its line (a backslash escapes a quote;
// SQL's N'…' and E'…' count), or an empty span.
func quotedLiteral(text string, i int) (int, int) {
	if i+1 < len(text) && strings.IndexByte("NnEe", text[i]) >= 0 && text[i+1] == '\'' {
		i++
	}
	if i >= len(text) || (text[i] != '"' && text[i] != '\'' && text[i] != '`') {
		return i, i
	}
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '\n':
			return i, i
		case q:
			return i + 1, j
		}
	}
	return i, i
}
