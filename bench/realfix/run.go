package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fixplan/bench/internal/ctxbench"
	"fixplan/plan"
)

// defLineCap is the most lines of one definition the base context shows
// (context/defs' maxDefLines): a longer fixed function is shown whole only by a
// window or a whole file.
const defLineCap = 100

// A result is one case measured.
type result struct {
	c         *Case
	err       error
	fileShown bool  // every fixed file has a line in the base context
	whole     []int // per fixed function: its lines shown
	bytes     int
	ms        float64
	sections  int
	defSecs   int
}

// allWhole reports whether every fixed function is shown whole.
func (r *result) allWhole() bool {
	for i, f := range r.c.Functions {
		if r.whole[i] < f.To-f.From+1 {
			return false
		}
	}
	return r.err == nil
}

// measureCases gathers each case's base context in its pre-fix tree.
func measureCases(cases []*Case, rs *repos, work, save string) []*result {
	envCache := filepath.Join(work, "env-cache.json")
	warm := true
	var out []*result
	for i, c := range cases {
		r := &result{c: c}
		out = append(out, r)
		tree := filepath.Join(work, c.ID, c.Project())
		gitDir, err := rs.gitDir(c.Repo, c.Parent, c.Fix)
		if err == nil {
			err = preFixTree(gitDir, c, tree)
		}
		if err != nil {
			r.err = err
			fmt.Fprintf(os.Stderr, "%s: %v\n", c.ID, err)
			continue
		}
		problem := strings.ReplaceAll(c.Output, RootMark, tree)
		if warm { // the environment facts, probed once and cached for every later gather
			if _, err := ctxbench.Gather(tree, "warm-up", envCache, true); err != nil {
				fail(err)
			}
			warm = false
		}
		t0 := time.Now()
		g, err := ctxbench.Gather(tree, problem, envCache, false)
		r.ms = float64(time.Since(t0).Microseconds()) / 1000
		removeTree(filepath.Dir(tree))
		if err != nil {
			r.err = err
			fmt.Fprintf(os.Stderr, "%s: %v\n", c.ID, err)
			continue
		}
		r.bytes, r.sections = ctxbench.Size(g), len(g.Sections)
		for _, s := range g.Sections {
			if strings.Contains(s.Title, "(definition of ") {
				r.defSecs++
			}
		}
		r.fileShown = true
		for _, f := range c.Functions {
			lines := ctxbench.Lines(g, f.File)
			n := 0
			for l := f.From; l <= f.To; l++ {
				if lines[l] {
					n++
				}
			}
			r.whole = append(r.whole, n)
			if len(lines) == 0 {
				r.fileShown = false
			}
		}
		if save != "" {
			saveGathered(save, c, problem, g)
		}
		fmt.Fprintf(os.Stderr, "[%d/%d] %s %s: file %v, functions whole %v, %d bytes, %.0f ms\n",
			i+1, len(cases), c.Set(), c.ID, r.fileShown, r.allWhole(), r.bytes, r.ms)
	}
	return out
}

// saveGathered writes the case's problem and base context (titles first) for
// reading a miss.
func saveGathered(dir string, c *Case, problem string, g plan.Gathered) {
	var b strings.Builder
	for _, f := range c.Functions {
		fmt.Fprintf(&b, "fixed: %s %s %d-%d\n", f.File, f.Name, f.From, f.To)
	}
	b.WriteString("\n")
	for _, s := range g.Sections {
		fmt.Fprintf(&b, "%7d  %s\n", len(s.Title)+len(s.Body), s.Title)
	}
	for _, w := range g.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	b.WriteString("\n==== problem ====\n" + problem + "\n")
	for _, s := range g.Sections {
		b.WriteString("\n==== " + s.Title + " ====\n" + s.Body)
	}
	_ = os.WriteFile(filepath.Join(dir, c.ID+".txt"), []byte(b.String()), 0o644)
}

// verifyCases re-runs each case's tests: they must fail in the pre-fix tree
// (a test failure, not a build failure) and pass at the fix. It returns how
// many cases did not.
func verifyCases(cases []*Case, rs *repos, work string) int {
	bad := 0
	for i, c := range cases {
		t0 := time.Now()
		why := verifyCase(c, rs, work)
		state := "ok"
		if why != "" {
			bad++
			state = "FAILED: " + why
		}
		fmt.Printf("[%d/%d] %s: %s (%.0fs)\n", i+1, len(cases), c.ID, state, time.Since(t0).Seconds())
	}
	return bad
}

