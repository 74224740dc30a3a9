package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Hand-written detectors, for what gitleaks' default rules do not catch or catch
// only in some surroundings: values assigned to secret-like names in any
// language or config format (`password = hunter2`), credentials inside URLs,
// bearer and basic authorization values, JWTs followed by any punctuation, short
// `sk-` keys, provider tokens whatever follows them, and AWS secret access keys
// that stand without a name next to their key id. They run in the same keyword
// engine as gitleaks' rules (rules.go). Secrets bound to their names in forms
// other than `name = value` (setters, pairs of arguments, directives, SQL,
// fields) are in forms.go; private key blocks, also encoded in base64, in
// pem.go; passwords on command lines and in .netrc in cli.go.

var (
	// tokenRe: AWS access key ids (also the documentation's EXAMPLE keys, which
	// gitleaks allows), GitHub/GitLab/Slack/Google tokens of any length, Stripe
	// keys followed by anything; `sk-` keys are judged by skKey.
	tokenRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|xox[abposr]-[A-Za-z0-9\-]{10,}|glpat-[A-Za-z0-9_\-]{20,}|AIza[0-9A-Za-z_\-]{35}|[rs]k_(?:live|test|prod)_[A-Za-z0-9]{10,}|sk-[A-Za-z0-9_\-]{10,})`)
	})
	// urlCredRe finds scheme://user:password@ (the password is group 1).
	urlCredRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]{1,30}://[^\s:/@?#"'<>` + "`" + `]*:([^\s@/?#"'<>` + "`" + `]+)@`)
	})
	// bearerRe finds `Bearer <token>` (group 1).
	bearerRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/\-]{16,}=*)`) })
	// basicRe finds `Authorization: Basic <base64>` (group 1).
	basicRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})`)
	})
	// jwtRe finds a JWT: base64url JSON header and payload ("eyJ" is `{"`), signature.
	jwtRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*`)
	})
	// assignRe finds `key = `, `key: `, `"key": `, `'key' => ` where key names a
	// secret; the value that follows is judged by secretValue.
	// The operator is on the key's line and so is the value.
	assignRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)([A-Za-z0-9_.\-]*(?:password|passwd|pwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)[A-Za-z0-9_.\-]*)(["']?)([ \t]*(?::=|=>|=|:)[ \t]*)`)
	})
)

type handDetector struct {
	d        detector
	keywords []string
}

