package plan

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"
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
