// Command srbench measures how model-style search/replace edits (EDIT_FILE)
// apply with fixplan. Cases are real: every changed source file between two
// releases of Go modules (through the module proxy) and of npm packages
// (through `npm pack`), each turned into one EDIT_FILE action whose pairs are
// the hunks of `git diff` (the old lines are the search, the new lines the
// replacement). Each case is also damaged the way models damage such edits:
// indentation drift, tabs as spaces, trailing whitespace, curly quotes, lost
// blank lines, pairs out of order, a CRLF file, minimal context, and a search
// that matches twice. A case is "applied correctly" when the bytes fixplan
// would write equal the newer release byte for byte, "refused" when fixplan
// refuses the edit (nothing is written), and "wrongly applied" otherwise.
//
// The edits go through apply.Engine.Changes — the previewed bytes that Apply
// writes (it recomputes them and refuses when they differ).
//
// Usage: go run ./bench/searchreplace [-md]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"fixplan/apply"
	"fixplan/bench/internal/releases"
	"fixplan/plan"
)

// pair is one search/replace pair with, for each replacement line, whether it
// is a line the model kept from the file (context) or one it added.
type pair struct {
	search []string
	repl   []string
	kept   []bool
	start  int // the hunk's old start line, for the unified-diff form
	// For the envelope form, as Codex-trained models write it: the hunk's
	// section heading from git (the enclosing function's line) as the @@ anchor,
	// and whether the hunk ends the file (*** End of File).
	heading string
	eof     bool
}

type fileCase struct {
	lang     string // "Go", "JS/TS" or "Python"
	name     string
	rel      string
	old, new []byte
	pairs    []pair // from git diff -U3
	minimal  []pair // from git diff -U1
}

type damage struct {
	name string
	// fn returns the file on disk, the pairs, and the expected bytes (nil: the
	// edit must be refused).
	fn func(c fileCase) (before []byte, pairs []pair, want []byte)
}

func mapPairs(ps []pair, f func(p pair) pair) []pair {
	out := make([]pair, len(ps))
	for i, p := range ps {
		out[i] = f(pair{search: append([]string{}, p.search...), repl: append([]string{}, p.repl...), kept: append([]bool{}, p.kept...), start: p.start, heading: p.heading, eof: p.eof})
	}
	return out
}

// onCopied changes the lines the model copied from the file: the search and the
// kept lines of the replacement.
func onCopied(ps []pair, f func(string) string) []pair {
	return mapPairs(ps, func(p pair) pair {
		for i := range p.search {
			p.search[i] = f(p.search[i])
		}
		for i := range p.repl {
			if p.kept[i] {
				p.repl[i] = f(p.repl[i])
			}
		}
		return p
	})
}

func onAll(ps []pair, f func(string) string) []pair {
	return mapPairs(ps, func(p pair) pair {
		for i := range p.search {
			p.search[i] = f(p.search[i])
		}
		for i := range p.repl {
			p.repl[i] = f(p.repl[i])
		}
		return p
	})
}

func commonIndent(ls []string) string {
	ind, first := "", true
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ws := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			ind, first = ws, false
			continue
		}
		for !strings.HasPrefix(ws, ind) {
			ind = ind[:len(ind)-1]
		}
	}
	return ind
}

