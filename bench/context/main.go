// Command contextbench measures how often the base context already holds the
// code a fix needs, on real Go projects and real test failures.
//
// For each project folder (a writable copy of a released module; run.sh fetches
// them) it picks functions deterministically, breaks one at a time (the body
// first returns the zero values: `if true { return *new(T) }`, inserted on the
// brace's line so no line moves), runs `go test` on its package, and, when the
// test fails, gathers the base context of that output exactly as `fixplan
// context base --problem-file` does — once with the definitions of what the
// failing lines use switched off (before) and once on (after). It then restores
// the file. A failure counts as a hit when every line of the broken function is
// shown in a section of its file; a file hit when any line of the file is.
//
// A JavaScript project is given as NAME=DIR=TEST-COMMAND (see js.go): its
// functions are found by a bracket scan and made to return undefined first, and
// TEST-COMMAND (run by sh in DIR) is its test suite.
//
// Usage: go run ./bench/context -k 12 [-md] [-v] NAME=DIR[=TEST-COMMAND]...
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"fixplan/bench/internal/ctxbench"
	"fixplan/plan"
)

type target struct {
	file     string // root-relative
	name     string
	brace    int // offset just after the body's {
	results  []string
	from, to int // lines of the function (func keyword to closing brace)
}

type outcome struct {
	project, fn, file                string
	before, after                    bool // the whole function shown
	fileBefore, fileAfter            bool // any line of its file shown
	bytesBefore, bytesAfter, defSecs int
	msBefore, msAfter                float64 // time to gather the base context
}

func main() {
	k := flag.Int("k", 12, "failures per project")
	md := flag.Bool("md", false, "print Markdown")
	verbose := flag.Bool("v", false, "print each failure")
	envCache := flag.String("env-cache", "", "env-cache file for the environment section (default: none)")
	save := flag.String("save", "", "folder to save each failure's output and its base context's section titles in")
	replay := flag.String("replay", "", "gather again the failures saved in this folder (-save) instead of breaking functions: "+
		"the copies are restored after each failure, and the break keeps every line where it was, so the lines to find are the same")
	flag.Parse()
	var all []outcome
	tried := map[string][2]int{}
	for _, arg := range flag.Args() {
		name, dir, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "contextbench: %q: want NAME=DIR or NAME=DIR=TEST-COMMAND\n", arg)
			os.Exit(2)
		}
		dir, testCmd, js := strings.Cut(dir, "=")
		if *replay != "" {
			all = append(all, replayProject(name, dir, *replay, *envCache)...)
			continue
		}
		var outs []outcome
		var nTried, nPass int
		if js {
			outs, nTried, nPass = runJSProject(name, dir, testCmd, *k, *envCache, *save, *verbose)
		} else {
			outs, nTried, nPass = runProject(name, dir, *k, *envCache, *save, *verbose)
		}
		tried[name] = [2]int{nTried, nPass}
		all = append(all, outs...)
	}
	report(all, tried, flag.Args(), *md)
}

// targets lists the functions with a body in the non-test files of packages
// that have tests (files with build constraints are left alone).
func targets(root string) []target {
	var out []target
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (n == "testdata" || strings.HasPrefix(n, ".") || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		tests, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "*_test.go"))
		if len(tests) == 0 {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || bytes.Contains(src, []byte("//go:build")) || bytes.Contains(src, []byte("// +build")) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil || f.Name.Name == "main" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) < 2 || fd.Name.Name == "init" {
				continue
			}
			t := target{file: filepath.ToSlash(rel), name: fd.Name.Name, brace: fset.Position(fd.Body.Lbrace).Offset + 1,
				from: fset.Position(fd.Pos()).Line, to: fset.Position(fd.End()).Line}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				var b bytes.Buffer
				_ = printer.Fprint(&b, fset, fd.Recv.List[0].Type)
				t.name = "(" + b.String() + ")." + t.name
			}
			if fd.Type.Results != nil {
				for _, r := range fd.Type.Results.List {
					var b bytes.Buffer
					_ = printer.Fprint(&b, fset, r.Type)
					n := max(1, len(r.Names))
					for range n {
						t.results = append(t.results, b.String())
					}
				}
			}
			out = append(out, t)
		}
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

// breakFunc returns src with t's body returning zero values first.
func breakFunc(src []byte, t target) []byte {
	ret := "return"
	if len(t.results) > 0 {
		var zs []string
		for _, r := range t.results {
			zs = append(zs, "*new("+r+")")
		}
		ret += " " + strings.Join(zs, ", ")
	}
	ins := " if true { " + ret + " };"
	out := make([]byte, 0, len(src)+len(ins))
	out = append(out, src[:t.brace]...)
	out = append(out, ins...)
	return append(out, src[t.brace:]...)
}