func handWritten() []handDetector {
	out := []handDetector{
		{detector{id: "token", reOf: tokenRe, accept: acceptToken},
			[]string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
				"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "glpat-", "aiza", "k_live_", "k_test_", "k_prod_", "sk-"}},
		{detector{id: "url-password", reOf: urlCredRe, accept: acceptGroups("url-password", urlPassword)}, []string{"://"}},
		{detector{id: "authorization", reOf: bearerRe, accept: acceptGroups("authorization", hasDigit), pre: bearerPre}, []string{"bearer"}},
		{detector{id: "authorization", reOf: basicRe, accept: acceptGroups("authorization", hasDigit)}, []string{"authorization"}},
		{detector{id: "jwt", reOf: jwtRe, accept: acceptGroups("jwt", nil), pre: minRun(40)}, []string{"eyj"}},
		{detector{id: "assignment", reOf: assignRe, accept: acceptAssignment, pre: assignmentPre}, secretKeywords},
		{detector{id: "aws-secret-key", reOf: awsSecretRe, reach: 2, accept: acceptAWSSecret, pre: awsContextPre},
			[]string{"akia", "asia", "secret_access_key", "secretaccesskey", "secret-access-key", "aws_secret"}},
		{detector{id: "private-key", reOf: b64BeginRe, accept: acceptB64Key}, b64BeginKeywords},
	}
	out = append(out, formDetectors()...)
	return append(out, cliDetectors()...)
}

func acceptToken(sc *scan, off int, loc []int) {
	s, e := off+loc[0], off+loc[1]
	if strings.HasPrefix(sc.text[s:e], "sk-") && !skKey(sc.text[s+3:e]) {
		return
	}
	sc.add(s, e, "token")
}

// acceptGroups returns an accept func that takes the first non-empty group (or
// the match) when ok (nil = always) says it is a secret.
func acceptGroups(id string, ok func(string) bool) func(*scan, int, []int) {
	return func(sc *scan, off int, loc []int) {
		s, e := off+loc[0], off+loc[1]
		for g := 1; 2*g+1 < len(loc); g++ {
			if loc[2*g] >= 0 && loc[2*g+1] > loc[2*g] {
				s, e = off+loc[2*g], off+loc[2*g+1]
				break
			}
		}
		if ok != nil && !ok(sc.text[s:e]) {
			return
		}
		sc.add(s, e, id)
	}
}

// urlPassword rejects the placeholders of a URL's password: ${VAR}, $VAR, %s, <pw>.
func urlPassword(pw string) bool {
	return !looksLikePlaceholder(pw) && !strings.HasPrefix(pw, "$") && !strings.HasPrefix(pw, "%")
}

// skKey judges the part of an `sk-` key after the dash (OpenAI, Anthropic,
// DeepSeek and others): a run of at least skMinRun letters and digits, and a
// digit and a letter somewhere in it (so `sk-learn-and-numpy-together` is not a
// key).
//
// The run, not the whole length, is what counts: the names that look like keys
// are words joined by dashes — OpenSSH's security-key algorithms
// (`sk-ssh-ed25519-cert-v01@openssh.com`, `sk-ecdsa-sha2-nistp256`: runs of 7
// and 8), SpinKit's CSS classes (`sk-circle12`, `sk-double-bounce2`), bare
// provider prefixes in code that checks keys (`sk-ant-api03-`, `sk-proj-`) —
// while keys, even short test ones (`sk-abc123def456`), are one random run.
//
// skMinRun is 10 because of what was measured (bench/redact, its other trees):
// no `sk-` name in Go's source tree, in the front end's node_modules (8,847
// files), in npm's own modules or in Debian's Python packages reaches even 8;
// SpinKit's CSS (react-spinkit) has names of 8 (sk-circle10 to sk-circle12) and
// none of 10; in a Go module cache of 27,288 files the old rule (16 characters,
// dashes counted) made 37 redactions, 19 of them OpenSSH algorithm names, while
// runs of 10 make 18, all of them fake keys in gitleaks' rule tests.
func skKey(body string) bool {
	run, best := 0, 0
	for i := 0; i < len(body); i++ {
		if isAlnum(body[i]) {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best >= skMinRun && hasDigit(body) && strings.IndexFunc(body, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }) >= 0
}

// skMinRun is the shortest run of letters and digits of an `sk-` key (see skKey).
const skMinRun = 10

// awsSecretRe: a bare AWS secret access key, 40 characters of base64 (the
// boundaries are checked by acceptAWSSecret, as RE2 has no look-around).
var awsSecretRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9/+]{40}`) })

// awsContextPre: the keyword is an access key id (AKIA/ASIA and 16 upper-case
// letters or digits) or a name of the secret key (aws_secret_access_key,
// SecretAccessKey, AWS_SECRET_KEY); the window is its line and two on each side.
func awsContextPre(text string, ks, ke int) bool {
	k := text[ks:ke]
	if !strings.EqualFold(k, "akia") && !strings.EqualFold(k, "asia") {
		return true // a name, in any case
	}
	if (k != "AKIA" && k != "ASIA") || ke+16 > len(text) {
		return false
	}
	for i := ke; i < ke+16; i++ {
		if c := text[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// acceptAWSSecret: a run of exactly 40 base64 characters (not part of a longer
// token, not followed by '=' padding) with an upper-case letter, a lower-case
// letter and a digit and the entropy of random base64 — near an AWS access key
// id or a secret key's name (the window), as in the CSV of credentials the AWS
// console offers (`AKIA…,wJalr…`), an env file or `aws configure set
// aws_secret_access_key wJalr…`.
func acceptAWSSecret(sc *scan, off int, loc []int) {
	s, e := off+loc[0], off+loc[1]
	t := sc.text
	if s > 0 && (isAlnum(t[s-1]) || t[s-1] == '/' || t[s-1] == '+') || e < len(t) && (isAlnum(t[e]) || t[e] == '/' || t[e] == '+' || t[e] == '=') {
		return
	}
	v := t[s:e]
	if strings.IndexFunc(v, func(r rune) bool { return 'a' <= r && r <= 'z' }) < 0 ||
		strings.IndexFunc(v, func(r rune) bool { return 'A' <= r && r <= 'Z' }) < 0 || !hasDigit(v) || shannonEntropy(v) < 3.8 {
		return
	}
	sc.add(s, e, "aws-secret-key")
}

func hasDigit(s string) bool { return strings.IndexAny(s, "0123456789") >= 0 }

// acceptAssignment judges the value assigned to a secret-like name (see
// secretName and assignedSecret). In a list of `key=value;` pairs (a connection
// string of ODBC, ADO.NET or JDBC) Pwd is a password too and a value may be
// braced (`Pwd={a;b}`); in a URL's query a value ends at `&`. In a file of code
// an unquoted value is an expression, unless the name stands inside a string
// literal (`"Server=db;Password=x;"`, `"host=db password=x"`): there it is text.
func acceptAssignment(sc *scan, off int, loc []int) {
	text := sc.text
	start := off + loc[1] // the value starts after the operator and spaces
	op := text[off+loc[6] : off+loc[7]]
	opt := strings.TrimSpace(op)
	if opt == "=" && start < len(text) && text[start] == '=' { // comparison ==
		return
	}
	if opt == ":" && start < len(text) && text[start] == ':' { // C++ scope, Python slice
		return
	}
	ks := off + loc[2]
	key := text[ks : off+loc[3]]
	kind := secretName(key)
	inList := opt == "=" && pairListBefore(text, ks)
	if kind == "" && inList && strings.EqualFold(key, "pwd") {
		kind = "password"
	}
	if kind == "" && !keyOrSaltName(key) {
		return
	}
	if inList && start < len(text) && text[start] == '{' { // ODBC: Pwd={a;b}
		if e := strings.IndexByte(text[start:lineEndNear(text, start, 0)], '}'); e > 1 && kind != "" && !placeholderValue(text[start:start+e+1]) {
			sc.add(start+1, start+e, "assignment")
		}
		return
	}
	vs, ve := secretValue(text, start)
	if ve <= vs {
		if s, e := quotedLiteral(text, start); e > s && randomLiteral(text[s:e]) { // a salt that starts like a placeholder ('<k$L…')
			sc.add(s, e, "assignment")
		}
		return
	}
	quoted := vs > start
	if !quoted {
		if ks > 0 && (text[ks-1] == '?' || text[ks-1] == '&') { // a URL's query
			if i := strings.IndexByte(text[vs:ve], '&'); i >= 0 {
				ve = vs + i
			}
		}
		if sc.code { // only key=value text inside a string literal, up to an escape (\n)
			if opt != "=" || !insideString(text, ks) {
				return
			}
			if i := strings.IndexByte(text[vs:ve], '\\'); i >= 0 {
				ve = vs + i
			}
		}
		if ve-vs < 4 || text[vs] == '\\' || placeholderValue(text[vs:ve]) { // `\nhave`: an escape, then text
			return
		}
	}
	if kind == "" || !assignedSecret(text, key, kind, op, vs, ve, quoted) {
		if kind == "" && quoted && randomLiteral(text[vs:ve]) { // SECURITY_PASSWORD_SALT = '…'
			sc.add(vs, ve, "assignment")
		}
		return
	}
	sc.add(vs, ve, "assignment")
}

// pairListBefore reports whether the name at ks follows a `;` (blanks between
// allowed): it is a pair of a `key=value;` list.
func pairListBefore(text string, ks int) bool {
	i := ks
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
		i--
	}
	return i > 0 && text[i-1] == ';'
}

