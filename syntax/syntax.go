// Package syntax checks that a proposed edit does not break the syntax of a file
// in a language fixplan knows: Go (go/parser), JSON (encoding/json), YAML
// (go.yaml.in/yaml/v3), TOML (pelletier/go-toml/v2), and JavaScript and
// TypeScript with JSX (esbuild's parser, pure Go). It reports only errors the
// edit introduced — present in the new content, absent from the original — so a
// file that was already broken does not blame the model (docs/CONTRACT.md §7.1).
// It does no I/O and imports no other fixplan package.
//
// Other languages (Python, Rust, Java, …) are not checked: the maintained parsers
// for them (tree-sitter) need cgo, which the Windows cross-build does not have.
package syntax

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	toml "github.com/pelletier/go-toml/v2"
	yaml "go.yaml.in/yaml/v3"
)

// MaxIssues is how many issues Check reports for one file at most.
const MaxIssues = 5

// MaxBytes is the largest content Check parses: a bigger file (generated code,
// a bundle, a data dump) is not judged, so one plan's check stays fast.
const MaxBytes = 2 << 20

// Issue is one syntax error: where it is (1-based; 0 when the parser did not
// say) and what the parser reported.
type Issue struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

// String is the issue as people and the model read it: "line 3, column 7: msg".
func (i Issue) String() string {
	switch {
	case i.Line > 0 && i.Col > 0:
		return fmt.Sprintf("line %d, column %d: %s", i.Line, i.Col, i.Msg)
	case i.Line > 0:
		return fmt.Sprintf("line %d: %s", i.Line, i.Msg)
	}
	return i.Msg
}

// Language names the language Check knows for a slash-separated path, or ""
// when it checks nothing there. JSON files that by convention carry comments
// (tsconfig.json, VS Code settings, *.jsonc) are not checked.
func Language(p string) string {
	base := strings.ToLower(path.Base(p))
	switch strings.ToLower(path.Ext(base)) {
	case ".go":
		return "Go"
	case ".json":
		if jsonWithComments(p, base) {
			return ""
		}
		return "JSON"
	case ".yaml", ".yml":
		return "YAML"
	case ".toml":
		return "TOML"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "JavaScript"
	case ".ts", ".tsx", ".mts", ".cts":
		return "TypeScript"
	}
	return ""
}

// jsLoader is how esbuild reads a file: JSX is allowed in .js files too (React
// projects write it there), and only in .tsx among TypeScript files (in .ts,
// <T>x is a type assertion).
func jsLoader(p string) api.Loader {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	}
	return api.LoaderJSX
}

func jsonWithComments(p, base string) bool {
	if strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig") || base == "devcontainer.json" ||
		base == ".eslintrc.json" || base == ".babelrc.json" {
		return true
	}
	for _, seg := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		if seg == ".vscode" || seg == ".devcontainer" {
			return true
		}
	}
	return false
}

// Check returns the syntax errors of after (the new content of the file at p)
// that before (its current content; nil for a new file) does not have, at most
// MaxIssues. It returns nil for languages it does not know, for content it
// cannot judge (YAML with template markers, files over MaxBytes), and when after
// parses.
//
// Parsers that stop at the first error (JSON, YAML, TOML, esbuild) cannot tell a new
// error from an old one in a file that was already broken, so such a file is
// not judged; Go's parser goes on after an error (the first one of each line, up
// to ten) and the errors are compared by message.
func Check(p string, before, after []byte) []Issue {
	issues, _ := CheckNote(p, before, after)
	return issues
}