func verifyCase(c *Case, rs *repos, work string) string {
	gitDir, err := rs.gitDir(c.Repo, c.Parent, c.Fix)
	if err != nil {
		return err.Error()
	}
	dir := filepath.Join(work, c.ID)
	defer removeTree(dir)
	pre := filepath.Join(dir, "pre", c.Project())
	if err := preFixTree(gitDir, c, pre); err != nil {
		return err.Error()
	}
	out, code, err := runTest(c, pre)
	switch {
	case err != nil:
		return "before the fix: " + err.Error()
	case code == 0:
		return "the tests pass before the fix"
	}
	if why := notATestFailure(c.Lang, out, code); why != "" {
		return "before the fix: " + why
	}
	post := filepath.Join(dir, "fix", c.Project())
	if err := fixTree(gitDir, c, post); err != nil {
		return err.Error()
	}
	out, code, err = runTest(c, post)
	switch {
	case err != nil:
		return "at the fix: " + err.Error()
	case code != 0:
		return "the tests fail at the fix: " + trunc(lastLines(out, 3), 300)
	}
	return ""
}

// diagnoses are the misses' one-line diagnoses, kept by hand in
// diagnoses.tsv: `class<TAB>NAME<TAB>what the class is` lines, and
// `ID<TAB>CLASS<TAB>why this case's function is not shown whole` lines
// (# starts a comment).
type diagnoses struct {
	classes map[string]string // name → description
	order   []string
	cases   map[string][2]string // id → class, text
}

func loadDiagnoses(p string) (*diagnoses, error) {
	d := &diagnoses{classes: map[string]string{}, cases: map[string][2]string{}}
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		fs := strings.SplitN(l, "\t", 3)
		if len(fs) != 3 {
			return nil, fmt.Errorf("%s: %q has not three tab-separated fields", p, l)
		}
		if fs[0] == "class" {
			d.classes[fs[1]] = fs[2]
			d.order = append(d.order, fs[1])
			continue
		}
		if _, ok := d.classes[fs[1]]; !ok {
			return nil, fmt.Errorf("%s: %s: class %q is not declared above it", p, fs[0], fs[1])
		}
		d.cases[fs[0]] = [2]string{fs[1], fs[2]}
	}
	return d, sc.Err()
}

