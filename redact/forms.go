package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Forms that bind a secret-named key to a literal value other than `key = value`
// (the assignment detector, hand.go), each found by its shape rather than by
// product:
//
//   - calls: a setter or builder of a secret (`setPassword("x")`,
//     `set_password('x')`, `.password("x")`, `withPassword("x")`, SQL's
//     `PASSWORD('x')`), a pair of arguments of a call that binds names to
//     values whose first is a secret's name (`define('DB_PASSWORD', 'x')`,
//     `setProperty("…Password", "x")`, `getenv("SECRET_KEY", "x")`,
//     `Header.Set("X-Api-Key", "x")`), and a call that makes credentials from a
//     user name and a password (`new NetworkCredential("u", "x")`,
//     `HTTPBasicAuth('u', 'x')`, `SetBasicAuth(u, "x")`);
//   - directives: a config line whose first word names a secret and whose one
//     value follows after blanks (`requirepass x`, `masterauth x`, `rootpw x`,
//     `auth_pass x`, `sentinel auth-pass m x`, `SetEnv DB_PASSWORD x`, redis ACL
//     `user u on >x`), and a password's name followed by a quoted literal
//     anywhere (SQL `PASSWORD 'x'`, BIND `secret "x";`, C `#define DB_PASSWORD
//     "x"`, fetchmail `password "x"`);
//   - SQL: `IDENTIFIED BY x` (MySQL, Oracle), `SET PASSWORD … = 'x'`;
//   - fields: a name or key field naming a secret and the value field beside it
//     (Kubernetes `- name: DB_PASSWORD` / `value: x`, `<add key="…Password"
//     value="x"/>`, `<property name="…password">x</property>`), and XML elements
//     (`<password>x</password>`);
//   - keys and salts (WordPress' AUTH_KEY … NONCE_SALT): a name ending in key or
//     salt bound to a literal that looks random (randomLiteral).
//
// Connection strings (`…;Pwd=x;`, `password=x` inside a string of code) are
// the assignment detector's (hand.go). Every value is judged by literalSecret
// (and value.go): what a placeholder, a reference or a message looks like is
// decided there, the same way for every form. Every look around a match is
// bounded (nearBytes, maxName, callArgs' 1 KiB), so a long line costs time
// linear in its length.

var (
	// callRe: a call, `name(` (the arguments are read by callArgs).
	callRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(`) })
	// pairRe: a quoted name that is an argument of a call (after `(` or `,`)
	// and the comma after it; the value follows.
	pairRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([(,])[ \t]*(["'])([A-Za-z_][A-Za-z0-9_.\-]*)["'][ \t]*,[ \t]*`)
	})
	// directiveRe: a line's first word (after blanks and a comment mark) and the
	// rest of the line.
	directiveRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^[ \t]*(?:(?:#+|;+|//)[ \t]*)?([A-Za-z][A-Za-z0-9_.\-]*)[ \t]+([^\r\n]*[^\s])`)
	})
	// quotedAfterRe: a name, blanks and a quote (SQL's N'…' and E'…' too).
	quotedAfterRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_.\-]*)[ \t]+([NnEe]?["'])`) })
	// identifiedRe: SQL's IDENTIFIED BY (also WITH plugin BY, BY PASSWORD, BY
	// VALUES, WITH plugin AS); the value follows.
	identifiedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bidentified[ \t]+(?:with[ \t]+["'` + "`" + `]?[A-Za-z0-9_]+["'` + "`" + `]?[ \t]+)?(?:by|as)[ \t]+(?:(?:password|values)[ \t]+)?`)
	})
	// setPasswordRe: MySQL's SET PASSWORD [FOR account] = [PASSWORD(]; the value follows.
	setPasswordRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bset[ \t]+password\b(?:[ \t]+for[ \t]+[^=\n]{1,200}?)?[ \t]*=[ \t]*(?:(?:old_)?password[ \t]*\([ \t]*)?`)
	})
	// xmlElementRe: `<name>text</name>` on one line (the names are compared by
	// acceptXMLElement: RE2 has no back-references).
	xmlElementRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<([A-Za-z_][A-Za-z0-9_.:\-]*)>([^<\n]+)</([A-Za-z_][A-Za-z0-9_.:\-]*)>`)
	})
	// nameFieldRe: a field that names another (`name: X`, `key="X"`,
	// `"name": "X"`, ParameterKey=X); the value field is looked for after it.
	nameFieldRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:name|key|parameterkey)["']?[ \t]*[:=][ \t]*["']?([A-Za-z_][A-Za-z0-9_.\-]*)(["']?)`)
	})
	// valueFieldRe: the value field beside it (`value: x`, `value="x"`, ParameterValue=x).
	valueFieldRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:value|parametervalue)["']?([ \t]*[:=][ \t]*)`)
	})
)

