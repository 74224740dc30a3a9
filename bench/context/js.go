package main

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// JavaScript projects: a released npm package (run.sh fetches it with `npm
// pack` and installs what its tests require next to it), whose functions are
// broken one at a time to return undefined first, on the line of their opening
// brace so no line moves, and whose test suite is TEST-COMMAND.
//
// Functions are found with a bracket scan over the source with strings,
// template literals, comments and regular-expression literals blanked: a named
// `function name(`, or `name = function (` / `name: function (` (the
// ES5 forms); its lines run from that line to the brace closing its body.
// Arrow functions and class methods are not broken (the packages measured are
// ES5).

var jsFuncRe = regexp.MustCompile(`\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|([A-Za-z_$][\w$.]*)\s*[=:]\s*function\b\s*\*?\s*(?:[A-Za-z_$][\w$]*)?\s*\(`)

// jsTargets lists the functions of the package's .js/.cjs files outside its
// tests, dependencies and built bundles.
func jsTargets(root string) []target {
	var out []target
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch n := d.Name(); {
			case p == root:
			case strings.HasPrefix(n, "."), n == "node_modules", n == "test", n == "tests", n == "__tests__",
				n == "dist", n == "build", n == "coverage", n == "example", n == "examples", n == "benchmark", n == "bench":
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".js" && ext != ".cjs" || strings.HasSuffix(p, ".min.js") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, jsFuncs(filepath.ToSlash(rel), src)...)
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		return out[i].from < out[j].from
	})
	return out
}

// jsFuncs finds the named functions of one file whose body spans three lines
// or more.
func jsFuncs(file string, src []byte) []target {
	b := jsBlank(src)
	var out []target
	for _, m := range jsFuncRe.FindAllSubmatchIndex(b, -1) {
		name := ""
		if m[2] >= 0 {
			name = string(b[m[2]:m[3]])
		} else {
			name = string(b[m[4]:m[5]])
		}
		paren := m[1] - 1
		closeParen := matchBracket(b, paren, '(', ')')
		if closeParen < 0 {
			continue
		}
		brace := closeParen + 1
		for brace < len(b) && (b[brace] == ' ' || b[brace] == '\t' || b[brace] == '\n' || b[brace] == '\r') {
			brace++
		}
		if brace >= len(b) || b[brace] != '{' {
			continue
		}
		end := matchBracket(b, brace, '{', '}')
		if end < 0 {
			continue
		}
		from := 1 + strings.Count(string(b[:m[0]]), "\n")
		to := from + strings.Count(string(b[m[0]:end]), "\n")
		if to-from < 2 {
			continue
		}
		out = append(out, target{file: file, name: name, brace: brace + 1, from: from, to: to})
	}
	return out
}

// matchBracket returns the offset of the bracket closing the one at i, or -1.
func matchBracket(b []byte, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// jsBlank returns src with the insides of strings, template literals, comments
// and regular-expression literals replaced by spaces (newlines kept), so the
// brackets in them do not count. A `/` starts a regular expression when the
// last code before it is an operator, an opening bracket, or return/typeof.
func jsBlank(src []byte) []byte {
	b := append([]byte(nil), src...)
	blank := func(from, to int) {
		for k := from; k < to && k < len(b); k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	last := byte(0) // last significant character of code
	lastWord := ""
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			j := i
			for j < len(b) && b[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j - 1
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := strings.Index(string(b[i+2:]), "*/")
			if j < 0 {
				j = len(b)
			} else {
				j += i + 4
			}
			blank(i, j)
			i = j - 1
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(b) && b[j] != c && (c == '`' || b[j] != '\n') {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			blank(i+1, j)
			i = j
			last, lastWord = 'a', ""
		case c == '/' && (last == 0 || strings.IndexByte("(,=:[!&|?{};+-*%<>~^", last) >= 0 || lastWord == "return" || lastWord == "typeof"):
			j, inClass := i+1, false
			for j < len(b) && b[j] != '\n' && (inClass || b[j] != '/') {
				switch b[j] {
				case '\\':
					j++
				case '[':
					inClass = true
				case ']':
					inClass = false
				}
				j++
			}
			blank(i+1, j)
			i = j
			last, lastWord = 'a', ""
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			if isIdent(c) {
				if i == 0 || !isIdent(b[i-1]) {
					lastWord = ""
				}
				lastWord += string(c)
			} else {
				lastWord = ""
			}
			last = c
		}
	}
	return b
}

// jsBreak returns src with t's body returning undefined first.
func jsBreak(src []byte, t target) []byte {
	ins := " if (true) { return undefined; }"
	out := make([]byte, 0, len(src)+len(ins))
	out = append(out, src[:t.brace]...)
	out = append(out, ins...)
	return append(out, src[t.brace:]...)
}

// jsTest runs the project's test command; failed is false when it passes.
func jsTest(root, testCmd string) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", testCmd)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	out, err := cmd.CombinedOutput()
	if len(out) > 256<<10 {
		out = out[:256<<10]
	}
	return out, err != nil
}

func runJSProject(name, root, testCmd string, k int, envCache, save string, verbose bool) (outs []outcome, nTried, nPass int) {
	if out, failed := jsTest(root, testCmd); failed {
		fmt.Fprintf(os.Stderr, "contextbench: %s: the tests fail before anything is broken (install what they require next to the project); %s:\n%s\n", name, testCmd, out)
		os.Exit(1)
	}
	gather(root, "warm-up", envCache, true)
	ts := jsTargets(root)
	rng := rand.New(rand.NewPCG(1, uint64(len(ts))))
	rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	for _, t := range ts {
		if len(outs) == k || nTried == 6*k {
			break
		}
		nTried++
		path := filepath.Join(root, filepath.FromSlash(t.file))
		orig, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		if err := os.WriteFile(path, jsBreak(orig, t), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		out, failed := jsTest(root, testCmd)
		if failed {
			outs = append(outs, measure(name, root, t, "npm test fails:\n"+string(out), envCache, save, len(outs)+1, verbose))
		} else {
			nPass++
		}
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "restore:", err)
			os.Exit(1)
		}
	}
	return outs, nTried, nPass
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
