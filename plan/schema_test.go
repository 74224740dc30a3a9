package plan

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestSchemaIsStrictModeLegal walks the embedded schema with OpenAI strict mode's
// rules: every object closed (additionalProperties false) and every property required;
// no keywords strict mode rejects; the memory key enum equals the whitelist.
func TestSchemaIsStrictModeLegal(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(Schema(), &root); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	if root["type"] != "object" {
		t.Fatalf("root type = %v, strict mode needs an object root", root["type"])
	}
	if _, ok := root["anyOf"]; ok {
		t.Fatal("root must not be anyOf")
	}
	forbidden := []string{"minLength", "maxLength", "pattern", "format", "minimum", "maximum",
		"minItems", "maxItems", "uniqueItems", "patternProperties", "$schema", "default"}
	objects := 0
	var walk func(path string, n any)
	walk = func(path string, n any) {
		switch v := n.(type) {
		case []any:
			for i, c := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), c)
			}
		case map[string]any:
			for _, k := range forbidden {
				if _, ok := v[k]; ok {
					t.Errorf("%s: keyword %q is not supported in strict mode", path, k)
				}
			}
			if props, ok := v["properties"].(map[string]any); ok {
				objects++
				if v["additionalProperties"] != false {
					t.Errorf("%s: additionalProperties must be false", path)
				}
				req := map[string]bool{}
				for _, r := range v["required"].([]any) {
					req[r.(string)] = true
				}
				for name := range props {
					if !req[name] {
						t.Errorf("%s: property %q is not required", path, name)
					}
				}
				if len(req) != len(props) {
					t.Errorf("%s: required lists %d names for %d properties", path, len(req), len(props))
				}
			} else if v["type"] == "object" {
				t.Errorf("%s: object without properties (strict mode needs closed objects)", path)
			}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(path+"."+k, v[k])
			}
		}
	}
	walk("$", root)
	if objects < 8 {
		t.Errorf("walked %d objects, want the 8 object shapes of the plan", objects)
	}
	mp := root["properties"].(map[string]any)["memory_patch"].(map[string]any)
	enum := mp["items"].(map[string]any)["properties"].(map[string]any)["key"].(map[string]any)["enum"].([]any)
	if len(enum) != len(MemoryKeys) {
		t.Fatalf("memory key enum %v != whitelist %v", enum, MemoryKeys)
	}
	for i, k := range enum {
		if k != MemoryKeys[i] {
			t.Errorf("enum[%d] = %v, want %s", i, k, MemoryKeys[i])
		}
	}
	kinds := root["properties"].(map[string]any)["proposed_changes"].(map[string]any)["anyOf"].([]any)[0].(map[string]any)["properties"].(map[string]any)["actions"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["kind"].(map[string]any)["enum"].([]any)
	if len(kinds) != len(ActionKinds) {
		t.Errorf("action kind enum %v != %v", kinds, ActionKinds)
	}
}

func TestSchemaCompiles(t *testing.T) {
	if _, err := compiled(); err != nil {
		t.Fatal(err)
	}
}

// compileTest compiles a test schema the way compiled compiles the embedded one.
func compileTest(schema string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("test.json", strings.NewReader(schema)); err != nil {
		return nil, err
	}
	return c.Compile("test.json")
}

// decodeTest decodes a JSON document the way Parse does (numbers as json.Number).
func decodeTest(t *testing.T, doc string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The schema check reports what a repair request quotes back to the model.
func TestSchemaCheckIssues(t *testing.T) {
	s := `{"type":"object","additionalProperties":false,"required":["n","kind","list","opt"],"properties":{
		"n":{"type":["integer","null"]},"kind":{"type":"string","enum":["a","b"]},
		"list":{"type":"array","items":{"type":"string"}},
		"opt":{"anyOf":[{"type":"object","additionalProperties":false,"required":["x"],"properties":{"x":{"type":"string"}}},{"type":"null"}]}}}`
	n, err := compileTest(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"valid", `{"n":3,"kind":"a","list":["x"],"opt":null}`, nil},
		{"integer written as 3.0 is an integer", `{"n":3.0,"kind":"a","list":[],"opt":{"x":"y"}}`, nil},
		{"wrong types and a value outside the enum", `{"n":1.5,"kind":"c","list":["x",2],"opt":"s"}`,
			[]string{"/kind: value must be one of \"a\", \"b\"", "/list/1: expected string, but got number", "/n: expected integer or null, but got number", "/opt: expected object or null, but got string"}},
		{"missing and extra properties", `{"kind":"a","list":[],"zeta":1,"alpha":2,"mid'q":3}`,
			[]string{"/: missing properties: 'n', 'opt'", "/: additionalProperties 'alpha', 'mid\\'q', 'zeta' not allowed"}},
		{"a branch's deeper issue wins over its type", `{"n":null,"kind":"b","list":[],"opt":{"x":1}}`,
			[]string{"/opt/x: expected string, but got number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := decodeTest(t, tc.doc)
			// The library reports extra properties in map order; the issue must not vary.
			for range 20 {
				got, err := checkSchema(n, v)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Fatalf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
			}
		})
	}
}

// The schema is compiled as draft 2020-12 and checked against its meta-schema:
// a schema the validator cannot read is refused when it is compiled, not
// ignored while replies go unchecked, and every keyword of the draft is enforced.
func TestSchemaDraft(t *testing.T) {
	for _, bad := range []string{
		`{"type":"strng"}`,
		`{"type":"object","required":"mode"}`,
		`{"type":"array","items":{"type":"string"},"minItems":-1}`,
		`{"type":"string","pattern":"("}`,
	} {
		if _, err := compileTest(bad); err == nil {
			t.Errorf("invalid schema compiled: %s", bad)
		}
	}
	// prefixItems exists only from draft 2020-12 on.
	s, err := compileTest(`{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"integer"}}`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := checkSchema(s, decodeTest(t, `[1,"x"]`))
	if err != nil {
		t.Fatal(err)
	}
	want := "/0: expected string, but got number\n/1: expected integer, but got string"
	if strings.Join(got, "\n") != want {
		t.Errorf("2020-12 prefixItems/items issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

func TestSortedExtra(t *testing.T) {
	for in, want := range map[string]string{
		"additionalProperties 'b', 'a' not allowed":             "additionalProperties 'a', 'b' not allowed",
		`additionalProperties 'z', 'x\', \'y', 'a' not allowed`: `additionalProperties 'a', 'x\', \'y', 'z' not allowed`,
		"additionalProperties 'a not allowed":                   "additionalProperties 'a not allowed",
		"missing properties: 'b', 'a'":                          "missing properties: 'b', 'a'",
	} {
		if got := sortedExtra(in); got != want {
			t.Errorf("sortedExtra(%q) = %q, want %q", in, got, want)
		}
	}
}
