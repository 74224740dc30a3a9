package apply

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitApplyCheck asserts `git apply --check` accepts diff in root.
func gitApplyCheck(t *testing.T, root, diff string) {
	t.Helper()
	cmd := exec.Command("git", "apply", "--check", "-")
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply --check rejects the preview: %v\n%s\n%s", err, out, diff)
	}
}

const calc = `package calc

// Add adds.
func Add(a, b int) int {
	return a + b
}

// Div divides.
func Div(a, b int) int {
	return a / b
}
`

// TestPatchPlacement places patches through the engine and checks that git
// accepts each preview; the placement refusals are data cases of package edit
// (edit/testdata/cases/diff-refused-*.txtar).
func TestPatchPlacement(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		before    string
		patch     string
		want      string
		placement string
	}{
		{name: "exact", file: "calc.go", before: calc,
			patch:     "--- a/calc.go\n+++ b/calc.go\n@@ -9,3 +9,6 @@ func Div(a, b int) int {\n func Div(a, b int) int {\n+\tif b == 0 {\n+\t\treturn 0\n+\t}\n \treturn a / b\n }\n",
			want:      strings.Replace(calc, "\treturn a / b", "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b", 1),
			placement: "exact"},
		{name: "offset, wrong counts, fenced, bare paths", file: "calc.go", before: "// header\n// more\n" + calc,
			patch:     "```diff\n--- calc.go\n+++ calc.go\n@@ -9,9 +9,99 @@\n func Div(a, b int) int {\n-\treturn a / b\n+\treturn a / (b + 0)\n }\n```\n",
			want:      "// header\n// more\n" + strings.Replace(calc, "a / b", "a / (b + 0)", 1),
			placement: "offset +2"},
		{name: "trailing whitespace", file: "calc.go", before: strings.Replace(calc, "return a + b\n", "return a + b   \n", 1),
			patch:     "--- a/calc.go\n+++ b/calc.go\n@@ -5,1 +5,1 @@\n-\treturn a + b\n+\treturn b + a\n",
			want:      strings.Replace(calc, "return a + b\n", "return b + a\n", 1),
			placement: "fuzzy: trailing whitespace"},
		{name: "indentation in Go", file: "calc.go", before: calc,
			patch:     "--- a/calc.go\n+++ b/calc.go\n@@ -5,1 +5,1 @@\n-    return a + b\n+\treturn b + a\n",
			want:      strings.Replace(calc, "return a + b\n", "return b + a\n", 1),
			placement: "fuzzy: indentation"},
		{name: "CRLF file, LF patch", file: "w.txt", before: "one\r\ntwo\r\nthree\r\n",
			patch: "--- a/w.txt\n+++ b/w.txt\n@@ -2 +2,2 @@\n-two\n+TWO\n+2.5\n", want: "one\r\nTWO\r\n2.5\r\nthree\r\n", placement: "exact"},
		{name: "no newline at end kept", file: "n.txt", before: "a\nb",
			patch: "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n", want: "A\nb", placement: "exact"},
		{name: "append to a file without final newline", file: "n.txt", before: "a\nb",
			patch: "--- a/n.txt\n+++ b/n.txt\n@@ -2 +2,2 @@\n b\n+c\n", want: "a\nb\nc", placement: "exact"},
		{name: "only the final newline added", file: "n.txt", before: "a\nb",
			patch: "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n", want: "a\nb\n", placement: "exact"},
		{name: "no newline at end of an unchanged last line kept", file: "n.txt", before: "a\nb",
			patch: "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n", want: "A\nb", placement: "exact"},
		{name: "empty context line lost its space", file: "calc.go", before: calc,
			patch:     "--- a/calc.go\n+++ b/calc.go\n@@ -6,4 +6,4 @@\n }\n\n-// Div divides.\n+// Div divides a by b.\n func Div(a, b int) int {\n",
			want:      strings.Replace(calc, "// Div divides.", "// Div divides a by b.", 1),
			placement: "exact"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, map[string]string{tc.file: tc.before})
			e := open(t, root, nil)
			p := patchPlan(tc.patch)
			cs, err := e.Changes(&p)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != 1 || string(cs[0].After) != tc.want {
				t.Fatalf("after = %q\nwant    %q", cs[0].After, tc.want)
			}
			if got := strings.Join(cs[0].Placement, ";"); !strings.HasPrefix(got, tc.placement) {
				t.Errorf("placement = %q, want %q", got, tc.placement)
			}
			gitApplyCheck(t, root, cs[0].Preview().Diff)
		})
	}
}

func TestPatchCreateDeleteRename(t *testing.T) {
	root := tree(t, map[string]string{"Old.go": "package x\n", "gone.txt": "a\nb\n"})
	e := open(t, root, nil)
	before := snapshot(t, root)
	patch := "--- /dev/null\n+++ b/new/n.go\n@@ -0,0 +1,2 @@\n+package n\n+\n" +
		"--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n" +
		"diff --git a/Old.go b/old.go\nsimilarity index 100%\nrename from Old.go\nrename to old.go\n"
	res, cs, err := e.ApplyPatch(bg, patch, true)
	if err != nil {
		t.Fatal(err)
	}
	if res.Transaction != "" || len(cs) != 4 {
		t.Fatalf("check wrote or miscounted: %+v %d", res, len(cs))
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("--check wrote:\n%s", d)
	}
	if _, _, err := e.ApplyPatch(bg, patch, false); err != nil {
		t.Fatal(err)
	}
	if read(t, root, "new/n.go") != "package n\n\n" || read(t, root, "old.go") != "package x\n" {
		t.Fatal("patch not applied")
	}
	ents, _ := os.ReadDir(root)
	names := []string{}
	for _, d := range ents {
		names = append(names, d.Name())
	}
	if strings.Contains(strings.Join(names, ","), "Old.go") || strings.Contains(strings.Join(names, ","), "gone.txt") {
		t.Fatalf("case-only rename or delete failed: %v", names)
	}
	if _, err := e.Undo(bg); err != nil {
		t.Fatal(err)
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("undo differs:\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(root, "new")); !os.IsNotExist(err) {
		t.Error("implicit folder kept after undo")
	}
}
