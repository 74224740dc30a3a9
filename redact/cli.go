package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Passwords on command lines and in .netrc, which the assignment detector
// (hand.go) does not see: there is no `name = value` in `mysql -pS3cret`,
// `sshpass -p S3cret`, `--password S3cret`, and in `PGPASSWORD=x psql` the value
// is short and followed by a command, which for a plain `name=word` means prose.
// Each detector is tied to a program, a flag or a variable that takes a
// password, so the English word "password" followed by another word is left
// alone.

var (
	// mysqlPassRe: a MySQL/MariaDB client with the password glued to -p
	// (`mysqldump -u root -pS3cret db`); `-p` alone prompts, `-P` is the port.
	mysqlPassRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:mysql[a-z]*|mariadb[a-z\-]*)(?:[ \t][^\n|;&]*?)?[ \t]-p(` + cliValue + `)`)
	})
	// sshpassRe: `sshpass -p S3cret ssh host` (also glued, -pS3cret).
	sshpassRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bsshpass[ \t](?:[^\n|;&]*?[ \t])?-p[ \t]*(` + cliValue + `)`)
	})
	// redisAuthRe: `redis-cli -a S3cret`.
	redisAuthRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bredis-cli[ \t](?:[^\n|;&]*?[ \t])?-a[ \t]+(` + cliValue + `)`)
	})
	// passFlagRe: a long flag naming a password, `--password=S3cret`,
	// `--password S3cret`, `--db-password S3cret` (not --password-stdin), and
	// redis-server's `--requirepass S3cret`, `--masterauth S3cret`.
	passFlagRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s'"(=])--(?:(?:[A-Za-z0-9]+[-_])*pass(?:word|wd)|requirepass|masterauth)(=|[ \t]+)(` + cliValue + `)`)
	})
	// envPassRe: a shell variable that holds a password, set in front of a
	// command or exported: `PGPASSWORD=x psql`, `export SSHPASS=...`,
	// `MYSQL_PWD=... mysql`; an upper-case name glued to `=` and its value.
	envPassRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s;&|(` + "`" + `'"])([A-Z][A-Z0-9_]*)=(` + cliValue + `)`)
	})
	// netrcRe: a .netrc entry, its tokens on one line or several:
	// `machine example.com login bob password S3cret`. The value is group 1.
	netrcRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|["'\s])(?:machine[ \t]+[^\s"']+|default)((?:\s+(?:login|account|port)\s+[^\s"']+)*)\s+password[ \t]+(` + cliValue + `)`)
	})
)

// cliValue is a command-line argument: quoted, or a run of characters up to a
// blank, a quote or a shell operator (; | & and parentheses).
const cliValue = `'[^'\n]*'|"[^"\n]*"|[^\s'"` + "`" + `;|&()]+`

func cliDetectors() []handDetector {
	return []handDetector{
		{detector{id: "command-password", reOf: mysqlPassRe, accept: acceptCLI(1)}, []string{"mysql", "mariadb"}},
		{detector{id: "command-password", reOf: sshpassRe, accept: acceptCLI(1)}, []string{"sshpass"}},
		{detector{id: "command-password", reOf: redisAuthRe, accept: acceptCLI(1)}, []string{"redis-cli"}},
		{detector{id: "command-password", reOf: passFlagRe, accept: acceptPassFlag, pre: passFlagPre}, []string{"password", "passwd", "requirepass", "masterauth"}},
		{detector{id: "command-password", reOf: envPassRe, accept: acceptEnvPassword, pre: envPassPre}, []string{"password", "passwd", "pwd", "pass", "rediscli_auth"}},
		{detector{id: "netrc", reOf: netrcRe, reach: 8, accept: acceptNetrc, pre: netrcPre}, []string{"machine", "default"}},
	}
}

