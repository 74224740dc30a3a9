package plan

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
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
// validator is plan's own (schemacheck below): a JSON schema library would
// compile its meta-schemas in its package initialiser, at every start of every
// fixplan process, whether a plan is ever validated or not.
var compiled = sync.OnceValues(func() (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(schemaJSON))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	n, err := compileNode(raw, "#")
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	return n, nil
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
	var leaves []leaf
	if err := s.check(v, "", &leaves); err != nil {
		return nil, fmt.Errorf("validate plan: %w", err)
	}
	if len(leaves) == 0 {
		return nil, nil
	}
	return schemaIssues(leaves), nil
}

// node is one compiled schema: the subset of JSON Schema 2020-12 the embedded
// schema uses (type, enum, required, properties, additionalProperties, items,
// anyOf). compileNode refuses any other keyword, so a schema change that needs
// more fails TestSchemaCompiles instead of going unchecked.
type node struct {
	types     []string
	enum      []any
	enumMsg   string
	required  []string
	props     map[string]*node
	propNames []string // sorted, for a stable order of issues
	closed    bool     // additionalProperties: false
	extra     *node    // additionalProperties: a schema
	items     *node
	anyOf     []*node
}

// annotations are keywords that do not constrain a value.
var annotations = map[string]bool{"description": true, "title": true, "$comment": true, "examples": true}

func compileNode(raw any, at string) (*node, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a schema must be an object", at)
	}
	n := &node{}
	for k, v := range m {
		switch k {
		case "type":
			switch t := v.(type) {
			case string:
				n.types = []string{t}
			case []any:
				for _, x := range t {
					s, ok := x.(string)
					if !ok {
						return nil, fmt.Errorf("%s/type: not a list of names", at)
					}
					n.types = append(n.types, s)
				}
			default:
				return nil, fmt.Errorf("%s/type: not a name or a list of names", at)
			}
		case "enum":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return nil, fmt.Errorf("%s/enum: not a list", at)
			}
			n.enum = list
			quoted := make([]string, len(list))
			for i, x := range list {
				switch x.(type) {
				case map[string]any, []any:
					return nil, fmt.Errorf("%s/enum: only plain values are supported", at)
				}
				quoted[i] = fmt.Sprintf("%#v", x)
			}
			if len(list) == 1 {
				n.enumMsg = "value must be " + quoted[0]
			} else {
				n.enumMsg = "value must be one of " + strings.Join(quoted, ", ")
			}
		case "required":
			list, _ := v.([]any)
			for _, x := range list {
				s, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("%s/required: not a list of names", at)
				}
				n.required = append(n.required, s)
			}
		case "properties":
			pm, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s/properties: not an object", at)
			}
			n.props = map[string]*node{}
			for name, ps := range pm {
				c, err := compileNode(ps, at+"/properties/"+name)
				if err != nil {
					return nil, err
				}
				n.props[name] = c
				n.propNames = append(n.propNames, name)
			}
			sort.Strings(n.propNames)
		case "additionalProperties":
			if b, ok := v.(bool); ok {
				n.closed = !b
				continue
			}
			c, err := compileNode(v, at+"/additionalProperties")
			if err != nil {
				return nil, err
			}
			n.extra = c
		case "items":
			c, err := compileNode(v, at+"/items")
			if err != nil {
				return nil, err
			}
			n.items = c
		case "anyOf":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return nil, fmt.Errorf("%s/anyOf: not a list of schemas", at)
			}
			for i, x := range list {
				c, err := compileNode(x, fmt.Sprintf("%s/anyOf/%d", at, i))
				if err != nil {
					return nil, err
				}
				n.anyOf = append(n.anyOf, c)
			}
		default:
			if !annotations[k] {
				return nil, fmt.Errorf("%s: keyword %q is not supported by plan's schema check", at, k)
			}
		}
	}
	return n, nil
}

// leaf is one failed check: where in the instance (a JSON pointer) and why.
type leaf struct{ loc, msg string }