// secretWords are the last words of names that hold a secret; "key" counts after
// one of keyQualifiers (api_key, secretKey, PRIVATE_KEY), and a last word of
// valueWords after a secret word (password_value, tokenStr).
var (
	secretWords   = map[string]string{"password": "password", "passwd": "password", "pwd": "password", "pass": "password", "passphrase": "password", "secret": "password", "token": "token", "apikey": "token", "credential": "token", "credentials": "token", "creds": "token"}
	keyQualifiers = map[string]bool{"api": true, "access": true, "private": true, "secret": true, "auth": true, "signing": true, "sign": true,
		"encryption": true, "master": true, "client": true, "app": true, "account": true, "license": true, "service": true, "storage": true,
		"subscription": true, "admin": true, "consumer": true, "webhook": true, "hmac": true, "jwt": true, "ssh": true, "deploy": true}
	valueWords = map[string]bool{"value": true, "val": true, "str": true, "string": true, "b64": true, "base64": true, "hex": true, "raw": true, "plain": true, "plaintext": true, "env": true}
)

// secretName returns "password" for names of passwords and other secrets that
// may contain spaces (passphrases; also a password word glued to another,
// rpcpassword), "token" for keys and tokens, "" for names
// that only mention a secret (masterSecretLabel, TOKEN_READ, tokenFile, tokens,
// secretKeyRef) or PWD, the working directory.
func secretName(key string) string {
	ws := nameWords(key)
	if len(ws) == 0 || len(ws) == 1 && (ws[0] == "pwd" || ws[0] == "oldpwd") {
		return ""
	}
	last := ws[len(ws)-1]
	if valueWords[last] && len(ws) > 1 {
		ws = ws[:len(ws)-1]
		last = ws[len(ws)-1]
	}
	if k := secretWords[last]; k != "" {
		return k
	}
	for _, suf := range []string{"password", "passwd", "passphrase", "pwd"} { // rpcpassword, dbpasswd
		if strings.HasSuffix(last, suf) && len(last) >= len(suf)+2 && last != "oldpwd" {
			return "password"
		}
	}
	if last == "key" && len(ws) > 1 && keyQualifiers[ws[len(ws)-2]] {
		return "token"
	}
	return ""
}