// secretKeywords are the keywords of the detectors that find a value by the
// name of its secret (assignments, setters, pairs, fields): words that most of
// those names hold.
var secretKeywords = []string{"pass", "pwd", "secret", "token", "api", "access", "private", "auth", "credential"}

func formDetectors() []handDetector {
	return []handDetector{
		{detector{id: "setter", reOf: callRe, accept: acceptSetter, pre: setterPre}, append([]string{"connect", "login", "logon", "signin", "pdo"}, secretKeywords...)},
		{detector{id: "key-value", reOf: pairRe, accept: acceptPair, pre: pairPre}, append([]string{"salt", "_key"}, secretKeywords...)},
		{detector{id: "directive", reOf: directiveRe, accept: acceptDirective, pre: directivePre}, append([]string{"pw", "masterauth", "user"}, secretKeywords...)},
		{detector{id: "directive", reOf: quotedAfterRe, accept: acceptQuotedAfter, pre: quotedAfterPre}, []string{"pass", "pwd", "pw", "secret"}},
		{detector{id: "sql-password", reOf: identifiedRe, accept: acceptIdentified}, []string{"identified"}},
		{detector{id: "sql-password", reOf: setPasswordRe, accept: acceptSQLSetPassword}, []string{"set password"}},
		{detector{id: "field", reOf: xmlElementRe, accept: acceptXMLElement, pre: xmlElementPre}, secretKeywords},
		{detector{id: "field", reOf: nameFieldRe, reach: 2, accept: acceptNameField, pre: nameFieldPre}, secretKeywords},
	}
}

func isTagNameByte(c byte) bool { return isNameByte(c) || c == ':' }

// literalSecret judges a literal v (the text between its quotes, or a token of
// a directive) bound to key, of kind (secretName's, or "" for a name that ends
// in key or salt). It is not a secret when it is a placeholder
// (placeholderValue) or code: the text between two literals (`" + pw + "`,
// concatenation; `"+tok+"` inside an element). Else a value that looks random
// is a secret whatever its key (randomLiteral), and another one when
// quotedSecret says so and it is not a reference to another secret by its name
// (`setProperty("password", "db.password")`).
func literalSecret(key, kind, v string) bool {
	if v == "" || placeholderValue(v) || concatenation(v) || strings.IndexByte("\"'`", v[0]) >= 0 || strings.IndexByte("\"'`", v[len(v)-1]) >= 0 {
		return false
	}
	if randomLiteral(v) {
		return true
	}
	if kind == "" {
		return false
	}
	if identRe().MatchString(v) && secretName(v) != "" {
		return false
	}
	return quotedSecret(key, kind, v)
}

// ---- calls: setters and pairs

// setterPre: the keyword is in a name followed by blanks and `(`.
func setterPre(text string, ks, ke int) bool {
	i := skipBlanks(text, nameEnd(text, ke, isIdentByte))
	return i < len(text) && text[i] == '('
}

// setterVerbs are the first words of a setter's name; nounWords may stand
// before a secret's last word in a builder's name (`.dbPassword("x")`).
var (
	setterVerbs = map[string]bool{"set": true, "with": true}
	nounWords   = map[string]bool{"db": true, "database": true, "user": true, "admin": true, "root": true, "bearer": true, "refresh": true,
		"session": true, "oauth": true, "bot": true, "proxy": true, "smtp": true, "mail": true, "ldap": true, "bind": true, "key": true,
		"store": true, "trust": true, "keystore": true, "truststore": true, "default": true, "basic": true, "remote": true, "id": true}
)

