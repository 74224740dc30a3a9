package app

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fixplan/session"
)

// The frontend derives its types of the Go API (frontend/src/api/types.ts) from the
// models `wails generate module` writes into frontend/src/api/wailsjs/go/models.ts,
// and writes the event payloads Wails generates nothing for in
// frontend/src/api/events.ts. These tests hold both to the Go structs: a JSON field
// added, renamed, retyped or made optional in Go fails here until the models are
// regenerated (or events.ts is changed), and then the TypeScript compiler fails
// wherever the UI still uses the old field.

// TestGeneratedModelsMatchGo compares every model class with the Go struct it was
// generated from: the structs App's methods take and return, and those they hold.
func TestGeneratedModelsMatchGo(t *testing.T) {
	ts := tsTypes(t, "../frontend/src/api/wailsjs/go/models.ts", regexp.MustCompile(`^export namespace (\w+) \{$`), regexp.MustCompile(`^\s*export class (\w+) \{$`), "static createFrom")
	g := goModels{}
	typ := reflect.TypeOf(&App{})
	for i := 0; i < typ.NumMethod(); i++ {
		m := typ.Method(i).Type
		for j := 1; j < m.NumIn(); j++ {
			g.add(m.In(j))
		}
		for j := 0; j < m.NumOut(); j++ {
			g.add(m.Out(j))
		}
	}
	compareTypes(t, g, ts, "run: wails generate module")
}

// TestEventTypesMatchGo holds the event payloads written in events.ts to the
// structs app.App emits (plan:progress carries a list of session.Event).
func TestEventTypesMatchGo(t *testing.T) {
	ts := tsTypes(t, "../frontend/src/api/events.ts", nil, regexp.MustCompile(`^export type (\w+) = \{$`), "};")
	g := goModels{}
	for name, v := range map[string]any{"ProgressEvent": session.Event{}, "CommandOutput": CommandOutput{}} {
		g[name] = fieldsOf(reflect.TypeOf(v), "")
	}
	compareTypes(t, g, ts, "change frontend/src/api/events.ts")
}

func compareTypes(t *testing.T, goTypes, ts map[string][]string, fix string) {
	t.Helper()
	for _, name := range sortedKeys(goTypes) {
		want, got := goTypes[name], ts[name]
		if got == nil {
			t.Errorf("%s: not in the TypeScript types (%s)", name, fix)
			continue
		}
		if !slices.Equal(want, got) {
			t.Errorf("%s: fields differ (%s)\n  Go: %s\n  TS: %s", name, fix, strings.Join(want, "; "), strings.Join(got, "; "))
		}
	}
	for _, name := range sortedKeys(ts) {
		if goTypes[name] == nil {
			t.Errorf("%s: in the TypeScript types but no Go type has it (%s)", name, fix)
		}
	}
}

func sortedKeys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// tsTypes reads the types of a TypeScript file, "namespace.Name" (or "Name" outside
// a namespace) to their fields as "name?: type", sorted. A type's fields are its
// lines "name: type;" up to the line starting with end.
func tsTypes(t *testing.T, path string, namespace, typeLine *regexp.Regexp, end string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	field := regexp.MustCompile(`^\s*(\w+\??): (.+);$`)
	out := map[string][]string{}
	ns, cur := "", ""
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if namespace != nil {
			if m := namespace.FindStringSubmatch(line); m != nil {
				ns = m[1] + "."
				continue
			}
		}
		if m := typeLine.FindStringSubmatch(line); m != nil {
			cur = ns + m[1]
			out[cur] = []string{}
			continue
		}
		if cur == "" {
			continue
		}
		if strings.HasPrefix(trimmed, end) {
			slices.Sort(out[cur])
			cur = ""
			continue
		}
		if m := field.FindStringSubmatch(line); m != nil {
			out[cur] = append(out[cur], m[1]+": "+m[2])
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no types found", path)
	}
	return out
}

// goModels are the Go structs a model is generated for, by their TypeScript
// name ("namespace.Name"), with their fields as tsTypes reads them.
type goModels map[string][]string

// add records the structs t is or holds (through pointers, slices and fields).
func (g goModels) add(t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || !generated(t) {
		return
	}
	name := namespace(t) + "." + t.Name()
	if _, ok := g[name]; ok {
		return
	}
	g[name] = nil // taken, before the fields: a struct may hold itself
	g[name] = fieldsOf(t, namespace(t))
	for _, f := range jsonFields(t) {
		g.add(f.Type)
	}
}

// generated says whether the generator writes a class for a struct: a named struct
// other than time.Time, which it does not know and types as any.
func generated(t reflect.Type) bool {
	return t.Name() != "" && t != reflect.TypeOf(time.Time{})
}

func namespace(t reflect.Type) string { return t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:] }

// fieldsOf lists the JSON fields of struct t as "name?: type", sorted; ns is the
// namespace t's class is written in (a struct of another namespace is qualified).
func fieldsOf(t reflect.Type, ns string) []string {
	out := []string{}
	for _, f := range jsonFields(t) {
		tag := strings.Split(f.Tag.Get("json"), ",")
		name := f.Name
		if tag[0] != "" {
			name = tag[0]
		}
		if f.Type.Kind() == reflect.Pointer || slices.Contains(tag[1:], "omitempty") {
			name += "?"
		}
		out = append(out, name+": "+tsType(f.Type, ns))
	}
	slices.Sort(out)
	return out
}

// jsonFields are the fields of struct t that JSON carries, embedded structs' fields
// in their place.
func jsonFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && ft.Kind() == reflect.Struct {
			out = append(out, jsonFields(ft)...)
			continue
		}
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		out = append(out, f)
	}
	return out
}

// tsType is the TypeScript type the generator writes for a Go type.
func tsType(t reflect.Type, ns string) string {
	switch t.Kind() {
	case reflect.Pointer:
		return tsType(t.Elem(), ns)
	case reflect.Slice, reflect.Array:
		return tsType(t.Elem(), ns) + "[]"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Interface:
		return "any"
	case reflect.Struct:
		if !generated(t) {
			return "any"
		}
		if namespace(t) == ns {
			return t.Name()
		}
		return namespace(t) + "." + t.Name()
	}
	// Maps and the rest are written differently; teach this test before using one.
	return fmt.Sprintf("<%s: not known to this test>", t)
}