// jsonType names the JSON type of a decoded value.
func jsonType(v any) (string, error) {
	switch v.(type) {
	case nil:
		return "null", nil
	case bool:
		return "boolean", nil
	case json.Number, float64, float32, int, int64:
		return "number", nil
	case string:
		return "string", nil
	case []any:
		return "array", nil
	case map[string]any:
		return "object", nil
	}
	return "", fmt.Errorf("%T is not a JSON value", v)
}

func isInteger(v any) bool {
	r, ok := new(big.Rat).SetString(fmt.Sprint(v))
	return ok && r.IsInt()
}

// quoteName quotes a property name as the issues show it: 'name'.
func quoteName(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, "'", `\'`) + "'"
}

// escapeToken is one JSON pointer segment.
func escapeToken(s string) string {
	s = strings.ReplaceAll(s, "~", "~0")
	return url.PathEscape(strings.ReplaceAll(s, "/", "~1"))
}

// check appends to out why v (at loc) does not match n. A type mismatch is the
// only issue reported for a value; then enum, required, each property, extra
// properties, each item and anyOf, whose failing branches are all reported.
func (n *node) check(v any, loc string, out *[]leaf) error {
	vt, err := jsonType(v)
	if err != nil {
		return err
	}
	if len(n.types) > 0 {
		ok := false
		for _, t := range n.types {
			if t == vt || t == "integer" && vt == "number" && isInteger(v) {
				ok = true
				break
			}
		}
		if !ok {
			*out = append(*out, leaf{loc, fmt.Sprintf("expected %s, but got %s", strings.Join(n.types, " or "), vt)})
			return nil
		}
	}
	if n.enum != nil {
		ok := false
		for _, e := range n.enum {
			if equalPlain(v, e) {
				ok = true
				break
			}
		}
		if !ok {
			*out = append(*out, leaf{loc, n.enumMsg})
		}
	}
	switch x := v.(type) {
	case map[string]any:
		var missing []string
		for _, r := range n.required {
			if _, ok := x[r]; !ok {
				missing = append(missing, quoteName(r))
			}
		}
		if len(missing) > 0 {
			*out = append(*out, leaf{loc, "missing properties: " + strings.Join(missing, ", ")})
		}
		for _, name := range n.propNames {
			if pv, ok := x[name]; ok {
				if err := n.props[name].check(pv, loc+"/"+escapeToken(name), out); err != nil {
					return err
				}
			}
		}
		if n.closed || n.extra != nil {
			var extra []string
			for name := range x {
				if _, ok := n.props[name]; !ok {
					extra = append(extra, name)
				}
			}
			sort.Strings(extra)
			if n.closed && len(extra) > 0 {
				quoted := make([]string, len(extra))
				for i, e := range extra {
					quoted[i] = quoteName(e)
				}
				*out = append(*out, leaf{loc, "additionalProperties " + strings.Join(quoted, ", ") + " not allowed"})
			}
			if n.extra != nil {
				for _, name := range extra {
					if err := n.extra.check(x[name], loc+"/"+escapeToken(name), out); err != nil {
						return err
					}
				}
			}
		}
	case []any:
		if n.items != nil {
			for i, item := range x {
				if err := n.items.check(item, loc+"/"+strconv.Itoa(i), out); err != nil {
					return err
				}
			}
		}
	}
	if len(n.anyOf) > 0 {
		var failed []leaf
		for _, b := range n.anyOf {
			var mine []leaf
			if err := b.check(v, loc, &mine); err != nil {
				return err
			}
			if len(mine) == 0 {
				failed = nil
				break
			}
			failed = append(failed, mine...)
		}
		*out = append(*out, failed...)
	}
	return nil
}

// equalPlain compares a decoded value with a plain enum value.
func equalPlain(v, e any) bool {
	vt, _ := jsonType(v)
	et, _ := jsonType(e)
	if vt != et {
		return false
	}
	if vt == "number" {
		a, ok1 := new(big.Rat).SetString(fmt.Sprint(v))
		b, ok2 := new(big.Rat).SetString(fmt.Sprint(e))
		return ok1 && ok2 && a.Cmp(b) == 0
	}
	return v == e
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