func runProject(name, root string, k int, envCache, save string, verbose bool) (outs []outcome, nTried, nPass int) {
	gather(root, "warm-up", envCache, true) // the environment facts, cached for every later gather
	ts := targets(root)
	rng := rand.New(rand.NewPCG(1, uint64(len(ts))))
	rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	skips := map[string]string{}
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
		if err := os.WriteFile(path, breakFunc(orig, t), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		pkgDir := filepath.Dir(t.file)
		skip, ok := skips[pkgDir]
		if !ok {
			skip = baseline(root, pkgDir)
			skips[pkgDir] = skip
		}
		out, failed := goTest(root, pkgDir, skip)
		if failed && !bytes.Contains(out, []byte("[build failed]")) && !bytes.Contains(out, []byte("[setup failed]")) {
			outs = append(outs, measure(name, root, t, "go test fails:\n"+string(out), envCache, save, len(outs)+1, verbose))
		} else if !failed {
			nPass++
		}
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "restore:", err)
			os.Exit(1)
		}
	}
	return outs, nTried, nPass
}

// measure gathers the base context of one failure's output with the
// definitions off and on and records whether t is shown in each (saving the
// output and the section titles as failure n when save is set).
func measure(name, root string, t target, problem, envCache, save string, n int, verbose bool) outcome {
	o := outcome{project: name, fn: t.name, file: t.file}
	t0 := time.Now()
	before := gather(root, problem, envCache, true)
	t1 := time.Now()
	after := gather(root, problem, envCache, false)
	o.msBefore, o.msAfter = ms(t1.Sub(t0)), ms(time.Since(t1))
	o.before, o.fileBefore = shown(before, t)
	o.after, o.fileAfter = shown(after, t)
	o.bytesBefore, o.bytesAfter = size(before), size(after)
	for _, s := range after.Sections {
		if strings.Contains(s.Title, "(definition of ") {
			o.defSecs++
		}
	}
	if save != "" {
		var b strings.Builder
		for _, s := range after.Sections {
			b.WriteString(s.Title + "\n")
		}
		b.WriteString(strings.Join(after.Warnings, "\n"))
		base := filepath.Join(save, fmt.Sprintf("%s-%02d", name, n))
		_ = os.WriteFile(base+".out", []byte(fmt.Sprintf("%s\t%s\t%d\t%d\n%s", t.file, t.name, t.from, t.to, problem)), 0o644)
		_ = os.WriteFile(base+".titles", []byte(b.String()), 0o644)
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "%s %s %s: before %v after %v (%d → %d bytes)\n", name, t.file, t.name, o.before, o.after, o.bytesBefore, o.bytesAfter)
	}
	return o
}

var failRe = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// baseline returns the -skip pattern of the package's tests that fail before
// anything is broken (on this machine: tests that expect a permission error
// fail when run as root; a panic hides the failures after it, so it runs again).
func baseline(root, pkgDir string) string {
	var names []string
	for range 5 {
		skip := ""
		if len(names) > 0 {
			skip = "^(" + strings.Join(names, "|") + ")$"
		}
		out, failed := goTest(root, pkgDir, skip)
		if !failed {
			if len(names) > 0 {
				fmt.Fprintf(os.Stderr, "%s: skipping tests that fail unbroken: %s\n", pkgDir, strings.Join(names, " "))
			}
			return skip
		}
		n := len(names)
		for _, m := range failRe.FindAllStringSubmatch(string(out), -1) {
			top, _, _ := strings.Cut(m[1], "/")
			if !slices.Contains(names, regexp.QuoteMeta(top)) {
				names = append(names, regexp.QuoteMeta(top))
			}
		}
		if len(names) == n {
			break // fails without naming a test (build error): left as it is
		}
	}
	return "^(" + strings.Join(names, "|") + ")$"
}

