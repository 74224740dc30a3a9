// Command patchbench measures how often model-style unified diffs apply
// correctly with fixplan, `git apply` and GNU `patch`, in one run on the same
// cases. Cases are real per-file diffs between two releases of Go modules
// (fetched through the module proxy), each also damaged the way model-written
// patches are: shifted files, wrong hunk counts, bare paths, code fences, CRLF
// files, trailing whitespace or re-indented context, lost blank context lines.
// A case counts as correct only when the file ends byte-identical to the
// expected result; "wrong" counts a tool that reported success but wrote other
// bytes. Usage: go run ./bench/patch -fixplan build/bin/fixplan-cli [-md]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"fixplan/bench/internal/releases"
)

type fileCase struct {
	name     string // module@version/path, for people
	rel      string // path inside the module
	old, new []byte
	diff     string // git diff with a/ b/ paths
}

// damage turns a clean case into (patch, file on disk before, expected after).
type damage struct {
	name string
	fn   func(c fileCase) (patch string, before, want []byte)
}

var hunkHeader = regexp.MustCompile(`(?m)^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@`)

func mapHunkLines(diff string, f func(prefix byte, text string) string) string {
	lines := strings.Split(diff, "\n")
	in := false
	for i, l := range lines {
		if strings.HasPrefix(l, "@@") {
			in = true
			continue
		}
		if !in || l == "" || strings.HasPrefix(l, "diff --git") {
			continue
		}
		if l[0] == ' ' || l[0] == '-' || l[0] == '+' {
			lines[i] = f(l[0], l[1:])
		}
	}
	return strings.Join(lines, "\n")
}

var damages = []damage{
	{"clean", func(c fileCase) (string, []byte, []byte) { return c.diff, c.old, c.new }},
	{"file shifted 5 lines", func(c fileCase) (string, []byte, []byte) {
		top := []byte("// 1\n// 2\n// 3\n// 4\n// 5\n")
		return c.diff, append(append([]byte{}, top...), c.old...), append(append([]byte{}, top...), c.new...)
	}},
	{"wrong hunk counts", func(c fileCase) (string, []byte, []byte) {
		return hunkHeader.ReplaceAllString(c.diff, "@@ -$1,99 +$2,99 @@"), c.old, c.new
	}},
	{"bare paths, no git header", func(c fileCase) (string, []byte, []byte) {
		var out []string
		for _, l := range strings.Split(c.diff, "\n") {
			switch {
			case strings.HasPrefix(l, "diff --git"), strings.HasPrefix(l, "index "):
				continue
			case strings.HasPrefix(l, "--- a/"):
				l = "--- " + l[6:]
			case strings.HasPrefix(l, "+++ b/"):
				l = "+++ " + l[6:]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n"), c.old, c.new
	}},
	{"in a code fence with prose", func(c fileCase) (string, []byte, []byte) {
		return "Here is the fix:\n\n```diff\n" + c.diff + "```\n\nThis should work.\n", c.old, c.new
	}},
	{"CRLF file, LF patch", func(c fileCase) (string, []byte, []byte) {
		crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
		return c.diff, crlf(c.old), crlf(c.new)
	}},
	{"trailing spaces on context", func(c fileCase) (string, []byte, []byte) {
		return mapHunkLines(c.diff, func(p byte, t string) string {
			if p == ' ' || p == '-' {
				if strings.TrimSpace(t) != "" {
					t += "  "
				}
			}
			return string(p) + t
		}), c.old, c.new
	}},
	{"context re-indented with spaces", func(c fileCase) (string, []byte, []byte) {
		return mapHunkLines(c.diff, func(p byte, t string) string {
			if p == ' ' || p == '-' {
				t = strings.ReplaceAll(t, "\t", "    ")
			}
			return string(p) + t
		}), c.old, c.new
	}},
	{"blank context lines lost their space", func(c fileCase) (string, []byte, []byte) {
		return mapHunkLines(c.diff, func(p byte, t string) string {
			if p == ' ' && t == "" {
				return ""
			}
			return string(p) + t
		}), c.old, c.new
	}},
}

type tool struct {
	name string
	run  func(dir, patchFile string) error
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "patchbench:", err)
		os.Exit(1)
	}
}

func moduleDir(mod string) string {
	dir, err := releases.Dir(mod)
	must(err)
	return dir
}