var damages = []damage{
	{"clean (3 context lines)", func(c fileCase) ([]byte, []pair, []byte) { return c.old, c.pairs, c.new }},
	{"minimal context (1 line)", func(c fileCase) ([]byte, []pair, []byte) { return c.old, c.minimal, c.new }},
	{"indentation drift (pair dedented by its common indentation, or indented 4)", func(c fileCase) ([]byte, []pair, []byte) {
		return c.old, mapPairs(c.pairs, func(p pair) pair {
			ind := commonIndent(append(append([]string{}, p.search...), p.repl...))
			for _, ls := range [][]string{p.search, p.repl} {
				for i, l := range ls {
					switch {
					case strings.TrimSpace(l) == "":
					case ind != "" && strings.HasPrefix(l, ind):
						ls[i] = l[len(ind):]
					case ind == "":
						ls[i] = "    " + l
					}
				}
			}
			return p
		}), c.new
	}},
	{"tabs written as 4 spaces", func(c fileCase) ([]byte, []pair, []byte) {
		return c.old, onAll(c.pairs, func(l string) string {
			ws := l[:len(l)-len(strings.TrimLeft(l, "\t"))]
			return strings.Repeat("    ", len(ws)) + l[len(ws):]
		}), c.new
	}},
	{"trailing whitespace on copied lines", func(c fileCase) ([]byte, []pair, []byte) {
		return c.old, onCopied(c.pairs, func(l string) string {
			if strings.TrimSpace(l) == "" {
				return l
			}
			return l + "  "
		}), c.new
	}},
	{"curly quotes and long dashes", func(c fileCase) ([]byte, []pair, []byte) {
		return c.old, onAll(c.pairs, func(l string) string {
			var b strings.Builder
			open := true
			for _, r := range l {
				switch r {
				case '"':
					if open {
						b.WriteString("\u201c")
					} else {
						b.WriteString("\u201d")
					}
					open = !open
				case '\'':
					b.WriteString("\u2019")
				default:
					b.WriteRune(r)
				}
			}
			return strings.ReplaceAll(b.String(), " -- ", " \u2014 ")
		}), c.new
	}},
	{"lost blank lines in copied text", func(c fileCase) ([]byte, []pair, []byte) {
		return c.old, mapPairs(c.pairs, func(p pair) pair {
			var s []string
			for _, l := range p.search {
				if strings.TrimSpace(l) != "" {
					s = append(s, l)
				}
			}
			var r []string
			var k []bool
			for i, l := range p.repl {
				if p.kept[i] && strings.TrimSpace(l) == "" {
					continue
				}
				r, k = append(r, l), append(k, p.kept[i])
			}
			p.search, p.repl, p.kept = s, r, k
			return p
		}), c.new
	}},
	{"pairs in reverse order", func(c fileCase) ([]byte, []pair, []byte) {
		ps := append([]pair{}, c.pairs...)
		for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
			ps[i], ps[j] = ps[j], ps[i]
		}
		return c.old, ps, c.new
	}},
	{"CRLF file, LF edits", func(c fileCase) ([]byte, []pair, []byte) {
		crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
		return crlf(c.old), c.pairs, crlf(c.new)
	}},
	{"a search that matches twice (must be refused)", func(c fileCase) ([]byte, []pair, []byte) {
		dup := strings.Join(c.pairs[0].search, "\n") + "\n"
		return append([]byte(dup), c.old...), c.pairs, nil
	}},
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "srbench:", err)
		os.Exit(1)
	}
}

