package defs

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// The test checks what Render returns. Render's thirty steps (its own file,
// called for their side effects) fill the parents its hop expands, so format,
// which makes Render's result, was never expanded and formatValue, which
// makes format's, was not shown at all; now the value's path is followed
// first, and formatValue (150 lines, returned as it is) is shown whole though
// the two long functions the test calls for their effects are shown whole
// before it.
func TestDefinitionsFollowTheValueTheTestChecks(t *testing.T) {
	root, problem := typedFixture(t, "valuepath")
	got := sectionsFor(t, root, problem, Request{})
	for _, name := range []string{"Render", "format", "formatValue", "Configure", "Reset"} {
		s, ok := got.find("definition of " + name + ",")
		if !ok {
			t.Errorf("%s not shown; sections:\n%s", name, got.titles())
			continue
		}
		if strings.Contains(s.Sec.Title, "lines of") {
			t.Errorf("%s not shown whole: %s", name, s.Sec.Title)
		}
	}
	if r, f := got.rank("formatValue"), got.rank("step0"); f >= 0 && r > f {
		t.Errorf("formatValue ranks after Render's steps (%d > %d); sections:\n%s", r, f, got.titles())
	}
}

// flowsTo says which calls make a Go function's results, and which make what
// the statement at a failing line reads.
func TestGoFlowsTo(t *testing.T) {
	src := `package p

func F(in string) (string, error) {
	if !valid(in) {
		return "", errBad(in)
	}
	sideEffect(in)
	var b buffer
	writeHead(&b)
	go func() string { return ignored() }()
	out := render(in)
	b.add(out)
	return b.text(), nil
}

func TestF(t *testing.T) {
	got, _ := F(input())
	want := expect()
	if got != want {
		t.Errorf("F = %q, want %q", got, want)
	}
}
`
	f := &defFile{src: []byte(src), lines: strings.Split(src, "\n"), ok: true}
	fn := defSpan{name: "F", from: 3, to: 14}
	got := goLang{}.flowsTo(f, fn, 0)
	want := map[string]int{
		"errBad": 0, "text": 0, // returned
		"valid":     1,                        // chooses a return
		"writeHead": 1, "add": 1, "render": 1, // write the returned b, or make what b.add is given… one step
	}
	// render is two steps away (out, read by b.add): not followed
	delete(want, "render")
	if !maps.Equal(got, want) {
		t.Errorf("flowsTo(F) = %v, want %v", got, want)
	}
	for _, off := range []string{"sideEffect", "ignored"} {
		if _, ok := got[off]; ok {
			t.Errorf("flowsTo(F) holds %s: %v", off, got)
		}
	}
	// at the failing line 20 (t.Errorf): got and want, then F and expect
	// (assigned to them), then input (what F is given)
	atLine := goLang{}.flowsTo(f, defSpan{}, 20)
	for name, r := range map[string]int{"Errorf": 0, "F": 1, "expect": 1, "input": 1} {
		if g, ok := atLine[name]; !ok || g != r {
			t.Errorf("flowsTo(line 20)[%s] = %d, %v; want %d (all: %v)", name, g, ok, r, slices.Sorted(maps.Keys(atLine)))
		}
	}
}
