package edit

import (
	"strings"
	"testing"

	"fixplan/plan"
)

const srGo = "package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\n// Div divides.\nfunc Div(a, b int) int {\n\treturn a / b\n}\n"

const srPy = "def divide(a, b):\n    return a / b\n\n\ndef mul(a, b):\n    return a * b\n"

func pairs(sr ...string) []plan.Edit {
	var out []plan.Edit
	for i := 0; i+1 < len(sr); i += 2 {
		out = append(out, plan.Edit{Search: sr[i], Replace: sr[i+1]})
	}
	return out
}

// TestSearchReplaceLayers covers each matching layer with the damage a model
// really produces, what the file becomes, and how the placement reads.
func TestSearchReplaceLayers(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		before    string
		edits     []plan.Edit
		want      string
		placement string // in the first placement
	}{
		{name: "exact", file: "calc.go", before: srGo,
			edits:     pairs("func Div(a, b int) int {\n\treturn a / b\n}", "func Div(a, b int) int {\n\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b\n}"),
			want:      strings.Replace(srGo, "\treturn a / b", "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b", 1),
			placement: "edit 1: exact at line 9"},
		{name: "trailing whitespace in the file is kept on kept lines", file: "calc.go", before: strings.Replace(srGo, "func Div(a, b int) int {\n", "func Div(a, b int) int {  \n", 1),
			edits:     pairs("func Div(a, b int) int {\n\treturn a / b\n", "func Div(a, b int) int {\n\treturn b / a\n"),
			want:      strings.Replace(strings.Replace(srGo, "func Div(a, b int) int {\n", "func Div(a, b int) int {  \n", 1), "a / b", "b / a", 1),
			placement: "edit 1: fuzzy: trailing whitespace at line 9"},
		{name: "indentation drift is re-indented", file: "calc.go", before: srGo,
			edits:     pairs("return a / b\n", "if b == 0 {\n\treturn 0\n}\nreturn a / b\n"),
			want:      strings.Replace(srGo, "\treturn a / b\n}", "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b\n}", 1),
			placement: "edit 1: fuzzy: indentation at line 10 (re-indented +1)"},
		{name: "spaces instead of the file's tabs", file: "calc.go", before: srGo,
			edits:     pairs("func Div(a, b int) int {\n    return a / b\n}", "func Div(a, b int) int {\n    if b == 0 {\n        return 0\n    }\n    return a / b\n}"),
			want:      strings.Replace(srGo, "\treturn a / b", "\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b", 1),
			placement: "edit 1: fuzzy: indentation at line 9 (re-indented: 4 spaces → tab)"},
		{name: "smart quotes and dashes folded back", file: "msg.js", before: "const a = 'it';\n// x - y\nconst msg = \"hello\";\n",
			edits:     pairs("const msg = \u201chello\u201d;", "const msg = \u201chello, world\u201d; // \u2014 greeting"),
			want:      "const a = 'it';\n// x - y\nconst msg = \"hello, world\"; // - greeting\n",
			placement: "edit 1: fuzzy: Unicode punctuation at line 3"},
		{name: "typography the file itself uses is kept", file: "a.md", before: "Say \u201chi\u201d.\nIt's ok.\n",
			edits: pairs("Say \u201chi\u201d.\nIt\u2019s ok.", "Say \u201chi\u201d.\nIt\u2019s fine \u201cnow\u201d."),
			want:  "Say \u201chi\u201d.\nIt's fine \u201cnow\u201d.\n"},
		{name: "non-breaking spaces", file: "a.txt", before: "x = 1\ny = 2\n",
			edits: pairs("y\u00a0=\u00a02", "y = 3"),
			want:  "x = 1\ny = 3\n"},
		{name: "lost blank lines keep the file's blank lines", file: "calc.go", before: srGo,
			edits:     pairs("}\n// Div divides.\nfunc Div(a, b int) int {\n\treturn a / b", "}\n// Div divides.\nfunc Div(a, b int) int {\n\treturn b / a"),
			want:      strings.Replace(srGo, "a / b", "b / a", 1),
			placement: "edit 1: fuzzy: blank lines at line 6"},
		{name: "pairs out of order", file: "calc.go", before: srGo,
			edits: pairs("\treturn a / b\n", "\treturn a / b // div\n", "\treturn a + b\n", "\treturn a + b // add\n"),
			want:  strings.Replace(strings.Replace(srGo, "a / b", "a / b // div", 1), "a + b", "a + b // add", 1)},
		{name: "CRLF and no final newline kept", file: "w.txt", before: "one\r\ntwo\r\nthree",
			edits: pairs("two\n", "2\n", "three", "3"),
			want:  "one\r\n2\r\n3"},
		{name: "empty replacement deletes the lines", file: "calc.go", before: srGo,
			edits: pairs("// Add adds.\n", ""),
			want:  strings.Replace(srGo, "// Add adds.\n", "", 1)},
		{name: "python: indentation layer off, exact indentation still works", file: "calc.py", before: srPy,
			edits: pairs("    return a / b\n", "    if b == 0:\n        raise ZeroDivisionError\n    return a / b\n"),
			want:  strings.Replace(srPy, "    return a / b\n", "    if b == 0:\n        raise ZeroDivisionError\n    return a / b\n", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, placements, err := SearchReplace(tt.file, []byte(tt.before), tt.edits)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if string(got) != tt.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tt.want)
			}
			if len(placements) != len(tt.edits) {
				t.Fatalf("placements %q for %d edits", placements, len(tt.edits))
			}
			if tt.placement != "" && placements[0] != tt.placement {
				t.Errorf("placement = %q, want %q", placements[0], tt.placement)
			}
		})
	}
}