// hunkPairs turns a git diff of one file into pairs.
func hunkPairs(diff string) []pair {
	var out []pair
	var cur *pair
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			var start int
			fmt.Sscanf(l, "@@ -%d", &start)
			heading := ""
			if parts := strings.SplitN(l, "@@", 3); len(parts) == 3 {
				heading = strings.TrimSpace(parts[2])
			}
			out = append(out, pair{start: start, heading: heading})
			cur = &out[len(out)-1]
		case cur == nil || l == "" || strings.HasPrefix(l, `\`):
		case l[0] == ' ':
			cur.search = append(cur.search, l[1:])
			cur.repl, cur.kept = append(cur.repl, l[1:]), append(cur.kept, true)
		case l[0] == '-':
			cur.search = append(cur.search, l[1:])
		case l[0] == '+':
			cur.repl, cur.kept = append(cur.repl, l[1:]), append(cur.kept, false)
		}
	}
	return out
}

func gitDiff(oldB, newB []byte, rel string, context int) string {
	tmp, _ := os.MkdirTemp("", "srbench-")
	defer os.RemoveAll(tmp)
	for side, b := range map[string][]byte{"a": oldB, "b": newB} {
		p := filepath.Join(tmp, side, rel)
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		must(os.WriteFile(p, b, 0o644))
	}
	cmd := exec.Command("git", "diff", "--no-index", "--no-prefix", fmt.Sprintf("-U%d", context), "a/"+rel, "b/"+rel)
	cmd.Dir = tmp
	out, err := cmd.Output() // exit status 1 means "files differ"
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		must(fmt.Errorf("git diff: %w (install git)", err))
	}
	return string(out)
}

// langOf names the language of a source file ("" for other files).
func langOf(p string) string {
	switch filepath.Ext(p) {
	case ".go":
		return "Go"
	case ".js", ".mjs", ".cjs", ".ts":
		return "JS/TS"
	case ".py":
		return "Python"
	}
	return ""
}

var langs = []string{"Go", "JS/TS", "Python"}

func collect(label, oldDir, newDir string, out *[]fileCase) {
	err := filepath.WalkDir(oldDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		lang := langOf(p)
		if lang == "" {
			return nil
		}
		rel, _ := filepath.Rel(oldDir, p)
		oldB, _ := os.ReadFile(p)
		newB, err := os.ReadFile(filepath.Join(newDir, rel))
		// Left out: files that did not change or went away, CR bytes, and a final
		// newline added or removed (an edit keeps the file's final newline).
		if err != nil || bytes.Equal(oldB, newB) || bytes.Contains(oldB, []byte("\r")) || bytes.Contains(newB, []byte("\r")) ||
			bytes.HasSuffix(oldB, []byte("\n")) != bytes.HasSuffix(newB, []byte("\n")) {
			return nil
		}
		rel = filepath.ToSlash(rel)
		c := fileCase{lang: lang, name: label + "/" + rel, rel: rel, old: oldB, new: newB,
			pairs: hunkPairs(gitDiff(oldB, newB, rel, 3)), minimal: hunkPairs(gitDiff(oldB, newB, rel, 1))}
		oldLines := bytes.Count(oldB, []byte("\n"))
		for _, ps := range [][]pair{c.pairs, c.minimal} {
			for i, pr := range ps {
				if len(pr.search) == 0 {
					return nil // a pure insertion has nothing to search for
				}
				ps[i].eof = pr.start-1+len(pr.search) == oldLines
			}
		}
		if len(c.pairs) > 0 {
			*out = append(*out, c)
		}
		return nil
	})
	must(err)
}

func cases() []fileCase {
	var out []fileCase
	for _, m := range releases.Pairs {
		o, err := releases.Dir(m[0])
		must(err)
		n, err := releases.Dir(m[1])
		must(err)
		collect(m[1], o, n, &out)
	}
	for _, m := range releases.NpmPairs {
		o, err := releases.NpmDir(m[0])
		must(err)
		n, err := releases.NpmDir(m[1])
		must(err)
		collect(m[1], o, n, &out)
	}
	return out
}

func toEdits(ps []pair) []plan.Edit {
	out := make([]plan.Edit, len(ps))
	for i, p := range ps {
		out[i] = plan.Edit{Search: strings.Join(p.search, "\n") + "\n", Replace: ""}
		if len(p.repl) > 0 {
			out[i].Replace = strings.Join(p.repl, "\n") + "\n"
		}
	}
	return out
}

type score struct{ ok, refused, wrong, total int }

// toEnvelope writes the pairs as the *** Begin Patch envelope Codex-trained
// models emit: one chunk per pair, its lines marked kept, removed or added by a
// line diff of search and replacement.
func toEnvelope(rel string, ps []pair) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n*** Update File: " + rel + "\n")
	for _, p := range ps {
		b.WriteString(strings.TrimSpace("@@ "+p.heading) + "\n")
		for _, op := range lcsOps(p.search, p.repl) {
			b.WriteString(op)
			b.WriteByte('\n')
		}
		if p.eof {
			b.WriteString("*** End of File\n")
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// toUnifiedDiff writes the pairs as a unified diff with each hunk's old start
// line (the new start is recomputed by fixplan's cleaner).
func toUnifiedDiff(rel string, ps []pair) string {
	var b strings.Builder
	b.WriteString("--- a/" + rel + "\n+++ b/" + rel + "\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", p.start, len(p.search), p.start, len(p.repl))
		for _, op := range lcsOps(p.search, p.repl) {
			b.WriteString(op)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// lcsOps is a longest-common-subsequence line diff as " kept", "-removed", "+added".
func lcsOps(a, b []string) []string {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, " "+a[i])
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || t[i+1][j] >= t[i][j+1]):
			out = append(out, "-"+a[i])
			i++
		default:
			out = append(out, "+"+b[j])
			j++
		}
	}
	return out
}

// run applies one case in a fresh project and scores it.
func run(c fileCase, d damage, key []byte, s *score, verbose bool, format string) {
	before, ps, want := d.fn(c)
	dir, err := os.MkdirTemp("", "srbench-case-")
	must(err)
	defer os.RemoveAll(dir)
	target := filepath.Join(dir, filepath.FromSlash(c.rel))
	must(os.MkdirAll(filepath.Dir(target), 0o755))
	must(os.WriteFile(target, before, 0o644))
	e, err := apply.Open(dir, apply.Options{Key: key})
	must(err)
	p := plan.Plan{ProposedChanges: &plan.ProposedChanges{Actions: []plan.Action{{Kind: plan.EditFile, Path: c.rel, Edits: toEdits(ps)}}}}
	switch format {
	case "envelope":
		env := toEnvelope(c.rel, ps)
		p = plan.Plan{Patch: &env}
	case "udiff":
		d := toUnifiedDiff(c.rel, ps)
		p = plan.Plan{Patch: &d}
	}
	if want == nil && format != "edit" {
		// Hunks carry line numbers and chunks their @@ anchor (the enclosing
		// function) or *** End of File, so the copy put on top need not make them
		// ambiguous: the right result is the copy plus the newer release.
		want = append(before[:len(before)-len(c.old):len(before)-len(c.old)], c.new...)
	}
	cs, err := e.Changes(&p)
	s.total++
	var got []byte
	switch {
	case err != nil:
		s.refused++
		if verbose && want != nil {
			fmt.Fprintf(os.Stderr, "refused  %-28s %s:\n%s\n", d.name, c.name, err)
		}
		return
	case len(cs) == 0:
		got = before
	default:
		got = cs[0].After
	}
	if want != nil && bytes.Equal(got, want) {
		s.ok++
		return
	}
	s.wrong++
	fmt.Fprintf(os.Stderr, "WRONG    %-28s %s\n", d.name, c.name)
	if dump := os.Getenv("SRBENCH_DUMP"); dump != "" {
		base := filepath.Join(dump, strings.NewReplacer("/", "_", " ", "_").Replace(d.name+"-"+c.name))
		os.WriteFile(base+".got", got, 0o644)
		os.WriteFile(base+".want", want, 0o644)
	}
}

func main() {
	md := flag.Bool("md", false, "print Markdown tables")
	verbose := flag.Bool("v", false, "list refused cases on stderr")
	format := flag.String("format", "edit", "how each case is sent: edit (an EDIT_FILE action), envelope (a *** Begin Patch envelope in the patch field) or udiff (a unified diff with the hunks' line numbers)")
	flag.Parse()
	key := bytes.Repeat([]byte{7}, 32)
	cs := cases()
	files := map[string]int{}
	pairsN := map[string]int{}
	for _, c := range cs {
		files[c.lang]++
		pairsN[c.lang] += len(c.pairs)
	}
	res := map[string]map[string]*score{}
	for _, d := range damages {
		res[d.name] = map[string]*score{}
		for _, l := range langs {
			res[d.name][l] = &score{}
		}
		for _, c := range cs {
			run(c, d, key, res[d.name][c.lang], *verbose, *format)
		}
	}
	cell := func(s *score) string { return fmt.Sprintf("%d / %d / %d", s.ok, s.refused, s.wrong) }
	if *md {
		fmt.Print("| damage |")
		for _, l := range langs {
			fmt.Printf(" %s (%d files, %d pairs) |", l, files[l], pairsN[l])
		}
		fmt.Printf(" all: applied correctly | refused | wrongly applied |\n|---|%s---:|---:|---:|\n", strings.Repeat("---:|", len(langs)))
	}
	var tot, totRefuse score
	for _, d := range damages {
		var all score
		for _, l := range langs {
			s := res[d.name][l]
			all.ok, all.refused, all.wrong, all.total = all.ok+s.ok, all.refused+s.refused, all.wrong+s.wrong, all.total+s.total
		}
		t := &tot
		if strings.Contains(d.name, "must be refused") && *format == "edit" {
			t = &totRefuse
		}
		t.ok, t.refused, t.wrong, t.total = t.ok+all.ok, t.refused+all.refused, t.wrong+all.wrong, t.total+all.total
		var cells []string
		for _, l := range langs {
			cells = append(cells, cell(res[d.name][l]))
		}
		if *md {
			fmt.Printf("| %s | %s | %d/%d | %d | %d |\n", d.name, strings.Join(cells, " | "), all.ok, all.total, all.refused, all.wrong)
		} else {
			fmt.Printf("%-48s %s\n", d.name, strings.Join(cells, "   "))
		}
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	if *md {
		blank := strings.Repeat(" |", len(langs))
		fmt.Printf("| **all edits** |%s %d/%d (%.0f%%) | %d | %d |\n", blank, tot.ok, tot.total, pct(tot.ok, tot.total), tot.refused, tot.wrong)
		if *format == "edit" {
			fmt.Printf("| **ambiguous searches** |%s — | %d/%d | %d |\n", blank, totRefuse.refused, totRefuse.total, totRefuse.wrong)
		}
	} else {
		fmt.Printf("all edits: %d/%d applied correctly (%.0f%%), %d refused, %d wrongly applied; ambiguous: %d/%d refused, %d wrongly applied\n",
			tot.ok, tot.total, pct(tot.ok, tot.total), tot.refused, tot.wrong, totRefuse.refused, totRefuse.total, totRefuse.wrong)
	}
	if *format == "udiff" {
		return // a measurement of the unified-diff path, not a test of the edit path
	}
	if tot.wrong+totRefuse.wrong > 0 {
		os.Exit(3)
	}
}