// CheckNote is Check that also says why content was not judged when that is
// worth telling the user: "too deeply nested to check (depth N)" for JavaScript,
// TypeScript or TOML nested deeper than MaxDepth (the parsers would overflow the
// stack and end the program); "" otherwise.
func CheckNote(p string, before, after []byte) ([]Issue, string) {
	if len(after) > MaxBytes || len(before) > MaxBytes {
		return nil, ""
	}
	lang := Language(p)
	if why := screen(p, lang, after, ""); why != "" {
		return nil, why
	}
	var parse func([]byte) []Issue
	all := false
	switch lang {
	case "Go":
		parse, all = func(b []byte) []Issue { return parseGo(p, b) }, true
	case "JSON":
		parse = parseJSON
	case "YAML":
		if bytes.Contains(after, []byte("{{")) || bytes.Contains(after, []byte("{%")) {
			return nil, "" // Helm, Jinja or Ansible templates are not YAML until rendered
		}
		parse = parseYAML
	case "TOML":
		parse = parseTOML
	case "JavaScript", "TypeScript":
		loader := jsLoader(p)
		parse = func(b []byte) []Issue { return parseJS(p, loader, b) }
	default:
		return nil, ""
	}
	got := parse(after)
	if len(got) == 0 {
		return nil, ""
	}
	if before != nil {
		// The original is parsed only to tell new errors from old ones, and a
		// hostile project file may be nested deep enough to overflow the parser.
		if why := screen(p, lang, before, " in the current file"); why != "" {
			return nil, why
		}
		old := parse(before)
		if len(old) > 0 && !all {
			return nil, ""
		}
		// A multiset of the old messages: an error the file already had is not new.
		count := map[string]int{}
		for _, is := range old {
			count[is.Msg]++
		}
		var out []Issue
		for _, is := range got {
			if count[is.Msg] > 0 {
				count[is.Msg]--
				continue
			}
			out = append(out, is)
		}
		got = out
	}
	if len(got) > MaxIssues {
		got = got[:MaxIssues]
	}
	if len(got) == 0 {
		return nil, ""
	}
	return got, ""
}

func parseGo(name string, b []byte) []Issue {
	fset := token.NewFileSet()
	_, err := parser.ParseFile(fset, name, b, parser.SkipObjectResolution)
	if err == nil {
		return nil
	}
	var list scanner.ErrorList
	if errors.As(err, &list) {
		out := make([]Issue, 0, len(list))
		for _, e := range list {
			out = append(out, Issue{Line: e.Pos.Line, Col: e.Pos.Column, Msg: e.Msg})
		}
		return out
	}
	return []Issue{{Msg: err.Error()}}
}

func parseJSON(b []byte) []Issue {
	if json.Valid(b) {
		return nil
	}
	var raw json.RawMessage
	err := json.Unmarshal(b, &raw)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(b, int(se.Offset))
		return []Issue{{Line: line, Col: col, Msg: se.Error()}}
	}
	if err == nil {
		err = errors.New("invalid JSON")
	}
	return []Issue{{Msg: err.Error()}}
}

// lineCol turns a byte offset into a 1-based line and column (in bytes). JSON's
// offset points just past the byte that was wrong.
func lineCol(b []byte, off int) (int, int) {
	if off > len(b) {
		off = len(b)
	}
	if off > 0 {
		off--
	}
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(b[:off], '\n')
	return line, col
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func parseYAML(b []byte) []Issue {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return []Issue{{Line: line, Msg: m[2]}}
		}
		return []Issue{{Msg: strings.TrimPrefix(msg, "yaml: ")}}
	}
}

// parseJS parses with esbuild (a transform, the cheapest full parse it offers).
// Its column is 0-based, in bytes.
func parseJS(name string, loader api.Loader, b []byte) []Issue {
	r := api.Transform(string(b), api.TransformOptions{Loader: loader, Sourcefile: name, LogLevel: api.LogLevelSilent})
	if len(r.Errors) == 0 {
		return nil
	}
	out := make([]Issue, 0, len(r.Errors))
	for _, e := range r.Errors {
		is := Issue{Msg: e.Text}
		if e.Location != nil {
			is.Line, is.Col = e.Location.Line, e.Location.Column+1
		}
		out = append(out, is)
	}
	return out
}

func parseTOML(b []byte) []Issue {
	var v map[string]any
	err := toml.Unmarshal(b, &v)
	if err == nil {
		return nil
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return []Issue{{Line: line, Col: col, Msg: strings.TrimPrefix(de.Error(), "toml: ")}}
	}
	return []Issue{{Msg: strings.TrimPrefix(err.Error(), "toml: ")}}
}
