package main

import (
	"reflect"
	"testing"
)

// The stored cases parse and hold together (no network: the trees are not
// rebuilt here; run.sh --verify does that).
func TestCasesParse(t *testing.T) {
	cases, err := loadCases("cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases in cases/")
	}
	held := 0
	for _, c := range cases {
		if c.HeldOut() {
			held++
		}
		if c.Lang == "go" && c.Test[0] != "go" {
			t.Errorf("%s: a Go case's test command is %q", c.ID, c.Test)
		}
	}
	if held == 0 || held == len(cases) {
		t.Errorf("held-out %d of %d cases: both sets must have cases", held, len(cases))
	}
	d, err := loadDiagnoses("diagnoses.tsv")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range cases {
		ids[c.ID] = true
	}
	for id := range d.cases {
		if !ids[id] {
			t.Errorf("diagnoses.tsv: %s is not a case", id)
		}
	}
}

func TestCheckRefusesBadCases(t *testing.T) {
	good := Case{ID: "x-0123456789", Repo: "o/x", Fix: "0123456789abcdef0123456789abcdef01234567",
		Parent: "abcdef0123456789abcdef0123456789abcdef01", Lang: "go", Test: []string{"go", "test"},
		TestFiles: []string{"a_test.go"}, Functions: []Func{{File: "a.go", Name: "F", From: 3, To: 9}}, Output: "--- FAIL"}
	if err := good.Check(); err != nil {
		t.Fatalf("a good case: %v", err)
	}
	for name, change := range map[string]func(c *Case){
		"id not ending with the fix": func(c *Case) { c.ID = "x-abcdefabcd" },
		"short parent":               func(c *Case) { c.Parent = "abc" },
		"escaping test file":         func(c *Case) { c.TestFiles = []string{"../a_test.go"} },
		"absolute function file":     func(c *Case) { c.Functions[0].File = "/etc/a.go" },
		"reversed range":             func(c *Case) { c.Functions[0].From, c.Functions[0].To = 9, 3 },
		"function in a test file":    func(c *Case) { c.Functions[0].File = "a_test.go" },
		"no output":                  func(c *Case) { c.Output = " \n" },
		"unknown language":           func(c *Case) { c.Lang = "cobol" },
	} {
		c := good
		c.Functions = append([]Func{}, good.Functions...)
		change(&c)
		if c.Check() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestParseHunks(t *testing.T) {
	diff := []byte(`diff --git a/x.go b/x.go
--- a/x.go
+++ b/x.go
@@ -3 +3 @@ func A() {
-	a
+	b
@@ -10,0 +11,2 @@ func B() {
+	c
+	d
@@ -20,3 +22,0 @@ func C() {
`)
	want := []hunk{{3, 1, 3, 1}, {10, 0, 11, 2}, {20, 3, 22, 0}}
	if got := parseHunks(diff); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestTouched(t *testing.T) {
	spans := []span{{Name: "A", From: 1, To: 5}, {Name: "B", From: 7, To: 12}, {Name: "C", From: 14, To: 20}}
	names := func(ss []span) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		hs   []hunk
		old  bool
		want []string
		rest bool
	}{
		{"a changed line inside B", []hunk{{9, 1, 9, 1}}, true, []string{"B"}, false},
		{"lines inserted inside C", []hunk{{15, 0, 15, 3}}, true, []string{"C"}, false},
		{"a function inserted after A's closing brace", []hunk{{5, 0, 6, 4}}, true, nil, true},
		{"a line between A and B", []hunk{{6, 1, 6, 1}}, true, nil, true},
		{"a change spanning B's end and C's start", []hunk{{12, 3, 12, 1}}, true, []string{"B", "C"}, true},
		{"new side: lines added inside A", []hunk{{30, 2, 2, 2}}, false, []string{"A"}, false},
		{"new side: a removal inside B", []hunk{{40, 2, 8, 0}}, false, []string{"B"}, false},
	} {
		got, rest := touched(spans, tc.hs, tc.old, nil)
		if !reflect.DeepEqual(names(got), tc.want) || rest != tc.rest {
			t.Errorf("%s: got %v rest %v, want %v rest %v", tc.name, names(got), rest, tc.want, tc.rest)
		}
	}
	// A change on a line given to skip (an import, a blank line) is not a change elsewhere.
	if _, rest := touched(spans, []hunk{{6, 1, 6, 1}}, true, [][2]int{{6, 6}}); rest {
		t.Error("a change on a skipped line counted as a change outside the spans")
	}
}

func TestGoFuncs(t *testing.T) {
	src := []byte(`package p

import (
	"fmt"
)

type T struct{}

// F is documented.
func F() {
	fmt.Println()
}

func (t *T) M(x int) int {
	return x
}

func (T) N() {}
`)
	fns, imports, err := goFuncs(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []span{{Name: "F", From: 10, To: 12}, {Name: "(*T).M", From: 14, To: 16}, {Name: "(T).N", From: 18, To: 18}}
	if !reflect.DeepEqual(fns, want) {
		t.Errorf("functions: got %v, want %v", fns, want)
	}
	if !reflect.DeepEqual(imports, [][2]int{{3, 5}}) {
		t.Errorf("imports: got %v", imports)
	}
}

func TestHeldOutIsStable(t *testing.T) {
	// The split depends on the id alone, and holds out about a third.
	n := 0
	for i := range 300 {
		c := Case{ID: "p-" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "00000000"}
		if c.HeldOut() != c.HeldOut() {
			t.Fatal("HeldOut changed between calls")
		}
		if c.HeldOut() {
			n++
		}
	}
	if n < 70 || n > 130 {
		t.Errorf("%d of 300 ids held out, want about a third", n)
	}
}
