package apply

import (
	"strings"
	"testing"

	"fixplan/plan"
)

// TestPatchPlacementNeverWritesTheWrongPlace covers what the search/replace
// corpus (bench/searchreplace) found in the unified-diff path: a hunk placed
// ignoring indentation moves its added lines with it, and a hunk off its stated
// line whose lines occur twice is refused instead of applied to the nearer copy.
func TestPatchPlacementNeverWritesTheWrongPlace(t *testing.T) {
	tests := []struct {
		name, file, before, patch, want, msg string
	}{
		{name: "dedented hunk: added lines re-indented", file: "calc.go", before: calc,
			patch: "--- a/calc.go\n+++ b/calc.go\n@@ -10,1 +10,4 @@\n+if b == 0 {\n+\treturn 0\n+}\n return a / b\n",
			want:  strings.Replace(calc, "\treturn a / b", "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b", 1)},
		{name: "unevenly re-indented hunk: refused", file: "calc.go", before: calc,
			patch: "--- a/calc.go\n+++ b/calc.go\n@@ -9,3 +9,6 @@\n func Div(a, b int) int {\n+if b == 0 {\n+\treturn 0\n+}\n return a / b\n }\n",
			msg:   "indented differently from the file, and unevenly"},
		{name: "spaces for tabs: added lines get tabs", file: "calc.go", before: calc,
			patch: "--- a/calc.go\n+++ b/calc.go\n@@ -10,1 +10,4 @@\n+    if b == 0 {\n+        return 0\n+    }\n     return a / b\n",
			want:  strings.Replace(calc, "\treturn a / b", "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b", 1)},
		{name: "off its line with a second copy: refused", file: "dup.txt", before: "a\nsame\nb\nc\nd\ne\nsame\nz\n",
			patch: "--- a/dup.txt\n+++ b/dup.txt\n@@ -4 +4 @@\n-same\n+changed\n", msg: "match at line 2 and line 7; fixplan does not guess"},
		{name: "at its stated line a second copy does not matter", file: "dup.txt", before: "a\nsame\nb\nc\nd\ne\nsame\nz\n",
			patch: "--- a/dup.txt\n+++ b/dup.txt\n@@ -7 +7 @@\n-same\n+changed\n", want: "a\nsame\nb\nc\nd\ne\nchanged\nz\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, map[string]string{tc.file: tc.before})
			p := patchPlan(tc.patch)
			cs, err := open(t, root, nil).Changes(&p)
			if tc.msg != "" {
				if plan.CodeOf(err) != plan.ErrPatchApplyFailed || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("err = %v, want ERR_PATCH_APPLY_FAILED saying %q", err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != 1 || string(cs[0].After) != tc.want {
				t.Fatalf("after = %q\nwant    %q", cs[0].After, tc.want)
			}
		})
	}
}
