package gitrepo

import (
	"fmt"
	"sort"
	"strings"
)

// A repository's own config (.git/config, config.worktree, the common dir's
// config of a linked worktree) is chosen by whoever made the folder. Many of its
// keys make git run a program (core.fsmonitor on every status, a filter's clean
// command on racily-clean files, diff drivers, hooks, pagers, credential
// helpers, ...) or read more config from elsewhere (include.path, includeIf). So
// before git runs, fixplan reads that config itself, with a port of git's own
// parser (config.c: git_parse_source), and runs nothing when it names a program.
// Where the port and git could disagree, the port refuses: anything it does not
// understand makes the config unreadable, and git is not run either.

// configEntry is one key of a git config file.
type configEntry struct {
	section string // lower-cased, before the first dot of the section name
	sub     string // the rest of the section name: the subsection ("" when none)
	key     string // lower-cased
	value   string
	bare    bool // "key" without "= value" (boolean true)
}

// name is the key for people: section, "*" for any subsection, key. The
// subsection is left out: it is the project's text, and may say anything.
func (e configEntry) name() string {
	if e.sub != "" {
		return e.section + ".*." + e.key
	}
	return e.section + "." + e.key
}

// configSyntaxError is a config that the port of git's parser does not accept.
type configSyntaxError struct {
	line int
	why  string
}

func (e *configSyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.why) }

// configReader reads bytes the way git's get_next_char does: "\r\n" is "\n",
// and the end of the data is a final "\n".
type configReader struct {
	data []byte
	pos  int
	line int
	eof  bool
}

func (r *configReader) next() byte {
	if r.pos >= len(r.data) {
		r.eof = true
		return '\n'
	}
	c := r.data[r.pos]
	r.pos++
	if c == '\r' && r.pos < len(r.data) && r.data[r.pos] == '\n' {
		c = '\n'
		r.pos++
	}
	if c == '\n' {
		r.line++
	}
	return c
}