// setterName returns the kind of secret a call sets, or "": a setter
// (setPassword, set_db_password, withApiKey) or a builder or conversion named by
// the secret alone (password, apiKey, accessToken, PASSWORD; not a bare token,
// which parsers and printers call with a token of their language). Other verbs
// get, check, hash, read or prompt for a secret (getPassword("name"),
// readPassword("Password: ")): their literal is not one.
func setterName(name string) string {
	ws := nameWords(name)
	if len(ws) < 1 {
		return ""
	}
	if setterVerbs[ws[0]] {
		if len(ws) < 2 {
			return ""
		}
		return secretName(name)
	}
	last := ws[len(ws)-1]
	if secretWords[last] == "" && last != "key" {
		return "" // tokenString(…), passwordValue(…): conversions of a value
	}
	if len(ws) == 1 && secretWords[last] != "password" {
		return "" // token("…") prints or reads a token of a language
	}
	for _, w := range ws[:len(ws)-1] {
		if !nounWords[w] && !keyQualifiers[w] && secretWords[w] == "" {
			return ""
		}
	}
	return secretName(name)
}

// acceptSetter: the last argument of a setter is a string literal (perhaps
// converted: `"x".toCharArray()`); so is the password argument of a call that
// takes credentials (passwordArg).
func acceptSetter(sc *scan, off int, loc []int) {
	text := sc.text
	name := text[off+loc[2] : off+loc[3]]
	if ws := nameWords(name); len(ws) == 1 && ws[0] == "pass" { // the verb: pass("…")
		return
	}
	kind := setterName(name)
	args := callArgs(text, off+loc[1]-1)
	if len(args) == 0 {
		return
	}
	a := args[len(args)-1]
	if kind == "" {
		k := passwordArg(name, text, args)
		if k < 0 {
			return
		}
		a, kind = args[k], "password"
	}
	vs, ve := quotedLiteral(text, a[0])
	if ve <= vs {
		return
	}
	if rest := strings.TrimSpace(text[ve+1 : a[1]]); rest != "" && rest[0] != '.' {
		return // "x" + y: an expression
	}
	if literalSecret(name, kind, text[vs:ve]) {
		sc.add(vs, ve, "setter")
	}
}

// dbConnectCalls are the calls that connect to a database with (place, user,
// password, …).
var dbConnectCalls = map[string]bool{"getconnection": true, "mysqli_connect": true, "mysql_connect": true, "mysql_pconnect": true,
	"odbc_connect": true, "odbc_pconnect": true, "pdo": true, "mysqli": true}

// passwordArg returns the index of the password among the arguments of a call
// that takes one after a user name, or -1:
//   - a call that makes or sets credentials (NetworkCredential,
//     HTTPBasicAuth, SetBasicAuth, UsernamePasswordCredentials, smtp.PlainAuth;
//     its name ends in auth, authentication or credential(s) and says which
//     kind): the argument after the user name, the first that is not "";
//   - a call that logs in (login, ftp_login, ssh2_auth_password): the second
//     of two arguments (user, password), the third of three (connection, user,
//     password);
//   - a call that connects to a database with a place, a user and a password
//     (JDBC's DriverManager.getConnection(url, user, password), PHP's
//     mysqli_connect(host, user, password, db), odbc_connect(dsn, user,
//     password), new PDO(dsn, user, password), new mysqli(…)): the third
//     argument. Other connect calls order their arguments otherwise
//     (SftpConnect(user, password, host), oci_connect(user, password, db)).
func passwordArg(name, text string, args [][2]int) int {
	ws := nameWords(name)
	if len(ws) == 0 {
		return -1
	}
	last := ws[len(ws)-1]
	switch {
	case len(ws) >= 2 && (last == "auth" || last == "authentication" || last == "credential" || last == "credentials"):
		for _, w := range ws[:len(ws)-1] {
			switch w {
			case "basic", "plain", "password", "network", "username", "user", "http", "digest", "login", "ntlm":
				k := 0 // the user name
				for k < len(args) && text[args[k][0]:args[k][1]] == `""` {
					k++
				}
				if k+1 < len(args) {
					return k + 1
				}
				return -1
			}
		}
	case last == "login" || last == "logon" || last == "signin" || len(ws) >= 2 && ws[len(ws)-2] == "auth" && last == "password":
		if len(args) == 2 || len(args) == 3 {
			return len(args) - 1
		}
	case dbConnectCalls[strings.ToLower(name)]:
		if len(args) >= 3 {
			return 2
		}
	}
	return -1
}