// nameWords splits a name into lower-case words at punctuation and camelCase
// boundaries (APIKey → api key, db.password → db password).
func nameWords(name string) []string {
	var out []string
	w := 0 // start of the current word
	flush := func(i int) {
		if i > w {
			out = append(out, strings.ToLower(name[w:i]))
		}
		w = i
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			flush(i)
			w = i + 1
			continue
		}
		if i > w && 'A' <= c && c <= 'Z' {
			p := name[i-1]
			if 'a' <= p && p <= 'z' || '0' <= p && p <= '9' || // fooBar
				'A' <= p && p <= 'Z' && i+1 < len(name) && 'a' <= name[i+1] && name[i+1] <= 'z' { // APIKey
				flush(i)
			}
		}
	}
	flush(len(name))
	return out
}

// codeWords are values that are code, not secrets.
var codeWords = map[string]bool{"iota": true, "this": true, "self": true, "super": true, "return": true, "new": true, "await": true, "yield": true, "value": true, "default": true, "required": true, "optional": true}

// assignedSecret judges the value text[vs:ve] assigned to key with operator op
// (spaces included). A quoted value is a secret when quotedSecret says so. An
// unquoted value is an expression of code, not a secret, when it is a number,
// a code word (iota, self), part of the key's name or assigned with Go's :=; and
// when it is a plain word (letters only) that is an UPPER_SNAKE constant or a
// camelCase name, is followed by `,` `)` `}`, an operator or more words (prose),
// or stands between spaced `=` (code style; configs write key=value).
func assignedSecret(text, key, kind, op string, vs, ve int, quoted bool) bool {
	v := text[vs:ve]
	lk, lv := strings.ToLower(key), strings.ToLower(v)
	if strings.Contains(lk, lv) {
		return false
	}
	if quoted {
		return quotedSecret(key, kind, v)
	}
	if strings.TrimSpace(op) == ":=" || numberRe().MatchString(v) || codeWords[lv] {
		return false
	}
	word := true // letters and underscores only
	for i := 0; i < len(v); i++ {
		if c := v[i]; !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_') {
			word = false
			break
		}
	}
	if !word {
		return true // digits or symbols after a secret's name: a value
	}
	if strings.ToUpper(v) == v && strings.Contains(v, "_") { // CONSTANT_NAME
		return false
	}
	for i := 1; i < len(v); i++ {
		if 'a' <= v[i-1] && v[i-1] <= 'z' && 'A' <= v[i] && v[i] <= 'Z' { // camelCase
			return false
		}
	}
	if ve < len(text) && (text[ve] == ',' || text[ve] == ')' || text[ve] == '}') {
		return false
	}
	if strings.HasPrefix(op, " ") && strings.HasSuffix(op, " ") && strings.TrimSpace(op) == "=" || strings.TrimSpace(op) == "=>" {
		return false // code style: `password = value`, `'password' => value`
	}
	// what follows a plain word on its line: nothing, a comment, `;`, or another
	// key=value pair; more words are prose, an operator an expression
	rest := text[ve:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimLeft(rest, " \t\r")
	switch {
	case rest == "" || rest[0] == '#' || rest[0] == ';' || rest[0] == '&' && !strings.HasPrefix(rest, "&&"):
		return true
	case (rest[0] == '"' || rest[0] == '\'') && strings.TrimSpace(op) == "=": // the end of a string that holds a key=value pair
		return true
	case strings.HasPrefix(rest, "//"):
		return true
	case isNameByte(rest[0]):
		i := 0
		for i < len(rest) && isNameByte(rest[i]) {
			i++
		}
		return i < len(rest) && (rest[i] == '=' || rest[i] == ':') // the next pair; else prose
	}
	return false
}

var numberRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(?:0[xXbBoO][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?)[uUlLfF]*$`)
})

// assignmentPre: after the keyword, the rest of the name, an optional closing
// quote, spaces, `=` (not `==`), `:=` or `:`, spaces, and a value on the line.
func assignmentPre(text string, ks, ke int) bool {
	i := nameEnd(text, ke, isNameByte)
	if i < len(text) && (text[i] == '"' || text[i] == '\'') {
		i++
	}
	i = skipBlanks(text, i)
	switch {
	case i+1 < len(text) && text[i] == ':' && text[i+1] == '=':
		i += 2
	case i < len(text) && text[i] == ':':
		i++
	case i < len(text) && text[i] == '=' && (i+1 == len(text) || text[i+1] != '='):
		i++
	default:
		return false
	}
	i = skipBlanks(text, i)
	return i < len(text) && text[i] != '\n' && text[i] != '\r'
}

func skipBlanks(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

// bearerPre: spaces, then at least 16 token characters.
func bearerPre(text string, ks, ke int) bool {
	i := skipBlanks(text, ke)
	return i > ke && minRun(16)(text, i, i)
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}

// prefilters are cheap checks of a keyword hit for the gitleaks rules whose
// keywords are common in code; each accepts at least every hit the rule's
// regular expression can match from.
var prefilters = map[string]func(text string, ks, ke int) bool{
	// (?i)[\w.-]{0,50}?(?:access|auth|…|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}
	// (?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})…
	"generic-api-key":     genericPre,
	"vault-service-token": minRun(26), // s.[a-z0-9]{24}, hvs.[\w-]{90,}
	"twilio-api-key":      minRun(34), // SK[0-9a-fA-F]{32}
	"jwt":                 minRun(40), // ey…{17,}.ey…{17,}.
}

// minRun accepts a hit that starts a run of at least n token characters.
func minRun(n int) func(text string, ks, ke int) bool {
	return func(text string, ks, ke int) bool {
		i := ks
		for i < len(text) && i-ks < n && isTokenByte(text[i]) {
			i++
		}
		return i-ks >= n
	}
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_-./+=~", c) >= 0
}

func genericPre(text string, ks, ke int) bool {
	i := ke
	for n := 0; i < len(text) && n < 23; n++ { // the rest of the name, spaces, quotes
		c := text[i]
		if !(isNameByte(c) || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\'' || c == '"') {
			break
		}
		i++
	}
	if i >= len(text) || strings.IndexByte("=>:|?,", text[i]) < 0 {
		return false
	}
	for n := 0; i < len(text) && n < 4 && strings.IndexByte("=>:|?,", text[i]) >= 0; n++ {
		i++
	}
	// the value may start anywhere in the next 5 quotes, spaces or '='
	for n := 0; n <= 5 && i < len(text); n++ {
		if genericValueAt(text, i) {
			return true
		}
		if strings.IndexByte("`'\" \t\r\n=", text[i]) < 0 {
			return false
		}
		i++
	}
	return false
}