// cliSecret returns the span of a command-line value at text[s:e] without its
// quotes, or an empty span when it is a placeholder or a reference: $VAR,
// ${VAR}, $(cmd), %s, {name}, #{name}, <password>, [REDACTED], ****. A quoted
// value ends its argument (a blank, the end, a shell operator or a closing
// bracket follows) and does not start with a blank: `"--password=" + pw + "…"`
// is code that builds a command, and what stands between its quotes is code.
func cliSecret(text string, s, e int) (int, int) {
	if e-s >= 2 && (text[s] == '\'' || text[s] == '"') && text[e-1] == text[s] {
		if e < len(text) && strings.IndexByte(" \t\r\n;|&)]},", text[e]) < 0 {
			return s, s
		}
		s, e = s+1, e-1
		if s < e && (text[s] == ' ' || text[s] == '\t') {
			return s, s
		}
	}
	if cliPlaceholder(text[s:e]) {
		return s, s
	}
	return s, e
}

// cliPlaceholder: what documentation and code put where a password goes.
func cliPlaceholder(v string) bool {
	if v == "" || looksLikePlaceholder(v) || strings.ContainsAny(v[:1], "$%{[<#") || strings.Contains(v, "${") || strings.Contains(v, "$(") {
		return true
	}
	if len(v) >= 3 && strings.Trim(v, ".xX*_-") == "" { // ..., xxxx, ***
		return true
	}
	switch strings.ToLower(v) {
	case "password", "passwd", "pass", "pw", "pwd", "secret", "passphrase", "yourpassword", "your_password":
		return true
	}
	return false
}

// acceptCLI accepts group g of a program's password option.
func acceptCLI(g int) func(*scan, int, []int) {
	return func(sc *scan, off int, loc []int) {
		if loc[2*g] < 0 {
			return
		}
		if s, e := cliSecret(sc.text, off+loc[2*g], off+loc[2*g+1]); e > s {
			sc.add(s, e, "command-password")
		}
	}
}

// passFlagPre: the keyword ends a long flag (`--…password`) followed by `=` or a
// blank.
func passFlagPre(text string, ks, ke int) bool {
	if ke >= len(text) || (text[ke] != '=' && text[ke] != ' ' && text[ke] != '\t') {
		return false
	}
	i := nameStart(text, ks, func(c byte) bool { return isAlnum(c) || c == '-' || c == '_' })
	return strings.HasPrefix(text[i:ks], "--")
}

// acceptPassFlag judges the value of `--password=X` or `--password X`. After a
// blank the next word may be help text rather than a value: a metavar
// (PASSWORD, string, value), another flag, or a word of prose (lower-case
// letters only: "--password is required"). A value glued with `=` is a value
// unless it is a placeholder or a metavar.
func acceptPassFlag(sc *scan, off int, loc []int) {
	s, e := cliSecret(sc.text, off+loc[4], off+loc[5])
	if e <= s {
		return
	}
	v := sc.text[s:e]
	quoted := s > off+loc[4]
	if !quoted && (v[0] == '-' || metavarRe().MatchString(v) || codeWords[strings.ToLower(v)]) {
		return
	}
	if glued := sc.text[off+loc[2]:off+loc[3]] == "="; !glued && !quoted && lowerWordRe().MatchString(v) {
		return
	}
	sc.add(s, e, "command-password")
}

var (
	// metavarRe: an upper-case placeholder of help text (PASSWORD, PASS_FILE).
	metavarRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z_]*$`) })
	// lowerWordRe: a word of prose.
	lowerWordRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]+[.,:;!?]?$`) })
)

// envPassNames are variables that hold a password but whose names the
// assignment detector does not read as one.
var envPassNames = map[string]bool{"PGPASSWORD": true, "SSHPASS": true, "REDISCLI_AUTH": true, "MYSQL_PWD": true}