// The character classes of git's sane_ctype (ASCII only, whatever the locale).
// \v and \f are not spaces there; the port treats them as errors outside values.
func cfgSpace(c byte) bool   { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func cfgAlpha(c byte) bool   { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func cfgKeyChar(c byte) bool { return cfgAlpha(c) || (c >= '0' && c <= '9') || c == '-' }
func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseGitConfig parses one git config file into its entries, in order. It fails
// on anything git would reject, and also on a key before the first section.
func parseGitConfig(data []byte) ([]configEntry, error) {
	r := &configReader{data: data, line: 1}
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf { // UTF-8 BOM
		r.pos = 3
	}
	var (
		out     []configEntry
		section string
		sub     string
		have    bool // a section header was read
		comment bool
	)
	bad := func(why string) error { return &configSyntaxError{line: r.line, why: why} }
	for {
		c := r.next()
		if c == '\n' {
			if r.eof {
				return out, nil
			}
			comment = false
			continue
		}
		if comment || c == ' ' || c == '\t' || c == '\r' {
			continue
		}
		if c == '#' || c == ';' {
			comment = true
			continue
		}
		if c == '[' {
			name, err := r.sectionName()
			if err != nil {
				return nil, bad(err.Error())
			}
			section, sub, _ = strings.Cut(name, ".")
			if section == "" {
				return nil, bad("empty section name")
			}
			have = true
			continue
		}
		if !cfgAlpha(c) {
			return nil, bad("a key must start with a letter")
		}
		if !have {
			return nil, bad("a key before the first section")
		}
		e, err := r.keyValue(c)
		if err != nil {
			return nil, bad(err.Error())
		}
		e.section, e.sub = section, sub
		out = append(out, e)
	}
}

// sectionName reads a section header after "[" (get_base_var and
// get_extended_base_var): `name]`, `name "subsection"]` or the old `name.sub]`.
// The name is lower-cased; a quoted subsection keeps its case and follows a dot.
func (r *configReader) sectionName() (string, error) {
	var b strings.Builder
	for {
		c := r.next()
		switch {
		case r.eof:
			return "", fmt.Errorf("unterminated section header")
		case c == ']':
			return b.String(), nil
		case cfgSpace(c):
			return r.subsection(&b, c)
		case !cfgKeyChar(c) && c != '.':
			return "", fmt.Errorf("bad character in a section name")
		}
		b.WriteByte(lowerByte(c))
	}
}

func (r *configReader) subsection(b *strings.Builder, c byte) (string, error) {
	for cfgSpace(c) {
		if c == '\n' {
			return "", fmt.Errorf("unterminated section header")
		}
		c = r.next()
	}
	if c != '"' {
		return "", fmt.Errorf(`a subsection must be quoted: [section "subsection"]`)
	}
	b.WriteByte('.')
	for {
		c = r.next()
		if c == '\n' {
			return "", fmt.Errorf("unterminated subsection")
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = r.next(); c == '\n' {
				return "", fmt.Errorf("unterminated subsection")
			}
		}
		b.WriteByte(c)
	}
	if r.next() != ']' {
		return "", fmt.Errorf("a section header must end right after its subsection")
	}
	return b.String(), nil
}

// keyValue reads a key whose first character is first, and its value (get_value
// and parse_value).
func (r *configReader) keyValue(first byte) (configEntry, error) {
	var name strings.Builder
	name.WriteByte(lowerByte(first))
	var c byte
	for {
		c = r.next()
		if r.eof || !cfgKeyChar(c) {
			break
		}
		name.WriteByte(lowerByte(c))
	}
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	e := configEntry{key: name.String()}
	if c == '\n' {
		e.bare = true
		return e, nil
	}
	if c != '=' {
		return e, fmt.Errorf("bad character after the key %q", e.key)
	}
	v, err := r.value()
	e.value = v
	return e, err
}

// value reads a value up to the end of its line: quotes, escapes, line
// continuations, and comments outside quotes (parse_value).
func (r *configReader) value() (string, error) {
	var (
		b              strings.Builder
		quote, comment bool
		spaces         int
	)
	for {
		c := r.next()
		if c == '\n' {
			if quote {
				return "", fmt.Errorf("unterminated quote in a value")
			}
			return b.String(), nil
		}
		if comment {
			continue
		}
		if cfgSpace(c) && !quote {
			if b.Len() > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			b.WriteByte(' ')
		}
		if c == '\\' {
			switch c = r.next(); c {
			case '\n':
				if r.eof {
					return "", fmt.Errorf("a backslash at the end of the file")
				}
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", fmt.Errorf("unknown escape in a value")
			}
			b.WriteByte(c)
			continue
		}
		if c == '"' {
			quote = !quote
			continue
		}
		b.WriteByte(c)
	}
}

// programSections are sections every key of which names a program, says when
// one runs, or pulls in more config.
var programSections = map[string]bool{
	"include": true, "includeif": true, // more config, from anywhere
	"filter":     true, // clean/smudge/process: run by status on racily-clean files
	"credential": true, // helper
	"pager":      true, // pager.<cmd>
	"hook":       true, // hook.<name>.command (config-based hooks)
	"difftool":   true, "mergetool": true, "guitool": true,
	"browser": true, "man": true, "instaweb": true, "sendemail": true,
	"trace2": true, // where git writes traces (read from user config only, refused here anyway)
}

// programKeys are keys (last part, lower-cased) that name a program or a place
// programs are taken from, in any section.
var programKeys = map[string]bool{
	"fsmonitor": true, "usebuiltinfsmonitor": true, "hookspath": true, "pager": true, "askpass": true,
	"gitproxy": true, "textconv": true, "external": true, "driver": true, "clean": true, "smudge": true,
	"process": true, "path": true, "tunnel": true, "difffilter": true, "vcs": true, "uploadpack": true,
	"receivepack": true, "packobjectshook": true, "browser": true, "viewer": true, "httpd": true,
	"smtpserver": true, "standalonetransferagent": true,
}

// programSuffixes end keys that name a program: core.sshCommand,
// diff.<driver>.command, gpg.program, credential.helper, core.editor, diff.tool,
// url.<base>.insteadOf (which can reach a transport that runs commands), ...
var programSuffixes = []string{"command", "cmd", "program", "helper", "editor", "tool", "insteadof"}

// namesProgram reports whether e can make git run a program the config's
// author chose, or read more config.
func namesProgram(e configEntry) bool {
	switch {
	case programSections[e.section]:
		return true
	case e.section == "alias", e.section == "submodule" && e.key == "update":
		return strings.HasPrefix(strings.TrimSpace(e.value), "!") // a shell command
	case e.section == "protocol" && e.key == "allow": // lets transports through, ext:: included
		return true
	case e.section == "submodule", e.section == "color": // submodule.<name>.path is a folder, color.pager a boolean
		return false
	case programKeys[e.key]:
		return true
	}
	for _, s := range programSuffixes {
		if strings.HasSuffix(e.key, s) {
			return true
		}
	}
	return false
}

// programNames lists, sorted and once each, the keys of entries that name a
// program (see namesProgram).
func programNames(entries []configEntry) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range entries {
		if n := e.name(); namesProgram(e) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
