package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// TestCheckDeepNesting: content nested deep enough to overflow esbuild's or
// go-toml's stack (a fatal error that ends the app) is not parsed but skipped
// with a note, whether the model wrote it or the project file already was.
func TestCheckDeepNesting(t *testing.T) {
	deepJS := "x = " + strings.Repeat("(", 300_000)
	tests := []struct {
		name          string
		path          string
		before, after string // before "" = a new file
	}{
		{name: "model creates deep javascript", path: "app/x.js", after: deepJS},
		{name: "model creates deep typescript", path: "app/x.ts", after: deepJS},
		{name: "model creates deep toml", path: "cfg.toml", after: "a = " + strings.Repeat("[", 1_500_000)},
		{name: "model creates deep inline tables", path: "cfg.toml", after: "a = " + strings.Repeat("{b=", 400_000)},
		{name: "hostile original, harmless edit", path: "app/deep.js", before: "// header\n" + deepJS, after: "// header 2\n" + deepJS},
		{name: "hostile original, edit breaks it", path: "app/deep.js", before: "// header\n" + deepJS + ")", after: "// header\n" + deepJS},
		{name: "hostile original replaced by broken shallow content", path: "app/deep.js",
			before: "x = " + strings.Repeat("(", 300_000) + "1" + strings.Repeat(")", 300_000) + ";\n", after: "x = (1;\n"},
		{name: "closers hidden in strings", path: "app/x.js", after: "x = " + strings.Repeat(`(")"+`, 300_000)},
		{name: "closers hidden in regexps", path: "app/x.js", after: "x = " + strings.Repeat(`(/)/`, 300_000)},
		{name: "closers hidden in toml strings", path: "cfg.toml", after: "a = " + strings.Repeat(`["]",`, 300_000)},
		{name: "object literals", path: "app/x.js", after: "x = " + strings.Repeat("{a:", 300_000)},
		{name: "negations without brackets", path: "app/x.ts", after: "x = " + strings.Repeat("!", 2_000_000)},
		{name: "conditional chain", path: "app/x.js", after: "x = " + strings.Repeat("a?", 1_000_000)},
		{name: "assignment chain across lines", path: "app/x.js", after: "x = " + strings.Repeat("a=\n", 600_000)},
		{name: "template literal nesting", path: "app/x.js", after: "x = " + strings.Repeat("`${", 600_000)},
		{name: "prefix decrements", path: "app/x.js", after: "x = " + strings.Repeat("--", 750_000)},
		{name: "nested jsx elements", path: "src/App.tsx", after: "x = " + strings.Repeat("<a>", 500_000)},
		{name: "type arguments separated by commas", path: "src/x.tsx", after: "x = " + strings.Repeat("A<B,", 375_000)},
		// Operand chains: esbuild's visit pass recurses once per link (400,000
		// links overflowed the stack before they were counted).
		{name: "member access chain", path: "app/x.js", after: "x=a" + strings.Repeat(".b", 400_000)},
		{name: "optional member access chain", path: "app/x.ts", after: "x=a" + strings.Repeat("?.b", 300_000)},
		{name: "call chain", path: "app/x.js", after: "x=f" + strings.Repeat("()", 400_000)},
		{name: "call chain with arguments and commas", path: "app/x.js", after: "x=f" + strings.Repeat("(a,{})", 300_000)},
		{name: "index chain", path: "app/x.ts", after: "x=f" + strings.Repeat("[0]", 400_000)},
		{name: "tagged template chain", path: "app/x.js", after: "x=f" + strings.Repeat("``", 400_000)},
		{name: "exponent chain", path: "app/x.js", after: "x=" + strings.Repeat("a**", 300_000) + "a"},
		{name: "hostile project file, harmless edit", path: "app/big.js",
			before: "var q = 1;\nx=a" + strings.Repeat(".b", 400_000), after: "var q = 2;\nx=a" + strings.Repeat(".b", 400_000)},
		{name: "hostile project file, edit breaks it", path: "app/big.js",
			before: "var q = 1;\nx=a" + strings.Repeat(".b", 400_000), after: "var q = ;\nx=a" + strings.Repeat(".b", 400_000)},
		{name: "hostile project file replaced by broken shallow content", path: "app/big.js",
			before: "var q = 1;\nx=a" + strings.Repeat(".b", 400_000), after: "var q = ;\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before []byte
			if tc.before != "" {
				before = []byte(tc.before)
			}
			issues, note := CheckNote(tc.path, before, []byte(tc.after))
			if len(issues) != 0 || !strings.HasPrefix(note, "too deeply nested to check (depth ") {
				t.Fatalf("CheckNote(%s) = %v, %q; want no issues and the too-deeply-nested note", tc.path, issues, note)
			}
		})
	}
}

