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

// compiled is compiled once on first use; it is immutable afterwards.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("fixplan:schema.json", bytes.NewReader(schemaJSON)); err != nil {
		return nil, fmt.Errorf("add schema: %w", err)
	}
	s, err := c.Compile("fixplan:schema.json")
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	return s, nil
})

// maxIssues caps how many issues are quoted back to the model in a repair request.
const maxIssues = 20

// validateSchema validates a decoded JSON value (decoded with UseNumber) against the
// schema and returns its issues as "instance path: message", or nil when valid.
func validateSchema(v any) ([]string, error) {
	s, err := compiled()
	if err != nil {
		return nil, err
	}
	err = s.Validate(v)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("validate plan: %w", err)
	}
	return schemaIssues(ve), nil
}

var expectedRe = regexp.MustCompile(`^expected (\S+), but got (\S+)$`)

// schemaIssues flattens a validation error tree into short issues. Sibling anyOf
// branch mismatches at one location are merged ("expected object or null, but got
// string"); a "null" branch mismatch is dropped when the other branch has deeper errors.
func schemaIssues(ve *jsonschema.ValidationError) []string {
	type leaf struct{ loc, msg string }
	var leaves []leaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, leaf{e.InstanceLocation, e.Message})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
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
