package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A span is a function (or a test) of one file and its lines.
type span struct {
	Name     string `json:"name"`
	From, To int    // first and last line
}

// goFuncs lists the functions and methods declared in a Go file, from the func
// keyword to the closing brace (methods named (Recv).Name), as the context
// benchmark names them. imports are the lines of its import declarations.
func goFuncs(src []byte) (fns []span, imports [][2]int, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				var b bytes.Buffer
				_ = printer.Fprint(&b, fset, d.Recv.List[0].Type)
				name = "(" + b.String() + ")." + name
			}
			fns = append(fns, span{Name: name, From: fset.Position(d.Pos()).Line, To: fset.Position(d.End()).Line})
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				imports = append(imports, [2]int{fset.Position(d.Pos()).Line, fset.Position(d.End()).Line})
			}
		}
	}
	return fns, imports, nil
}

// pyScript prints, for each Python file named, its functions and methods
// (Class.method; a function nested in another is part of it) from the def line
// to the last line, or null when the file does not parse.
const pyScript = `
import ast, json, sys
out = {}
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except Exception:
        out[path] = None
        continue
    fns = []
    def visit(node, prefix):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fns.append({"name": prefix + ch.name, "From": ch.lineno, "To": ch.end_lineno})
            elif isinstance(ch, ast.ClassDef):
                visit(ch, prefix + ch.name + ".")
            elif isinstance(ch, (ast.If, ast.Try, ast.With)):
                visit(ch, prefix)
    visit(tree, "")
    out[path] = fns
print(json.dumps(out))
`

// jsScript prints, for each JavaScript or TypeScript file named, its functions
// with the TypeScript compiler's parser (the path of the typescript package is
// the first argument): declarations, class and object methods, and functions or
// arrows assigned to a name (const f = …, exports.f = …, f: function …), each
// from its statement's first line to its last; a function inside another is
// part of it.
const jsScript = `
const ts = require(process.argv[1]);
const fs = require("fs");
const out = {};
for (const path of process.argv.slice(2)) {
  let text;
  try { text = fs.readFileSync(path, "utf8"); } catch (e) { out[path] = null; continue; }
  const kind = /\.tsx$/.test(path) ? ts.ScriptKind.TSX : /\.[cm]?ts$/.test(path) ? ts.ScriptKind.TS : /\.jsx$/.test(path) ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const fns = [];
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const add = (name, from, to) => fns.push({ name, From: line(from), To: line(to) });
  const isFn = (n) => n && (ts.isFunctionExpression(n) || ts.isArrowFunction(n));
  const nameOf = (n) => n ? n.getText(sf) : "";
  const visit = (node, prefix) => {
    ts.forEachChild(node, (ch) => {
      if (ts.isFunctionDeclaration(ch) && ch.body) { add(prefix + (ch.name ? ch.name.text : "default"), ch.getStart(sf), ch.end); return; }
      if ((ts.isMethodDeclaration(ch) || ts.isGetAccessor(ch) || ts.isSetAccessor(ch) || ts.isConstructorDeclaration(ch)) && ch.body) {
        add(prefix + (ts.isConstructorDeclaration(ch) ? "constructor" : nameOf(ch.name)), ch.getStart(sf), ch.end); return;
      }
      if ((ts.isPropertyDeclaration(ch) || ts.isPropertyAssignment(ch)) && isFn(ch.initializer)) { add(prefix + nameOf(ch.name), ch.getStart(sf), ch.end); return; }
      if (ts.isVariableStatement(ch) && ch.declarationList.declarations.length === 1 && isFn(ch.declarationList.declarations[0].initializer)) {
        add(prefix + nameOf(ch.declarationList.declarations[0].name), ch.getStart(sf), ch.end); return;
      }
      if (ts.isExpressionStatement(ch) && ts.isBinaryExpression(ch.expression) && ch.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken && isFn(ch.expression.right)) {
        add(nameOf(ch.expression.left), ch.getStart(sf), ch.end); return;
      }
      if (ts.isClassDeclaration(ch) || ts.isClassExpression(ch)) { visit(ch, (ch.name ? ch.name.text : "class") + "."); return; }
      if (isFn(ch) || ts.isFunctionDeclaration(ch)) return; // an anonymous function's inner functions are not listed
      visit(ch, prefix);
    });
  };
  visit(sf, "");
  out[path] = fns;
}
console.log(JSON.stringify(out));
`

// funcsOf returns the functions of each file (absolute paths) of language lang;
// a file that does not parse has none. tsModule is the typescript package's
// folder (JavaScript and TypeScript only).
func funcsOf(lang string, files []string, tsModule string) (map[string][]span, error) {
	out := map[string][]span{}
	if len(files) == 0 {
		return out, nil
	}
	switch lang {
	case "go":
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			fns, _, err := goFuncs(src)
			if err == nil {
				out[f] = fns
			}
		}
		return out, nil
	case "python":
		return runFuncScript(python(), append([]string{"-c", pyScript}, files...))
	case "js", "ts":
		if tsModule == "" {
			return nil, fmt.Errorf("finding JavaScript functions needs the typescript package (-ts)")
		}
		return runFuncScript("node", append([]string{"-e", jsScript, tsModule}, files...))
	}
	return nil, fmt.Errorf("no function finder for %s", lang)
}

func runFuncScript(prog string, args []string) (map[string][]span, error) {
	cmd := exec.Command(prog, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", filepath.Base(prog), err, strings.TrimSpace(stderr.String()))
	}
	var raw map[string][]span
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	for k, v := range raw {
		if v == nil {
			delete(raw, k)
		}
	}
	return raw, nil
}
