// Command redactbench measures redaction's false positives on a large tree of
// ordinary code (Go's own source tree by default): it redacts every text file
// the way fixplan redacts a file before the model sees it (redact.Find with the
// file's path) and reports redactions per 10,000 files, split into test fixtures
// (_test.go files and testdata/ folders, where fake keys are real findings) and
// other files, the rules that fired most, and a few examples of each.
//
// Usage: go run ./bench/redact [-tree DIR] [-md] [-examples N] [-dump RULE|all] [-nopath]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fixplan/projfs"
	"fixplan/redact"
)

type example struct{ where, line string }

type ruleStat struct {
	name            string
	fixture, others int
	examples        []example
}

func main() {
	tree := flag.String("tree", "", "tree to scan (default: $(go env GOROOT)/src)")
	md := flag.Bool("md", false, "print Markdown tables")
	nEx := flag.Int("examples", 3, "examples per rule (ordinary files first)")
	dump := flag.String("dump", "", "print every finding of this rule (\"all\" for every rule)")
	noPath := flag.Bool("nopath", false, "redact without the file's path (as a pasted problem or a log is)")
	flag.Parse()
	if *tree == "" {
		*tree = filepath.Join(goroot(), "src")
	}
	var (
		files, fixtureFiles, bytesRead   int
		hitFiles, hitFixtureFiles        int
		total, fixtureTotal              int
		stats                            = map[string]*ruleStat{}
		maxBytes                         = int64(projfs.DefaultMaxFileBytes)
		elapsed                          time.Duration
		skippedBinary, skippedBig, walkN int
	)
	err := filepath.WalkDir(*tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		walkN++
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if int64(len(data)) > maxBytes {
			skippedBig++
			return nil
		}
		if projfs.IsBinary(data) {
			skippedBinary++
			return nil
		}
		rel, _ := filepath.Rel(*tree, p)
		rel = filepath.ToSlash(rel)
		fixture := strings.HasSuffix(rel, "_test.go") || strings.Contains("/"+rel, "/testdata/")
		files++
		bytesRead += len(data)
		if fixture {
			fixtureFiles++
		}
		text := string(data)
		start := time.Now()
		path := rel
		if *noPath {
			path = ""
		}
		found := redact.Find(path, text)
		elapsed += time.Since(start)
		if len(found) == 0 {
			return nil
		}
		hitFiles++
		total += len(found)
		if fixture {
			hitFixtureFiles++
			fixtureTotal += len(found)
		}
		for _, f := range found {
			if *dump == "all" || *dump == f.Rule {
				fmt.Printf("%s %s:%d: %s\n", f.Rule, rel, 1+strings.Count(text[:f.Start], "\n"), showLine(text, f))
			}
			st := stats[f.Rule]
			if st == nil {
				st = &ruleStat{name: f.Rule}
				stats[f.Rule] = st
			}
			if fixture {
				st.fixture++
			} else {
				st.others++
			}
			if len(st.examples) < *nEx || (!fixture && st.others <= *nEx) {
				ex := example{where: fmt.Sprintf("%s:%d", rel, 1+strings.Count(text[:f.Start], "\n")), line: showLine(text, f)}
				if !fixture && len(st.examples) >= *nEx { // ordinary files first
					for i := range st.examples {
						if strings.HasSuffix(strings.SplitN(st.examples[i].where, ":", 2)[0], "_test.go") || strings.Contains(st.examples[i].where, "testdata/") {
							st.examples[i] = ex
							break
						}
					}
				} else if len(st.examples) < *nEx {
					st.examples = append(st.examples, ex)
				}
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	others := files - fixtureFiles
	per10k := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", float64(n)*10000/float64(of))
	}
	list := make([]*ruleStat, 0, len(stats))
	for _, s := range stats {
		list = append(list, s)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.others+a.fixture != b.others+b.fixture {
			return a.others+a.fixture > b.others+b.fixture
		}
		return a.name < b.name
	})
	mbps := float64(bytesRead) / 1e6 / elapsed.Seconds()
	if *md {
		fmt.Printf("Tree: `%s` — %d text files redacted (%d test fixtures, %d other), %.1f MB; skipped %d binary and %d files over %d bytes.\n\n",
			*tree, files, fixtureFiles, others, float64(bytesRead)/1e6, skippedBinary, skippedBig, maxBytes)
		fmt.Printf("Redaction time (one goroutine, rule set compiled on first use): %.2f s, %.1f MB/s.\n\n", elapsed.Seconds(), mbps)
		fmt.Println("| | files | files with a redaction | redactions | redactions per 10k files |")
		fmt.Println("|---|---:|---:|---:|---:|")
		fmt.Printf("| all | %d | %d | %d | %s |\n", files, hitFiles, total, per10k(total, files))
		fmt.Printf("| test fixtures (`_test.go`, `testdata/`) | %d | %d | %d | %s |\n", fixtureFiles, hitFixtureFiles, fixtureTotal, per10k(fixtureTotal, fixtureFiles))
		fmt.Printf("| other files | %d | %d | %d | %s |\n\n", others, hitFiles-hitFixtureFiles, total-fixtureTotal, per10k(total-fixtureTotal, others))
		fmt.Println("| rule | in test fixtures | in other files |")
		fmt.Println("|---|---:|---:|")
		for _, s := range list {
			fmt.Printf("| %s | %d | %d |\n", s.name, s.fixture, s.others)
		}
		if *nEx == 0 {
			return
		}
		fmt.Println("\nExamples (the redacted value between « »):")
		for _, s := range list {
			fmt.Printf("\n- **%s**\n", s.name)
			for _, e := range s.examples {
				fmt.Printf("  - `%s`: `%s`\n", e.where, strings.ReplaceAll(e.line, "`", "'"))
			}
		}
		return
	}
	fmt.Printf("tree %s: %d text files (%d fixtures), %.1f MB, %.2fs redacting (%.1f MB/s)\n", *tree, files, fixtureFiles, float64(bytesRead)/1e6, elapsed.Seconds(), mbps)
	fmt.Printf("redactions: %d in %d files = %s per 10k files; fixtures %d = %s per 10k fixtures; other %d = %s per 10k other files\n",
		total, hitFiles, per10k(total, files), fixtureTotal, per10k(fixtureTotal, fixtureFiles), total-fixtureTotal, per10k(total-fixtureTotal, others))
	for _, s := range list {
		fmt.Printf("%-28s fixtures %5d  other %5d\n", s.name, s.fixture, s.others)
		for _, e := range s.examples {
			fmt.Printf("    %s: %s\n", e.where, e.line)
		}
	}
}

// showLine is the (first) line of a finding with the value between « », cut to
// 160 bytes around it.
func showLine(text string, f redact.Finding) string {
	ls := strings.LastIndexByte(text[:f.Start], '\n') + 1
	le := strings.IndexByte(text[f.Start:], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += f.Start
	}
	end := min(f.End, le)
	s := text[ls:f.Start] + "«" + text[f.Start:end] + "»" + text[end:le]
	s = strings.TrimSpace(s)
	if len(s) > 160 {
		i := strings.Index(s, "«")
		from := max(0, i-60)
		s = "…" + s[from:min(len(s), from+160)] + "…"
	}
	return string(bytes.ToValidUTF8([]byte(s), []byte("?")))
}

func goroot() string {
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	out, err := execGo("env", "GOROOT")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot find GOROOT:", err)
		os.Exit(1)
	}
	return out
}

func execGo(args ...string) (string, error) {
	out, err := exec.Command("go", args...).Output()
	return strings.TrimSpace(string(out)), err
}