// TestSearchReplaceRefusals: a missing, ambiguous or overlapping pair refuses the
// whole file, and the message names the pair, why, and the closest real lines.
func TestSearchReplaceRefusals(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		before string
		edits  []plan.Edit
		says   []string
	}{
		{name: "missing, with the closest lines", file: "calc.go", before: srGo,
			edits: pairs("func Div(a, b int) int {\n\treturn a // b\n}", "x"),
			says:  []string{"edit 1: its search lines are not in the file", "closest lines in the file (from line 9)", "\treturn a / b"}},
		{name: "ambiguous, with its places", file: "calc.go", before: srGo,
			edits: pairs("}\n", "} // end\n"),
			says:  []string{"edit 1: its search lines match 2 places (lines 6, 11)", "fixplan does not guess"}},
		{name: "one good pair and one missing: nothing applies", file: "calc.go", before: srGo,
			edits: pairs("\treturn a + b\n", "\treturn b + a\n", "\treturn a % b\n", "x\n"),
			says:  []string{"do not apply, so none was applied", "edit 2: its search lines are not in the file"}},
		{name: "overlapping pairs", file: "calc.go", before: srGo,
			edits: pairs("func Add(a, b int) int {\n\treturn a + b\n", "x\n", "\treturn a + b\n}\n", "y\n"),
			says:  []string{"edits 1 and 2 of calc.go change overlapping lines"}},
		{name: "lost blank line next to a change", file: "calc.go", before: srGo,
			edits: pairs("}\n// Div divides.\nfunc Div(a, b int) int {", "}\n// Div divides b into a.\nfunc Div(a, b int) int {"),
			says:  []string{"edit 1: its search leaves out the blank line(s) at line 7 right next to the lines it changes"}},
		{name: "missing, no equal line: the most similar lines", file: "calc.py", before: srPy,
			edits: pairs("    return a // b\n", "    return 0\n"),
			says:  []string{"closest lines in the file (from line 2):\n      return a / b"}},
		{name: "unevenly re-indented search: refused", file: "calc.go", before: srGo,
			edits: pairs("return a / b\n}", "if b == 0 {\n\treturn 0\n}\nreturn a / b\n}"),
			says:  []string{"indented differently from the file, and unevenly"}},
		{name: "python: no indentation fuzz", file: "calc.py", before: srPy,
			edits: pairs("return a / b\n", "return b / a\n"),
			says:  []string{"not in the file"}},
		{name: "ambiguous at an exact layer is not rescued by a looser one", file: "a.txt", before: "x\n  x\ny\n",
			edits: pairs("x\n", "z\n"),
			says:  []string{"edit 1: its search lines are not in the file"}[:0]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := SearchReplace(tt.file, []byte(tt.before), tt.edits)
			if len(tt.says) == 0 {
				// "x" matches once exactly; the indented "  x" only at a looser layer.
				if err != nil || string(got) != "z\n  x\ny\n" {
					t.Fatalf("got %q, %v; want the one exact match replaced", got, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("applied:\n%s", got)
			}
			if plan.CodeOf(err) != plan.ErrPatchApplyFailed {
				t.Fatalf("code = %s, want ERR_PATCH_APPLY_FAILED", plan.CodeOf(err))
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message lacks %q:\n%v", s, err)
				}
			}
		})
	}
}
