package syntax

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	const goOK = "package calc\n\nfunc Divide(a, b int) int {\n\treturn a / b\n}\n"
	const goBroken = "package calc\n\nfunc Divide(a, b int) int {\n\tif b == 0 {\n\t\treturn 0\n\treturn a / b\n}\n"
	tests := []struct {
		name          string
		path          string
		before, after string
		newFile       bool
		want          []string // substrings of the issues, in order; none = no issue
	}{
		{name: "go edit that parses", path: "calc.go", before: goOK, after: strings.Replace(goOK, "a / b", "a * b", 1)},
		{name: "go edit drops a brace", path: "pkg/calc.go", before: goOK, after: goBroken, want: []string{"line 7, column 3: expected "}},
		{name: "go new file that does not parse", path: "new.go", newFile: true, after: "package x\nfunc (\n", want: []string{"line 2, column 8: expected "}},
		{name: "go file already broken, same error kept", path: "calc.go", before: goBroken, after: goBroken + "\n"},
		{name: "go file already broken, a new error added", path: "calc.go", before: goBroken, after: strings.Replace(goBroken, "package calc", "package", 1),
			want: []string{"line 3, column 1: expected 'IDENT', found 'func'"}},
		{name: "json valid", path: "package.json", before: `{"a": 1}`, after: `{"a": 1, "b": [2]}`},
		{name: "json trailing comma", path: "config/app.json", before: `{"a": 1}`, after: "{\n  \"a\": 1,\n}\n", want: []string{"line 3, column 1: invalid character '}' looking for beginning of object key string"}},
		{name: "json already broken is not judged", path: "data.json", before: `{"a": 1,}`, after: `{"a": 2,}`},
		{name: "tsconfig with comments is not json", path: "tsconfig.json", newFile: true, after: "{\n  // strict\n  \"strict\": true\n}\n"},
		{name: "vscode settings are not checked", path: ".vscode/settings.json", newFile: true, after: "{,}"},
		{name: "yaml valid multi-document", path: "k8s/app.yaml", before: "a: 1\n", after: "a: 1\n---\nb: [1, 2]\n"},
		{name: "yaml bad indentation", path: ".github/workflows/ci.yml", before: "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
			after: "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n   steps: []\n", want: []string{"line 2: did not find expected key"}},
		{name: "yaml error in a second document", path: "a.yaml", newFile: true, after: "a: 1\n---\nb: [1, 2\n", want: []string{"line "}},
		{name: "helm template is not judged", path: "chart/templates/svc.yaml", newFile: true, after: "name: {{ .Values.name }\n  x: : y\n"},
		{name: "toml valid", path: "pyproject.toml", before: "[tool]\nx = 1\n", after: "[tool]\nx = 2\n"},
		{name: "toml unterminated string", path: "Cargo.toml", before: "[package]\nname = \"x\"\n", after: "[package]\nname = \"x\n",
			want: []string{"line 2, column "}},
		{name: "toml duplicate key", path: "cfg.toml", newFile: true, after: "a = 1\na = 2\n", want: []string{"key a is already defined"}},
		{name: "unknown language", path: "calc.py", before: "x = 1\n", after: "def (:\n"},
		{name: "typescript that parses", path: "src/calc.ts", before: "export const f = (x: number) => x;\n",
			after: "export const f = (x: number): number => x + 1;\nenum E { A }\nconst y = <number>f(1);\n"},
		{name: "typescript edit breaks an expression", path: "src/calc.ts", before: "export const f = (x: number) => x;\n",
			after: "export const f = (x: number) => { return x + ;\n", want: []string{`line 1, column 46: Unexpected ";"`}},
		{name: "jsx in a .js file", path: "src/App.js", newFile: true, after: "export function App() {\n  return <div className=\"a\">{1 < 2}</div>;\n}\n"},
		{name: "tsx unclosed element", path: "src/App.tsx", before: "export const A = () => <div />;\n", after: "export const A = () => <div>;\n",
			want: []string{"line "}},
		{name: "javascript redeclared let", path: "lib/x.mjs", newFile: true, after: "let a = 1;\nlet a = 2;\n", want: []string{`line 2, column 5: The symbol "a" has already been declared`}},
		{name: "commonjs top-level return is fine", path: "bin/run.cjs", newFile: true, after: "#!/usr/bin/env node\nif (process.argv.length < 3) return;\nmodule.exports = 1;\n"},
		{name: "flow-typed file already broken is not judged", path: "src/flow.js", before: "// @flow\nfunction f(x: number) {}\n", after: "// @flow\nfunction f(x: string) {}\n"},
		{name: "Go upper-case extension", path: "Main.GO", newFile: true, after: "package", want: []string{"line 1, column 8: expected "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before []byte
			if !tc.newFile {
				before = []byte(tc.before)
			}
			got := Check(tc.path, before, []byte(tc.after))
			if len(got) < len(tc.want) || (len(tc.want) == 0 && len(got) > 0) {
				t.Fatalf("Check(%s) = %v, want issues containing %q", tc.path, got, tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].String(), w) {
					t.Errorf("issue %d = %q, want it to contain %q (all: %v)", i, got[i].String(), w, got)
				}
			}
		})
	}
}

func TestCheckCapsIssues(t *testing.T) {
	var b strings.Builder
	b.WriteString("package x\n")
	for i := 0; i < 40; i++ {
		b.WriteString("func (\n")
	}
	got := Check("many.go", nil, []byte(b.String()))
	if len(got) == 0 || len(got) > MaxIssues {
		t.Fatalf("got %d issues, want 1..%d", len(got), MaxIssues)
	}
}

func TestLanguage(t *testing.T) {
	for p, want := range map[string]string{
		"main.go": "Go", "a/b/c.json": "JSON", "x.yml": "YAML", "x.YAML": "YAML", "Cargo.toml": "TOML",
		"tsconfig.base.json": "", "x.jsonc": "", "README.md": "", "go.mod": "", ".devcontainer/devcontainer.json": "",
		"a.tsx": "TypeScript", "b.mjs": "JavaScript", "c.d.ts": "TypeScript", "style.css": "", "main.py": "",
	} {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestCheckLeavesHugeFilesAlone(t *testing.T) {
	huge := []byte("[" + strings.Repeat(`{"a": 1},`, MaxBytes/9+1) + "]")
	if got := Check("dump.json", nil, huge); got != nil {
		t.Fatalf("a file over MaxBytes was judged: %v", got)
	}
	if got := Check("dump.json", nil, huge[:MaxBytes-1]); got == nil {
		t.Fatal("a broken file under MaxBytes was not judged")
	}
}