// TestCheckDeepNestingOtherLanguages: Go, JSON and YAML parsers bound their own
// recursion; deep content there is judged (an error reported), never a crash.
func TestCheckDeepNestingOtherLanguages(t *testing.T) {
	for _, tc := range []struct{ path, after string }{
		{"a.json", strings.Repeat("[", 1_500_000)},
		{"a.yaml", "a: " + strings.Repeat("[", 1_500_000)},
		{"a.go", "package a\nvar x = " + strings.Repeat("(", 1_500_000)},
	} {
		if issues, note := CheckNote(tc.path, nil, []byte(tc.after)); len(issues) == 0 || note != "" {
			t.Errorf("CheckNote(%s) = %v, %q; want a syntax issue", tc.path, issues, note)
		}
	}
}

// TestCheckOrdinaryNestingStillChecked: real code stays far below MaxDepth, so an
// edit that breaks nested code is still reported.
func TestCheckOrdinaryNestingStillChecked(t *testing.T) {
	nested := "export const f = () => " + strings.Repeat("g(", 60) + "1" + strings.Repeat(")", 60) + ";\n"
	var sb strings.Builder
	for i := 0; i < 3000; i++ { // many statements, no semicolons: line breaks end them
		sb.WriteString("if (a) b = !c ? d : e\nconst x = y => z\n")
	}
	var chains strings.Builder // long files of ordinary chains: each statement ends one
	for i := 0; i < 3000; i++ {
		chains.WriteString("this.a.b.c(d[0]).e`t`.then(x => x ** 2); obj?.p.q(1, 2)\nfoo.bar[baz](qux)\n")
	}
	// One long minified statement of short chains: a comma ends each one.
	calls := "x = " + strings.Repeat("a.b.c.d.e(f),", 5_000) + "d\n"
	for _, after := range []string{nested + "let = ;\n", sb.String() + "let = ;\n", chains.String() + "let = ;\n", "let = ;\n" + calls} {
		issues, note := CheckNote("src/a.ts", nil, []byte(after))
		if len(issues) == 0 || note != "" {
			t.Errorf("CheckNote = %v, %q; want the new syntax error", issues, note)
		}
	}
	if _, note := CheckNote("Cargo.toml", nil, []byte("a = "+strings.Repeat("[", 100)+strings.Repeat("]", 100)+"\n")); note != "" {
		t.Errorf("a 100-deep TOML array was skipped: %q", note)
	}
}

// TestCheckLongCommaSequence: esbuild takes time quadratic in a comma sequence's
// length (40,000 commas: 21 s; a 2 MiB file: hours), so a long one is not
// parsed but flagged, while lists (arrays, arguments, object literals) of any
// length and ordinary sequences are still checked.
func TestCheckLongCommaSequence(t *testing.T) {
	for _, tc := range []struct{ path, before, after string }{
		{"app/x.js", "", "x = (" + strings.Repeat("a,", 40_000) + "a)\n"},
		{"app/x.ts", "", strings.Repeat("a(),", 40_000) + "a()\n"},
		{"app/x.js", "", "function f() { " + strings.Repeat("a=1,", 40_000) + "a }\n"},
		{"app/x.js", "", "const f = () => {" + strings.Repeat("a,", 40_000) + "a}\n"},
		{"app/x.js", "x = (" + strings.Repeat("a,", 40_000) + "a)\n", "x = ;\n"},
	} {
		var before []byte
		if tc.before != "" {
			before = []byte(tc.before)
		}
		issues, note := CheckNote(tc.path, before, []byte(tc.after))
		if len(issues) != 0 || !strings.HasPrefix(note, "comma sequences too long to check") {
			t.Errorf("CheckNote(%.40q…) = %v, %q; want the comma-sequence note", tc.after, issues, note)
		}
	}
	for _, after := range []string{
		"x = [" + strings.Repeat("1,", 100_000) + "1]\nlet = ;\n",
		"f(" + strings.Repeat("1,", 100_000) + "1)\nlet = ;\n",
		"x = {" + strings.Repeat("a:1,", 100_000) + "b:1}\nlet = ;\n",
		strings.Repeat("a = 1, b = 2, c()\n", 50_000) + "let = ;\n",
	} {
		if issues, note := CheckNote("app/x.js", nil, []byte(after)); len(issues) == 0 || note != "" {
			t.Errorf("CheckNote(%.40q…) = %v, %q; want the syntax error", after, issues, note)
		}
	}
}