func cases() []fileCase {
	var out []fileCase
	for _, m := range releases.Pairs {
		oldDir, newDir := moduleDir(m[0]), moduleDir(m[1])
		err := filepath.WalkDir(oldDir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			rel, _ := filepath.Rel(oldDir, p)
			oldB, _ := os.ReadFile(p)
			newB, err := os.ReadFile(filepath.Join(newDir, rel))
			if err != nil || bytes.Equal(oldB, newB) || bytes.Contains(oldB, []byte("\r")) {
				return nil
			}
			tmp, _ := os.MkdirTemp("", "patchbench-")
			defer os.RemoveAll(tmp)
			os.MkdirAll(filepath.Join(tmp, "a", filepath.Dir(rel)), 0o755)
			os.MkdirAll(filepath.Join(tmp, "b", filepath.Dir(rel)), 0o755)
			os.WriteFile(filepath.Join(tmp, "a", rel), oldB, 0o644)
			os.WriteFile(filepath.Join(tmp, "b", rel), newB, 0o644)
			cmd := exec.Command("git", "diff", "--no-index", "--no-prefix", "a/"+rel, "b/"+rel)
			cmd.Dir = tmp
			d2, _ := cmd.Output() // exit status 1 means "files differ"
			diff := string(d2)
			if !strings.Contains(diff, "@@") {
				return nil
			}
			out = append(out, fileCase{name: m[1] + "/" + filepath.ToSlash(rel), rel: filepath.ToSlash(rel), old: oldB, new: newB, diff: diff})
			return nil
		})
		must(err)
	}
	return out
}

func main() {
	fixplan := flag.String("fixplan", "build/bin/fixplan-cli", "the fixplan CLI binary")
	md := flag.Bool("md", false, "print a Markdown table")
	flag.Parse()
	abs, err := filepath.Abs(*fixplan)
	must(err)
	tools := []tool{
		{"fixplan patch", func(dir, pf string) error {
			return exec.Command(abs, "--root", dir, "patch", "--file", pf).Run()
		}},
		{"git apply", func(dir, pf string) error {
			c := exec.Command("git", "apply", pf)
			c.Dir = dir
			return c.Run()
		}},
		{"GNU patch -p1", func(dir, pf string) error {
			c := exec.Command("patch", "-p1", "--batch", "--no-backup-if-mismatch", "-r", "-", "-i", pf)
			c.Dir = dir
			return c.Run()
		}},
	}
	cs := cases()
	type score struct{ ok, wrong, total int }
	results := map[string]map[string]*score{}
	for _, d := range damages {
		results[d.name] = map[string]*score{}
		for _, t := range tools {
			results[d.name][t.name] = &score{}
		}
		for _, c := range cs {
			patch, before, want := d.fn(c)
			relPath := c.rel
			for _, t := range tools {
				dir, _ := os.MkdirTemp("", "patchbench-case-")
				target := filepath.Join(dir, filepath.FromSlash(relPath))
				os.MkdirAll(filepath.Dir(target), 0o755)
				os.WriteFile(target, before, 0o644)
				pf := filepath.Join(dir, "..", filepath.Base(dir)+".patch")
				os.WriteFile(pf, []byte(patch), 0o644)
				err := t.run(dir, pf)
				got, _ := os.ReadFile(target)
				s := results[d.name][t.name]
				s.total++
				switch {
				case err == nil && bytes.Equal(got, want):
					s.ok++
				case err == nil && !bytes.Equal(got, before):
					s.wrong++
				}
				os.RemoveAll(dir)
				os.Remove(pf)
			}
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.name
	}
	totals := map[string]*score{}
	for _, n := range names {
		totals[n] = &score{}
	}
	if *md {
		fmt.Printf("| damage (%d file diffs each) | %s |\n|---|%s\n", len(cs), strings.Join(names, " | "), strings.Repeat("---:|", len(names)))
	}
	for _, d := range damages {
		var cells []string
		for _, n := range names {
			s := results[d.name][n]
			totals[n].ok += s.ok
			totals[n].wrong += s.wrong
			totals[n].total += s.total
			cell := fmt.Sprintf("%d/%d", s.ok, s.total)
			if s.wrong > 0 {
				cell += fmt.Sprintf(" (%d wrong)", s.wrong)
			}
			cells = append(cells, cell)
		}
		if *md {
			fmt.Printf("| %s | %s |\n", d.name, strings.Join(cells, " | "))
		} else {
			fmt.Printf("%-38s %s\n", d.name, strings.Join(cells, "   "))
		}
	}
	var cells []string
	for _, n := range names {
		s := totals[n]
		cell := fmt.Sprintf("%d/%d (%.0f%%)", s.ok, s.total, 100*float64(s.ok)/float64(s.total))
		if s.wrong > 0 {
			cell += fmt.Sprintf(", %d wrong", s.wrong)
		}
		cells = append(cells, cell)
	}
	if *md {
		fmt.Printf("| **all** | %s |\n", strings.Join(cells, " | "))
	} else {
		fmt.Printf("%-38s %s\n", "all", strings.Join(cells, "   "))
	}
}
