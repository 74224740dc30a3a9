package codectx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A test that loads its package as a folder (`require('../')`, as most npm
// packages' tests do) gets the definitions of the package's main file: the
// package.json "main" when it names one, else the folder's index.js (a "main"
// leaving the project is not followed).
func TestDefinitionsJSRequireOfAFolder(t *testing.T) {
	for _, tc := range []struct{ name, pkg, mainFile, spec string }{
		{"main", `{"name": "p", "main": "lib/index.js"}`, "lib/index.js", "../"},
		{"index", `{"name": "p"}`, "index.js", ".."},
		{"main leaving the project is not followed", `{"name": "p", "main": "../../index.js"}`, "index.js", "../"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{
				"package.json": tc.pkg,
				tc.mainFile:    "'use strict';\n\nfunction parse(value) {\n    var s = String(value);\n    return s + '!';\n}\n\nmodule.exports = { parse: parse };\n",
				"test/qs.js":   "'use strict';\nvar test = require('tape');\nvar qs = require('" + tc.spec + "');\n\ntest('numbers', function (t) {\n    t.equal(qs.parse(1), '1');\n    t.end();\n});\n",
			}
			for rel, text := range files {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			problem := "not ok 1 should be strictly equal\n  ---\n    operator: equal\n    expected: '1'\n    actual: '1!'\n" +
				"    at: Test.<anonymous> (" + filepath.Join(root, "test", "qs.js") + ":6:7)\n  ...\n"
			got := gatherBase(t, root, problem, Options{})
			s, ok := findSection(got, "File "+tc.mainFile, "definition of parse")
			if !ok || !strings.Contains(s.Body, "return s + '!';") {
				t.Fatalf("no definition of parse from %s; sections:\n%s", tc.mainFile, titles(got))
			}
		})
	}
}