// callArgs returns the spans of the arguments of the call whose `(` is at open,
// blanks trimmed, when the call closes on its line within maxCallBytes.
func callArgs(text string, open int) [][2]int {
	const maxCallBytes = 1024
	var out [][2]int
	depth, start := 0, open+1
	for i := open + 1; i < len(text) && i < open+maxCallBytes; i++ {
		switch c := text[i]; c {
		case '\n':
			return nil
		case '"', '\'', '`':
			if _, e := quotedLiteral(text, i); e > i {
				i = e
			} else if c != '\'' { // an apostrophe may stand alone (Rust lifetimes, prose)
				return nil
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
				continue
			}
			if c != ')' {
				return nil
			}
			out = append(out, trimSpan(text, start, i))
			if len(out) == 1 && out[0][0] == out[0][1] {
				return nil // no arguments
			}
			return out
		case ',':
			if depth == 0 {
				out = append(out, trimSpan(text, start, i))
				start = i + 1
			}
		}
	}
	return nil
}

func trimSpan(text string, s, e int) [2]int {
	for s < e && (text[s] == ' ' || text[s] == '\t') {
		s++
	}
	for e > s && (text[e-1] == ' ' || text[e-1] == '\t' || text[e-1] == '\r') {
		e--
	}
	return [2]int{s, e}
}

// pairPre: the keyword is in a quoted name followed by its quote, blanks and a comma.
func pairPre(text string, ks, ke int) bool {
	i := nameEnd(text, ke, isNameByte)
	if i >= len(text) || (text[i] != '"' && text[i] != '\'') {
		return false
	}
	i = skipBlanks(text, i+1)
	return i < len(text) && text[i] == ','
}

// acceptPair: `("secret-name", "literal")` in the arguments of a call that
// binds names to values — a setter, a map's put or of, a definition, a getter
// with a default (`define('DB_PASSWORD', 'x')`, `props.setProperty(…)`,
// `Map.of("user", "app", "password", "x")`, `os.getenv("SECRET_KEY", "x")`,
// `Header.Set("X-Api-Key", "x")`, `localStorage.setItem("token", "x")`).
// Other calls take positional arguments (`scrypt('password', 'salt', 64)`,
// `log.info('token', 'creating')`), and a list of names is not pairs. The
// literal is a whole argument (a comma or `)` follows). A value that is a
// name rather than a secret is left: a CamelCase word, and for a token's
// name a lower-case word or words joined by `-` or `_` (`"credentials",
// "same-origin"`). A translation function is not such a call: its second
// string is a text domain (`__('Password', 'woocommerce')`).
func acceptPair(sc *scan, off int, loc []int) {
	text := sc.text
	if text[off+loc[4]] != text[off+loc[7]] { // the name's quotes
		return
	}
	open := off + loc[2]
	if text[open] == ',' {
		if open = enclosingCall(text, open); open < 0 {
			return
		}
	}
	if callee := calleeName(text, open); !pairCallee(callee) {
		return
	}
	name := text[off+loc[6] : off+loc[7]]
	kind := secretName(name)
	if kind == "" && !keyOrSaltName(name) {
		return
	}
	vs, ve := quotedLiteral(text, off+loc[1])
	if ve <= vs {
		return
	}
	if i := skipBlanks(text, ve+1); i < len(text) && text[i] != ',' && text[i] != ')' {
		return
	}
	v := text[vs:ve]
	if camelWordRe().MatchString(v) || kind == "token" && lowerWordsRe().MatchString(v) || dottedNameRe().MatchString(v) {
		return
	}
	if literalSecret(name, kind, v) {
		sc.add(vs, ve, "key-value")
	}
}

var (
	// camelWordRe: a name in CamelCase or a capitalized word (Value, TokenDelims).
	camelWordRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][a-z]+(?:[A-Z][a-z]+)*$`) })
	// lowerWordsRe: lower-case words joined by - or _ (same-origin, name_adverb).
	lowerWordsRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]+(?:[-_][a-z]+)*$`) })
)