// genericValueAt: the generic rule's value ([\w.=-]{10,150} or a base64 run of 12
// or more) starts at i and ends before one of its terminators (quote, space, ';',
// a backslash of \n or \r, the end of the text).
func genericValueAt(text string, i int) bool {
	terminated := func(j int) bool {
		return j == len(text) || strings.IndexByte("`'\" \t\r\n\v\f;\\", text[j]) >= 0
	}
	j := i
	for j < len(text) && j-i <= 150 && (isAlnum(text[j]) || text[j] == '_' || text[j] == '.' || text[j] == '=' || text[j] == '-') {
		j++
	}
	if n := j - i; n >= 10 && n <= 150 && terminated(j) {
		return true
	}
	j = i
	for j < len(text) && (isAlnum(text[j]) || text[j] == '+' || text[j] == '/') {
		j++
	}
	n := j - i
	for k := 0; k < 3 && j < len(text) && text[j] == '='; k++ {
		j++
	}
	return n >= 12 && terminated(j)
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// maxName bounds the scans of a name from a keyword: a name longer than this
// is not one a secret goes by, and unbounded scans on a long run of name bytes
// (minified code) would make the keyword hits quadratic.
const maxName = 128

// nameEnd returns where the name bytes from i end (at most maxName further).
func nameEnd(text string, i int, ok func(byte) bool) int {
	for n := 0; i < len(text) && n < maxName && ok(text[i]); n++ {
		i++
	}
	return i
}

// nameStart returns where the name bytes before i start (at most maxName back).
func nameStart(text string, i int, ok func(byte) bool) int {
	for n := 0; i > 0 && n < maxName && ok(text[i-1]); n++ {
		i--
	}
	return i
}

// lineStartNear and lineEndNear are lineStartBack and lineEndForward within
// nearBytes of pos: a detector's look around a match stays bounded on a long line.
func lineStartNear(text string, pos, n int) int {
	lo := max(0, pos-nearBytes)
	return lo + lineStartBack(text[lo:pos], pos-lo, n)
}

func lineEndNear(text string, pos, n int) int {
	return lineEndForward(text[:min(len(text), pos+nearBytes)], pos, n)
}

func isIdentByte(c byte) bool { return isAlnum(c) || c == '_' }