// envPassPre: the keyword is in an upper-case name glued to `=`.
func envPassPre(text string, ks, ke int) bool {
	i := nameEnd(text, ke, func(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' })
	return i < len(text) && text[i] == '=' && i+1 < len(text) && text[i+1] != '='
}

// acceptEnvPassword judges `NAME=value` where NAME is an upper-case variable of
// a password (…PASSWORD, …PASSWD, …PASSPHRASE, …_PASS, …_PWD, SSHPASS,
// REDISCLI_AUTH, but not PWD, OLDPWD or a name that only mentions one, such as
// PASSWORD_FILE). Any value counts, even one character (`PGPASSWORD=x psql`),
// except a placeholder, a reference, an expression (a call, indexing, a dotted
// name) or the name itself. In a file of code the unquoted value must be inside
// a string literal (`"PGPASSWORD=x psql"`): elsewhere it is an expression.
func acceptEnvPassword(sc *scan, off int, loc []int) {
	text := sc.text
	name := text[off+loc[2] : off+loc[3]]
	if !envPasswordName(name) {
		return
	}
	vs0, ve0 := off+loc[4], off+loc[5]
	s, e := cliSecret(text, vs0, ve0)
	if e <= s {
		return
	}
	v := text[s:e]
	quoted := s > vs0
	if !quoted {
		if strings.ContainsAny(v, "([{") || dottedNameRe().MatchString(v) || strings.EqualFold(v, name) || codeWords[strings.ToLower(v)] {
			return
		}
		if sc.code && !insideString(text, off+loc[2]) {
			return
		}
	}
	sc.add(s, e, "command-password")
}

func envPasswordName(name string) bool {
	if envPassNames[name] {
		return true
	}
	for _, suf := range []string{"PASSWORD", "PASSWD", "PASSPHRASE", "_PASS", "_PWD"} {
		if strings.HasSuffix(name, suf) && name != "OLD_PWD" {
			return true
		}
	}
	return false
}

// insideString reports whether position i of a line of code is inside a string
// literal: an odd number of one kind of quote stands before it on its line.
func insideString(text string, i int) bool {
	line := text[lineStartNear(text, i, 0):i] // on a long line, what is near
	for _, q := range []string{`"`, `'`, "`"} {
		if strings.Count(line, q)%2 == 1 {
			return true
		}
	}
	return false
}

// netrcPre: `machine` or `default` is a word of its own followed by a blank;
// `default` (a common word) must be followed by a token of an entry.
func netrcPre(text string, ks, ke int) bool {
	if ks > 0 && (isAlnum(text[ks-1]) || text[ks-1] == '_' || text[ks-1] == '-' || text[ks-1] == '.') {
		return false
	}
	if ke >= len(text) || (text[ke] != ' ' && text[ke] != '\t' && text[ke] != '\n' && text[ke] != '\r') {
		return false
	}
	if text[ks] == 'm' || text[ks] == 'M' {
		return true
	}
	i := ke
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	rest := text[i:min(len(text), i+8)]
	return strings.HasPrefix(rest, "login") || strings.HasPrefix(rest, "account") || strings.HasPrefix(rest, "password")
}

// acceptNetrc judges a .netrc entry. `machine`/`default` at the start of a line
// (after indentation) starts an entry; elsewhere on a line (`echo "machine h
// login u password p" >> ~/.netrc`) the entry must have its login too, so that
// prose ("the machine's password is…") is left alone.
func acceptNetrc(sc *scan, off int, loc []int) {
	text := sc.text
	ms := off + loc[0]
	for ms < len(text) && (text[ms] == '"' || text[ms] == '\'' || text[ms] == ' ' || text[ms] == '\t' || text[ms] == '\n' || text[ms] == '\r') {
		ms++
	}
	atLineStart := strings.TrimLeft(text[lineStartBack(text, ms, 0):ms], " \t") == ""
	if !atLineStart && !strings.Contains(text[off+loc[2]:off+loc[3]], "login") {
		return
	}
	if strings.HasPrefix(text[ms:], "default") && !atLineStart {
		return
	}
	if s, e := cliSecret(text, off+loc[4], off+loc[5]); e > s {
		sc.add(s, e, "netrc")
	}
}