// pairVerbs are the first words of the names of calls that bind a name to a
// value (setProperty, putExtra, addHeader, withHeader, getOrDefault, setItem);
// pairCalls are whole names (define, getenv, of, env).
var (
	pairVerbs = map[string]bool{"set": true, "put": true, "add": true, "append": true, "with": true, "get": true, "fetch": true,
		"store": true, "save": true, "insert": true, "update": true, "define": true, "setdefault": true}
	pairCalls = map[string]bool{"define": true, "getenv": true, "putenv": true, "setenv": true, "env": true, "of": true, "entry": true,
		"header": true, "param": true, "option": true, "property": true, "config": true, "setdefault": true}
)

func pairCallee(name string) bool {
	ws := nameWords(name)
	return len(ws) > 0 && (pairVerbs[ws[0]] || len(ws) == 1 && pairCalls[ws[0]])
}

// calleeName returns the name before the `(` at open.
func calleeName(text string, open int) string {
	e := open
	for e > 0 && (text[e-1] == ' ' || text[e-1] == '\t') {
		e--
	}
	return text[nameStart(text, e, isIdentByte):e]
}

// enclosingCall returns the `(` of the call whose arguments hold the comma at
// i, or -1: the line before it (within nearBytes) up to an unclosed `(`,
// skipping strings and closed brackets; an unclosed `[` or `{`, a `;` or the
// line's start come first in a list or a statement.
func enclosingCall(text string, i int) int {
	depth := 0
	for j := i - 1; j >= 0 && j > i-nearBytes; j-- {
		switch c := text[j]; c {
		case '\n', ';':
			if depth == 0 {
				return -1
			}
		case '"', '\'', '`':
			k := strings.LastIndexByte(text[max(0, i-nearBytes):j], c)
			if k < 0 {
				return -1
			}
			j = max(0, i-nearBytes) + k
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth > 0 {
				depth--
				continue
			}
			if c != '(' {
				return -1
			}
			return j
		}
	}
	return -1
}

// ---- directives

// gluedSecretName reports whether a one-word directive name glues a password
// word to its end (requirepass, rpcpassword, dbpass) or is one of the server
// directives whose glued word is shorter (redis' masterauth, OpenLDAP's rootpw
// and bindpw: `pw` alone ends too many words, CMPW among them).
func gluedSecretName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "masterauth", "rootpw", "bindpw":
		return true
	}
	if !identRe().MatchString(n) || len(nameWords(name)) != 1 || englishPass[n] {
		return false
	}
	for _, suf := range []string{"password", "passwd", "passphrase", "pass", "pwd"} {
		if strings.HasSuffix(n, suf) && len(n) >= len(suf)+2 && n != "oldpwd" {
			return true
		}
	}
	return false
}

// englishPass are words that end like a glued password's name.
var englishPass = map[string]bool{"bypass": true, "compass": true, "surpass": true, "overpass": true, "underpass": true, "trespass": true, "encompass": true}

// directiveLeads are words that may stand before a directive that names a
// secret: redis' sentinel, Dockerfile's ENV, csh's setenv, Apache's SetEnv,
// Cisco's enable, nginx's fastcgi_param.
var directiveLeads = map[string]bool{"sentinel": true, "env": true, "setenv": true, "set": true, "enable": true, "fastcgi_param": true}

// directivePre: the keyword is in the first word of its line (after blanks, a
// comment mark, and a lead word), followed by a blank.
func directivePre(text string, ks, ke int) bool {
	i := nameEnd(text, ke, isNameByte)
	if i >= len(text) || (text[i] != ' ' && text[i] != '\t') {
		return false
	}
	s := nameStart(text, ks, isNameByte)
	j := nameStart(text, s, isDirectivePrefix)
	if j == 0 || text[j-1] == '\n' {
		return true
	}
	w := nameStart(text, j, isNameByte) // a lead word, then blanks
	if w == j || j == s || text[s-1] != ' ' && text[s-1] != '\t' || !directiveLeads[strings.ToLower(text[w:j])] {
		return false
	}
	k := nameStart(text, w, isDirectivePrefix)
	return k == 0 || text[k-1] == '\n'
}