// replayProject gathers the base context again for the failures of project
// name saved in dir.
func replayProject(name, root, dir, envCache string) []outcome {
	files, _ := filepath.Glob(filepath.Join(dir, name+"-*.out"))
	sort.Strings(files)
	var outs []outcome
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		head, problem, _ := strings.Cut(string(data), "\n")
		var t target
		fields := strings.Split(head, "\t")
		if len(fields) != 4 {
			fmt.Fprintf(os.Stderr, "%s: the first line is not FILE\tFUNCTION\tFROM\tTO\n", f)
			continue
		}
		t.file, t.name = fields[0], fields[1]
		t.from, _ = strconv.Atoi(fields[2])
		t.to, _ = strconv.Atoi(fields[3])
		o := outcome{project: name, fn: t.name, file: t.file}
		t0 := time.Now()
		before := gather(root, problem, envCache, true)
		t1 := time.Now()
		after := gather(root, problem, envCache, false)
		o.msBefore, o.msAfter = ms(t1.Sub(t0)), ms(time.Since(t1))
		o.before, o.fileBefore = shown(before, t)
		o.after, o.fileAfter = shown(after, t)
		o.bytesBefore, o.bytesAfter = size(before), size(after)
		for _, s := range after.Sections {
			if strings.Contains(s.Title, "(definition of ") {
				o.defSecs++
			}
		}
		outs = append(outs, o)
	}
	return outs
}

// goTest runs the package's tests; failed is false when they pass.
func goTest(root, pkgDir, skip string) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pkg := "./" + filepath.ToSlash(pkgDir)
	if pkgDir == "." {
		pkg = "."
	}
	args := []string{"test", "-count=1", "-timeout=60s"}
	if skip != "" {
		args = append(args, "-skip", skip)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if len(out) > 256<<10 {
		out = out[:256<<10]
	}
	return out, err != nil
}

func gather(root, problem, envCache string, noDefs bool) plan.Gathered {
	res, err := ctxbench.Gather(root, problem, envCache, noDefs)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return res
}

// shown reports whether every line of t, and any line of its file, is in a
// section of the base context.
func shown(g plan.Gathered, t target) (fn, file bool) {
	return ctxbench.Shown(g, t.file, t.from, t.to)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func size(g plan.Gathered) int { return ctxbench.Size(g) }

func pct(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}

func report(all []outcome, tried map[string][2]int, args []string, md bool) {
	type agg struct {
		n, b, a, fb, fa, bytesB, bytesA, defs int
		msB, msA                              float64
	}
	per := map[string]*agg{}
	var order []string
	tot := &agg{}
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		per[name] = &agg{}
		order = append(order, name)
	}
	for _, o := range all {
		for _, x := range []*agg{per[o.project], tot} {
			x.n++
			x.bytesB += o.bytesBefore
			x.bytesA += o.bytesAfter
			x.defs += o.defSecs
			x.msB += o.msBefore
			x.msA += o.msAfter
			if o.before {
				x.b++
			}
			if o.after {
				x.a++
			}
			if o.fileBefore {
				x.fb++
			}
			if o.fileAfter {
				x.fa++
			}
		}
	}
	if md {
		fmt.Println("| project | functions broken (tried, tests still passed) | function in base context: before | after | its file in base context: before | after | base context bytes: before → after (mean) | time to gather, ms: before → after (mean) |")
		fmt.Println("|---|---|---|---|---|---|---|---|")
	}
	row := func(name string, x *agg, tr [2]int) {
		mb, ma := 0, 0
		tb, ta := 0.0, 0.0
		if x.n > 0 {
			mb, ma = x.bytesB/x.n, x.bytesA/x.n
			tb, ta = x.msB/float64(x.n), x.msA/float64(x.n)
		}
		if md {
			fmt.Printf("| %s | %d (%d, %d) | %s | %s | %s | %s | %d → %d | %.0f → %.0f |\n", name, x.n, tr[0], tr[1], pct(x.b, x.n), pct(x.a, x.n), pct(x.fb, x.n), pct(x.fa, x.n), mb, ma, tb, ta)
			return
		}
		fmt.Printf("%-12s failures %3d (tried %3d, passed %3d)  function before %s after %s  file before %s after %s  bytes %d → %d  ms %.0f → %.0f\n",
			name, x.n, tr[0], tr[1], pct(x.b, x.n), pct(x.a, x.n), pct(x.fb, x.n), pct(x.fa, x.n), mb, ma, tb, ta)
	}
	var tt [2]int
	for _, name := range order {
		row(name, per[name], tried[name])
		tt[0] += tried[name][0]
		tt[1] += tried[name][1]
	}
	row("all", tot, tt)
	if md {
		fmt.Println()
		fmt.Println("Each failure (✓ = every line of the broken function in the base context):")
		fmt.Println()
		fmt.Println("| project | function | file | before | after | definition sections |")
		fmt.Println("|---|---|---|---|---|---|")
		for _, o := range all {
			fmt.Printf("| %s | `%s` | %s | %s | %s | %d |\n", o.project, o.fn, o.file, mark(o.before), mark(o.after), o.defSecs)
		}
	}
}

func mark(b bool) string {
	if b {
		return "✓"
	}
	return "✗"
}
