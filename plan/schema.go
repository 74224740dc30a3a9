package plan

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// schemaJSON is the strict-mode JSON schema of one model response. The same bytes
// are sent to the provider (response_format json_schema, strict) and used to validate.
//
//go:embed schema.json
var schemaJSON []byte

// SchemaName is the json_schema name sent on the wire.
const SchemaName = "fix_plan"

// Schema returns a copy of the embedded strict-mode schema.
func Schema() json.RawMessage {
	return append(json.RawMessage(nil), schemaJSON...)
}

// compiled is the schema compiled on first use; it is immutable afterwards. The
// schema declares no $schema (strict mode forbids it), so the draft is set here.
// The library compiles its own meta-schemas in its package initialiser (~3 ms of
// every process start); compiling plan's schema waits for the first reply.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(schemaURL, bytes.NewReader(schemaJSON)); err != nil {
		return nil, fmt.Errorf("add schema: %w", err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	return s, nil
})

// PrepareSchema starts compiling the schema on a goroutine of its own, when it
// is not compiled yet (~2.5 ms): a caller about to wait for a reply has it
// ready when the reply comes.
func PrepareSchema() { go compiled() }

// schemaURL names the embedded schema inside the compiler; nothing is fetched.
const schemaURL = "fixplan:schema.json"

// maxIssues caps how many issues are quoted back to the model in a repair request.
const maxIssues = 20

// validateSchema validates a decoded JSON value (decoded with UseNumber) against the
// schema and returns its issues as "instance path: message", or nil when valid.
func validateSchema(v any) ([]string, error) {
	s, err := compiled()
	if err != nil {
		return nil, err
	}
	return checkSchema(s, v)
}

// checkSchema validates v against s and flattens the library's error tree into
// the issues a repair request quotes back to the model.
func checkSchema(s *jsonschema.Schema, v any) ([]string, error) {
	err := s.Validate(v)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("validate plan: %w", err)
	}
	var leaves []leaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, leaf{e.InstanceLocation, sortedExtra(e.Message)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return schemaIssues(leaves), nil
}

// leaf is one failed check: where in the instance (a JSON pointer) and why.
type leaf struct{ loc, msg string }

// extraPrefix and extraSuffix frame the library's message for properties that
// additionalProperties: false refuses.
const extraPrefix, extraSuffix = "additionalProperties ", " not allowed"

// sortedExtra sorts the names of an "additionalProperties 'b', 'a' not allowed"
// message (the library lists them in map order) so that the same reply always
// gets the same issue; any other message is returned as it is. The names are
// quoted as 'name' with ' and \ escaped by a backslash.
func sortedExtra(msg string) string {
	if !strings.HasPrefix(msg, extraPrefix) || !strings.HasSuffix(msg, extraSuffix) {
		return msg
	}
	list := msg[len(extraPrefix) : len(msg)-len(extraSuffix)]
	var names []string
	for len(list) > 0 {
		if list[0] != '\'' {
			return msg
		}
		end := 1
		for end < len(list) && list[end] != '\'' {
			if list[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(list) {
			return msg
		}
		names = append(names, list[:end+1])
		list = list[end+1:]
		if len(list) > 0 {
			if !strings.HasPrefix(list, ", ") {
				return msg
			}
			list = list[2:]
		}
	}
	sort.Strings(names)
	return extraPrefix + strings.Join(names, ", ") + extraSuffix
}

var expectedRe = regexp.MustCompile(`^expected (\S+), but got (\S+)$`)

// schemaIssues flattens a validation error tree into short issues. Sibling anyOf
// branch mismatches at one location are merged ("expected object or null, but got
// string"); a "null" branch mismatch is dropped when the other branch has deeper errors.
func schemaIssues(leaves []leaf) []string {
	deeper := func(loc string) bool {
		for _, l := range leaves {
			if l.loc != loc && strings.HasPrefix(l.loc, loc+"/") {
				return true
			}
			if l.loc == loc && !expectedRe.MatchString(l.msg) {
				return true
			}
		}
		return false
	}
	var order []string
	expected := map[string][]string{}
	got := map[string]string{}
	other := map[string][]string{}
	for _, l := range leaves {
		if _, seen := expected[l.loc]; !seen {
			if _, seen2 := other[l.loc]; !seen2 {
				order = append(order, l.loc)
			}
		}
		if m := expectedRe.FindStringSubmatch(l.msg); m != nil {
			if deeper(l.loc) {
				continue
			}
			expected[l.loc] = append(expected[l.loc], m[1])
			got[l.loc] = m[2]
			continue
		}
		other[l.loc] = append(other[l.loc], l.msg)
	}
	sort.Strings(order)
	var out []string
	for _, loc := range order {
		p := loc
		if p == "" {
			p = "/"
		}
		if ex := expected[loc]; len(ex) > 0 {
			out = append(out, fmt.Sprintf("%s: expected %s, but got %s", p, strings.Join(uniq(ex), " or "), got[loc]))
		}
		for _, m := range uniq(other[loc]) {
			out = append(out, p+": "+shorten(m, 200))
		}
	}
	return capIssues(out)
}

func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func capIssues(issues []string) []string {
	if len(issues) <= maxIssues {
		return issues
	}
	n := len(issues) - maxIssues
	return append(issues[:maxIssues:maxIssues], fmt.Sprintf("… and %d more issues", n))
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