func isDirectivePrefix(c byte) bool { return c == ' ' || c == '\t' || c == '#' || c == ';' || c == '/' }

// acceptDirective: a config line `name value` whose name is a secret's (or
// `lead name value`, or `sentinel auth-pass master value`), or a redis ACL rule
// (`user name on >password`). Lines of code files are not directives. A
// name that glues a password word to its end (requirepass) takes any value; a
// name that only holds one (password, auth_pass, AuthLDAPBindPassword) takes
// a value of 4 characters or more with a digit or a symbol inside it, so that
// a heading ("Password reset"), a line of wrapped prose ("token types.") or a
// field of code pasted as text (`PrivateKey interface{}`, `byToken
// map[string]*Node`) is not one.
func acceptDirective(sc *scan, off int, loc []int) {
	text := sc.text
	ls := off + loc[0]
	if sc.code || ls > 0 && text[ls-1] != '\n' { // a window cut a long line
		return
	}
	name := text[off+loc[2] : off+loc[3]]
	toks := fieldSpans(text, off+loc[4], off+loc[5])
	if directiveLeads[strings.ToLower(name)] && len(toks) > 1 {
		name, toks = text[toks[0][0]:toks[0][1]], toks[1:]
	}
	if strings.EqualFold(name, "user") {
		acceptACL(sc, toks)
		return
	}
	glued := gluedSecretName(name)
	kind := secretName(name)
	if !glued && (kind == "" || strings.EqualFold(name, "pass")) {
		return
	}
	var t [2]int
	switch {
	case len(toks) == 1:
		t = toks[0]
	case len(toks) == 2 && strings.EqualFold(name, "auth-pass"): // sentinel auth-pass <master> <password>
		t = toks[1]
	default:
		return
	}
	vs, ve := t[0], t[1]
	if ve > vs && text[ve-1] == ';' { // nginx, BIND
		ve--
	}
	quoted := false
	if s, e := quotedLiteral(text, vs); e > s && e+1 == ve {
		vs, ve, quoted = s, e, true
	}
	v := text[vs:ve]
	if quoted {
		if !literalSecret(name, "password", v) {
			return
		}
	} else if !directiveValue(name, v, glued) {
		return
	}
	sc.add(vs, ve, "directive")
}

// directiveValue judges an unquoted directive value.
func directiveValue(name, v string, glued bool) bool {
	if v == "" || placeholderValue(v) || strings.IndexByte("*&[(=:", v[0]) >= 0 || typeWords[strings.ToLower(v)] ||
		dottedNameRe().MatchString(v) || strings.Contains(strings.ToLower(name), strings.ToLower(v)) {
		return false
	}
	if glued {
		return true
	}
	w := strings.TrimRight(v, ".,;:!?")
	return len(w) >= 4 && !strings.ContainsAny(w, "[]{}()") &&
		strings.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }) >= 0
}

// typeWords are types that follow a field's name in code pasted as text.
var typeWords = map[string]bool{"int8": true, "int16": true, "int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true,
	"uint32": true, "uint64": true, "uintptr": true, "float32": true, "float64": true, "byte": true, "rune": true, "error": true,
	"any": true, "char": true, "long": true, "short": true, "double": true, "float": true, "boolean": true, "number": true,
	"object": true, "text": true, "varchar": true, "blob": true, "bytes": true, "secretstr": true}

// acceptACL: the passwords of a redis ACL rule (`user worker on >pw ~jobs:*
// +@list`: `>pw` adds one, `<pw` removes one); the line is a rule when it has
// an ACL word (on, off, nopass, a key pattern, a command category).
func acceptACL(sc *scan, toks [][2]int) {
	text := sc.text
	rule := false
	for _, t := range toks {
		w := text[t[0]:t[1]]
		if w == "on" || w == "off" || w == "nopass" || w == "allkeys" || strings.HasPrefix(w, "~") || strings.HasPrefix(w, "+@") || strings.HasPrefix(w, "-@") {
			rule = true
		}
	}
	if !rule {
		return
	}
	for _, t := range toks[1:] {
		if w := text[t[0]:t[1]]; len(w) > 1 && (w[0] == '>' || w[0] == '<') && !placeholderValue(w[1:]) {
			sc.add(t[0]+1, t[1], "directive")
		}
	}
}

