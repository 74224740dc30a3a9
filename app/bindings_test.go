package app

import (
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestGeneratedBindingsMatchApp keeps frontend/src/api/wailsjs (made by `wails
// generate module`) in step with App's bound methods; rerun the generator when
// this fails.
func TestGeneratedBindingsMatchApp(t *testing.T) {
	b, err := os.ReadFile("../frontend/src/api/wailsjs/go/app/App.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	var ts []string
	for _, m := range regexp.MustCompile(`export function (\w+)\(`).FindAllStringSubmatch(string(b), -1) {
		ts = append(ts, m[1])
	}
	var goMethods []string
	typ := reflect.TypeOf(&App{})
	for i := 0; i < typ.NumMethod(); i++ {
		goMethods = append(goMethods, typ.Method(i).Name)
	}
	sort.Strings(ts)
	sort.Strings(goMethods)
	if strings.Join(ts, ",") != strings.Join(goMethods, ",") {
		t.Fatalf("bindings %v\n     App %v\nrun: wails generate module", ts, goMethods)
	}
}