// facts is what the numbers say about a miss: each fixed function not shown
// whole, how much of it is, and its length against the definitions' cap.
func facts(r *result) string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	var parts []string
	for i, f := range r.c.Functions {
		n := f.To - f.From + 1
		if r.whole[i] == n {
			continue
		}
		p := fmt.Sprintf("`%s` %d/%d lines", f.Name, r.whole[i], n)
		if n > defLineCap {
			p += fmt.Sprintf(" (longer than the %d-line cap)", defLineCap)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

type agg struct {
	n, file, whole, fns, fnsWhole int
	bytes                         []int
	ms                            []float64
}

func (a *agg) add(r *result) {
	a.n++
	if r.fileShown {
		a.file++
	}
	if r.allWhole() {
		a.whole++
	}
	a.fns += len(r.c.Functions)
	for i, f := range r.c.Functions {
		if r.err == nil && r.whole[i] == f.To-f.From+1 {
			a.fnsWhole++
		}
	}
	a.bytes = append(a.bytes, r.bytes)
	a.ms = append(a.ms, r.ms)
}

func median[T int | float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := append([]T{}, xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mean[T int | float64](xs []T) float64 {
	if len(xs) == 0 {
		return 0
	}
	var t float64
	for _, x := range xs {
		t += float64(x)
	}
	return t / float64(len(xs))
}

func pct(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}

// report prints the totals (tuning, held-out, all; by language and by
// repository) and, with md, the table of every case.
func report(w io.Writer, rs []*result, notes *diagnoses, md bool) {
	groups := map[string]*agg{}
	var order []string
	add := func(key string, r *result) {
		a, ok := groups[key]
		if !ok {
			a = &agg{}
			groups[key] = a
			order = append(order, key)
		}
		a.add(r)
	}
	for _, set := range []string{"tuning", "held-out", "all"} {
		for _, r := range rs {
			if set == "all" || r.c.Set() == set {
				add(set, r)
			}
		}
	}
	langsSeen := map[string]bool{}
	for _, r := range rs {
		langsSeen[r.c.Lang] = true
	}
	for _, l := range []string{"go", "python", "js", "ts"} {
		if !langsSeen[l] {
			continue
		}
		for _, set := range []string{"tuning", "held-out"} {
			for _, r := range rs {
				if r.c.Lang == l && r.c.Set() == set {
					add(l+", "+set, r)
				}
			}
		}
	}
	line := func(name string, a *agg) {
		if md {
			fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %.0f / %.0f | %.0f / %.0f |\n", name, a.n, pct(a.file, a.n), pct(a.whole, a.n),
				pct(a.fnsWhole, a.fns), float64(median(a.bytes)), mean(a.bytes), median(a.ms), mean(a.ms))
			return
		}
		fmt.Fprintf(w, "%-18s cases %3d  file %-14s every function whole %-14s functions whole %-14s bytes median %6d mean %6.0f  ms median %4.0f mean %4.0f\n",
			name, a.n, pct(a.file, a.n), pct(a.whole, a.n), pct(a.fnsWhole, a.fns), median(a.bytes), mean(a.bytes), median(a.ms), mean(a.ms))
	}
	if md {
		fmt.Fprintln(w, "| set | cases | fixed file shown | every fixed function whole | fixed functions whole | base context bytes (median / mean) | time to gather, ms (median / mean) |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	}
	for _, k := range order {
		line(k, groups[k])
	}
	// By repository.
	byRepo := map[string]*agg{}
	var repos []string
	for _, r := range rs {
		a, ok := byRepo[r.c.Repo]
		if !ok {
			a = &agg{}
			byRepo[r.c.Repo] = a
			repos = append(repos, r.c.Repo)
		}
		a.add(r)
	}
	sort.Strings(repos)
	if md {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| repository | cases | fixed file shown | every fixed function whole | fixed functions whole | base context bytes (median / mean) | time to gather, ms (median / mean) |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	} else {
		fmt.Fprintln(w)
	}
	for _, repo := range repos {
		line(repo, byRepo[repo])
	}
	if !md {
		for _, r := range rs {
			if !r.allWhole() {
				fmt.Fprintf(w, "miss %-9s %-28s %s | %s\n", r.c.Set(), r.c.ID, facts(r), notes.cases[r.c.ID][1])
			}
		}
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Misses by cause")
	fmt.Fprintln(w)
	missesByCause(w, rs, notes)
	fmt.Fprintln(w, "## Each case")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "✓ under *whole*: every fixed function's every line is in a section of the base context; under *file*: a line of every fixed file is. The fixed functions are listed with their file and length in lines.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| case | set | lang | fixed functions (lines) | file | whole | bytes | ms | why not whole |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range rs {
		var fns []string
		for _, f := range r.c.Functions {
			fns = append(fns, fmt.Sprintf("`%s` (%s, %d)", f.Name, f.File, f.To-f.From+1))
		}
		why := ""
		if !r.allWhole() {
			why = facts(r)
			if n, ok := notes.cases[r.c.ID]; ok {
				why = n[1] + " — " + why
			} else {
				why = "(not diagnosed) " + why
			}
		}
		link := fmt.Sprintf("[%s](https://github.com/%s/commit/%s)", r.c.ID, r.c.Repo, r.c.Fix)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %d | %.0f | %s |\n", link, r.c.Set(), r.c.Lang, strings.Join(fns, ", "),
			mark(r.fileShown), mark(r.allWhole()), r.bytes, r.ms, why)
	}
}

func mark(b bool) string {
	if b {
		return "✓"
	}
	return "✗"
}

// missesByCause prints the misses grouped by their diagnosis's class, the
// largest class first, with the tuning and held-out counts.
func missesByCause(w io.Writer, rs []*result, notes *diagnoses) {
	type group struct {
		name            string
		tuning, heldOut int
		lines           []string
	}
	groups := map[string]*group{}
	for _, r := range rs {
		if r.allWhole() {
			continue
		}
		d, ok := notes.cases[r.c.ID]
		if !ok {
			d = [2]string{"", facts(r)}
		}
		g, ok := groups[d[0]]
		if !ok {
			g = &group{name: d[0]}
			groups[d[0]] = g
		}
		if r.c.HeldOut() {
			g.heldOut++
		} else {
			g.tuning++
		}
		var fns []string
		for i, f := range r.c.Functions {
			if r.err != nil || r.whole[i] < f.To-f.From+1 {
				fns = append(fns, "`"+f.Name+"`")
			}
		}
		g.lines = append(g.lines, fmt.Sprintf("- %s (%s, %s): %s", r.c.ID, r.c.Set(), strings.Join(fns, ", "), d[1]))
	}
	var gs []*group
	for _, g := range groups {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool {
		if a, b := gs[i].tuning+gs[i].heldOut, gs[j].tuning+gs[j].heldOut; a != b {
			return a > b
		}
		return gs[i].name < gs[j].name
	})
	for _, g := range gs {
		desc := notes.classes[g.name]
		name := g.name
		if name == "" {
			name, desc = "not diagnosed", "misses with no line in diagnoses.tsv at this commit (the numbers only)"
		}
		fmt.Fprintf(w, "**%s** — %d (tuning %d, held-out %d): %s\n\n", name, g.tuning+g.heldOut, g.tuning, g.heldOut, desc)
		for _, l := range g.lines {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintln(w)
	}
}