// fieldSpans splits text[s:e] at blanks; a quoted token is one field.
func fieldSpans(text string, s, e int) [][2]int {
	var out [][2]int
	for i := s; i < e; {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		j := i
		if _, qe := quotedLiteral(text, i); qe > i && qe < e {
			j = qe + 1
		}
		for j < e && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// quotedAfterPre: the keyword is in a name followed by blanks and a quote.
func quotedAfterPre(text string, ks, ke int) bool {
	i := nameEnd(text, ke, isNameByte)
	j := skipBlanks(text, i)
	if j == i || j >= len(text) {
		return false
	}
	if j+1 < len(text) && strings.IndexByte("NnEe", text[j]) >= 0 {
		j++
	}
	return text[j] == '"' || text[j] == '\''
}

// acceptQuotedAfter: a password's name, blanks and a quoted literal — SQL's
// `PASSWORD 'x'`, BIND's `secret "x";`, C's `#define DB_PASSWORD "x"`, Ruby's
// `password "x"`. The name is a password's (not a token's: `token "func"` is
// how a parser's comment names a token; a glued name is often a program's,
// `htpasswd "user" "pw"`); a quoted name before the literal (`"password" "x"`)
// and the verb pass are not one.
func acceptQuotedAfter(sc *scan, off int, loc []int) {
	text := sc.text
	ns, ne := off+loc[2], off+loc[3]
	if ns > 0 && strings.IndexByte("\"'`", text[ns-1]) >= 0 {
		return
	}
	name := text[ns:ne]
	ws := nameWords(name)
	if len(ws) == 0 || secretWords[ws[len(ws)-1]] != "password" || strings.EqualFold(name, "pass") {
		return
	}
	kind := "password"
	vs, ve := quotedLiteral(text, off+loc[4])
	if ve > vs && literalSecret(name, kind, text[vs:ve]) {
		sc.add(vs, ve, "directive")
	}
}

// ---- SQL

// sqlAccountContext: the statement of IDENTIFIED BY creates, alters or grants
// to an account (its line and the two before it name a user, a role or a login).
func sqlAccountContext(text string, pos int) bool {
	ctx := strings.ToLower(text[lineStartNear(text, pos, 2):pos])
	for _, w := range []string{"user", "role", "login", "grant"} {
		if strings.Contains(ctx, w) {
			return true
		}
	}
	return false
}

// sqlValue returns the span of the SQL value at i: a quoted literal, or a bare
// identifier (Oracle's `IDENTIFIED BY tiger`); bind variables (?, :pw, &pw) and
// other expressions are not values.
func sqlValue(text string, i int) (int, int, bool) {
	if s, e := quotedLiteral(text, i); e > s {
		return s, e, true
	}
	j := i
	for j < len(text) && (isAlnum(text[j]) || text[j] == '_' || text[j] == '$' || text[j] == '#') {
		j++
	}
	if j == i || !('a' <= text[i]|0x20 && text[i]|0x20 <= 'z') {
		return i, i, false
	}
	return i, j, false
}

func acceptIdentified(sc *scan, off int, loc []int) {
	ms := off + loc[0]
	if !sqlAccountContext(sc.text, ms) {
		return
	}
	vs, ve, _ := sqlValue(sc.text, off+loc[1])
	if ve > vs && literalSecret("password", "password", sc.text[vs:ve]) {
		sc.add(vs, ve, "sql-password")
	}
}

func acceptSQLSetPassword(sc *scan, off int, loc []int) {
	vs, ve := quotedLiteral(sc.text, off+loc[1])
	if ve > vs && literalSecret("password", "password", sc.text[vs:ve]) {
		sc.add(vs, ve, "sql-password")
	}
}

// ---- fields

// xmlElementPre: the keyword is in the name of an opening tag, `<…name>`.
func xmlElementPre(text string, ks, ke int) bool {
	i := nameEnd(text, ke, isTagNameByte)
	if i >= len(text) || text[i] != '>' {
		return false
	}
	s := nameStart(text, ks, isTagNameByte)
	return s > 0 && text[s-1] == '<'
}

// acceptXMLElement: `<password>x</password>` (settings.xml, a SOAP body):
// the element's text is a literal.
func acceptXMLElement(sc *scan, off int, loc []int) {
	text := sc.text
	open, closing := text[off+loc[2]:off+loc[3]], text[off+loc[6]:off+loc[7]]
	if open != closing {
		return
	}
	local := open[strings.LastIndexByte(open, ':')+1:]
	kind := secretName(local)
	if gluedSecretName(local) {
		kind = "password"
	}
	if kind == "" {
		return
	}
	t := trimSpan(text, off+loc[4], off+loc[5])
	if t[1] > t[0] && literalSecret(local, kind, text[t[0]:t[1]]) {
		sc.add(t[0], t[1], "field")
	}
}

// nameFieldPre: the keyword is in the value of a name or key field
// (`name: X`, `key="X"`, `"Name": "X"`, `ParameterKey=X`).
func nameFieldPre(text string, ks, ke int) bool {
	i := nameStart(text, ks, isNameByte)
	if i > 0 && (text[i-1] == '"' || text[i-1] == '\'') {
		i--
	}
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
		i--
	}
	if i == 0 || (text[i-1] != ':' && text[i-1] != '=') {
		return false
	}
	i--
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
		i--
	}
	if i > 0 && (text[i-1] == '"' || text[i-1] == '\'') {
		i--
	}
	w := nameStart(text, i, isAlnum)
	switch strings.ToLower(text[w:i]) {
	case "name", "key", "parameterkey":
		return true
	}
	return false
}