// TestCheckLongStringConcatenation: esbuild folds "a" + "b" + … copying the text
// so far at each +, so 300,000 one-letter strings in one statement took over
// 24 GB and the process was killed; such content is flagged, not parsed, while
// ordinary concatenations are still checked.
func TestCheckLongStringConcatenation(t *testing.T) {
	long := strings.Repeat("x", 1000)
	for _, after := range []string{
		"x = " + strings.Repeat(`"a"+`, 300_000) + `"a"` + "\n",
		"x = " + strings.Repeat(`"`+long+`"+`, 1_000) + `"a"` + "\n",
	} {
		issues, note := CheckNote("app/x.js", nil, []byte(after))
		if len(issues) != 0 || !strings.HasPrefix(note, "+ chains too long to check") {
			t.Errorf("CheckNote(%.40q…) = %v, %q; want the + chain note", after, issues, note)
		}
	}
	var sb strings.Builder
	for i := 0; i < 20_000; i++ {
		sb.WriteString(`msg = "line " + i + ": " + text + "\n" + more;` + "\n")
	}
	after := sb.String() + "x = " + strings.Repeat(`"`+long+`"+`, 100) + `"a"` + "\nlet = ;\n"
	if issues, note := CheckNote("app/x.js", nil, []byte(after)); len(issues) == 0 || note != "" {
		t.Errorf("CheckNote(ordinary concatenations) = %v, %q; want the syntax error", issues, note)
	}
}

// TestCheckLongSwitch: esbuild compares each case label with every earlier one
// (20,000 cases took 11 s; a 2 MiB file would take minutes), so a huge switch
// is flagged, not parsed, while ordinary switches are still checked.
func TestCheckLongSwitch(t *testing.T) {
	after := "switch (a) {\n" + strings.Repeat("case 1: break;\n", 40_000) + "}\n"
	if issues, note := CheckNote("app/x.js", nil, []byte(after)); len(issues) != 0 || !strings.HasPrefix(note, "switch statements too long to check") {
		t.Errorf("CheckNote(40,000 cases) = %v, %q; want the switch note", issues, note)
	}
	var sb strings.Builder
	for i := 0; i < 50; i++ { // many ordinary switches
		sb.WriteString("switch (a) {\n" + strings.Repeat("case 1: f(); break;\n", 300) + "default: g()\n}\n")
	}
	if issues, note := CheckNote("app/x.js", nil, []byte(sb.String()+"let = ;\n")); len(issues) == 0 || note != "" {
		t.Errorf("CheckNote(ordinary switches) = %v, %q; want the syntax error", issues, note)
	}
}

// TestCheckRepeatedDeclarations: esbuild's time grows with the square of how
// often one top-level name is declared (`var a;` 60,000 times: 3.7 s; a 2 MiB
// file: minutes), so such content is flagged, not parsed, while many distinct
// declarations are still checked.
func TestCheckRepeatedDeclarations(t *testing.T) {
	for _, after := range []string{strings.Repeat("var a;\n", 60_000), strings.Repeat("function a(){}\n", 60_000)} {
		if issues, note := CheckNote("app/x.js", nil, []byte(after)); len(issues) != 0 || !strings.HasPrefix(note, "too many repeated top-level declarations to check") {
			t.Errorf("CheckNote(%.20q…) = %v, %q; want the repeated-declarations note", after, issues, note)
		}
	}
	var sb strings.Builder
	for i := 0; i < 30_000; i++ { // 1.2 MB, under MaxBytes
		fmt.Fprintf(&sb, "var a%d = %d;\nfunction f%d() {}\n", i, i, i)
	}
	if issues, note := CheckNote("app/x.js", nil, []byte(sb.String()+"let = ;\n")); len(issues) == 0 || note != "" {
		t.Errorf("CheckNote(distinct declarations) = %v, %q; want the syntax error", issues, note)
	}
}