// acceptNameField: a field that names a secret (`name: DB_PASSWORD`,
// `key="SmtpPassword"`) and the value field after it — on its line or on the
// two after it, before any other name field — or, in an XML tag with no value
// attribute, the element's text (`<property name="x.password">v</property>`).
// The value is judged as the assignment detector judges `DB_PASSWORD = value`.
func acceptNameField(sc *scan, off int, loc []int) {
	text := sc.text
	name := text[off+loc[2] : off+loc[3]]
	kind := secretName(name)
	if kind == "" {
		return
	}
	pos := off + loc[1]
	limit := lineEndNear(text, pos, 2)
	lineEnd := lineEndNear(text, pos, 0)
	rest := text[pos:limit]
	before := text[lineStartNear(text, pos, 0):pos]
	tagOpen := strings.LastIndexByte(before, '<') > strings.LastIndexByte(before, '>')
	if !tagOpen && !strings.Contains(rest, "alue") && !strings.Contains(rest, "ALUE") {
		return // no value field near: the regular expressions need not run
	}
	vloc := valueFieldRe().FindStringSubmatchIndex(rest)
	if next := nameFieldRe().FindStringIndex(rest); next != nil && (vloc == nil || next[0] < vloc[0]) {
		vloc = nil // the value field belongs to the next name
	}
	if tagOpen {
		gt := strings.IndexByte(text[pos:lineEnd], '>')
		if gt < 0 {
			return
		}
		if vloc == nil || pos+vloc[0] > pos+gt { // no value attribute: the element's text
			if text[pos+gt-1] == '/' {
				return
			}
			s := pos + gt + 1
			e := strings.IndexByte(text[s:lineEnd], '<')
			if e < 0 {
				return
			}
			ts := trimSpan(text, s, s+e)
			if ts[1] > ts[0] && literalSecret(name, kind, text[ts[0]:ts[1]]) {
				sc.add(ts[0], ts[1], "field")
			}
			return
		}
	}
	if vloc == nil {
		return
	}
	start := pos + vloc[1]
	vs, ve := secretValue(text, start)
	if ve <= vs {
		if s, e := quotedLiteral(text, start); e > s && randomLiteral(text[s:e]) {
			sc.add(s, e, "field")
		}
		return
	}
	quoted := vs > start
	if !quoted && sc.code {
		return
	}
	if quoted && !literalSecret(name, kind, text[vs:ve]) ||
		!quoted && !assignedSecret(text, name, kind, text[pos+vloc[2]:pos+vloc[3]], vs, ve, false) {
		return
	}
	sc.add(vs, ve, "field")
}
