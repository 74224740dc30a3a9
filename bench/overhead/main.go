// Command overhead measures fixplan's own overhead side by side with the floor
// it is compared to, in one run, as the median of several repetitions:
//
//   - process start: an empty Go program, `fixplan --version`, and `fixplan plan`
//     with an instant scripted model (the fake provider) making a plan with two
//     context rounds on a copy of a real Go module;
//   - applying a real release diff (the module pairs the patch benchmark uses, and
//     cobra v1.7.0 → v1.8.0): `git apply`, `git apply` followed by fsyncs of every
//     touched file and folder (fsynchelper, the durability fixplan gives), and
//     `fixplan patch`; each result is checked byte for byte against the newer release.
//
// Usage: go run ./bench/overhead -fixplan BIN -fsynchelper BIN -fakeprovider BIN [-n 7] [-md]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"fixplan/bench/internal/proc"
	"fixplan/bench/internal/releases"
)

// planModule is the real module the plan overhead is measured on, and cobra is
// also the largest release diff (the 47-file apply profiled in issue 13).
const planModule = "github.com/spf13/cobra@v1.8.0"

var extraPairs = [][2]string{{"github.com/spf13/cobra@v1.7.0", planModule}}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "overhead:", err)
		os.Exit(1)
	}
}

// timeIt runs f n times and returns the durations, sorted.
func timeIt(n int, f func(i int) error) ([]time.Duration, error) {
	var ds []time.Duration
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if err := f(i); err != nil {
			return nil, err
		}
		ds = append(ds, time.Since(t0))
	}
	sortDs(ds)
	return ds, nil
}

func sortDs(ds []time.Duration) { sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] }) }

// fsyncs counts the fsync and fdatasync calls of a command line run through
// strace; "n/a" when strace is not installed.
func fsyncs(dir string, env []string, argv ...string) string {
	if _, err := exec.LookPath("strace"); err != nil {
		return "n/a"
	}
	out := filepath.Join(os.TempDir(), fmt.Sprintf("overhead-strace-%d", os.Getpid()))
	defer os.Remove(out)
	args := append([]string{"-f", "-c", "-e", "trace=fsync,fdatasync", "-o", out}, argv...)
	if err := proc.Run(dir, env, "strace", args...); err != nil {
		return "n/a"
	}
	b, _ := os.ReadFile(out)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && (f[len(f)-1] == "fsync" || f[len(f)-1] == "fdatasync") {
			c, _ := strconv.Atoi(f[3])
			n += c
		}
	}
	return strconv.Itoa(n)
}

// sameTree reports the first difference between got (ignoring .fixplan and .git)
// and want, "" when they hold the same files with the same bytes.
func sameTree(got, want string) string {
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == ".fixplan" || d.Name() == ".git") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				rel, _ := filepath.Rel(root, p)
				m[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		return m
	}
	g, w := files(got), files(want)
	for p, b := range w {
		if gb, ok := g[p]; !ok || !bytes.Equal(gb, b) {
			return p
		}
	}
	for p := range g {
		if _, ok := w[p]; !ok {
			return p + " (left over)"
		}
	}
	return ""
}

// emptyProgram builds a Go program that does nothing, the floor of process start.
func emptyProgram(dir string) string {
	src := filepath.Join(dir, "empty")
	must(os.MkdirAll(src, 0o755))
	must(os.WriteFile(filepath.Join(src, "go.mod"), []byte("module empty\n\ngo 1.22\n"), 0o644))
	must(os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	bin := filepath.Join(dir, "empty-bin")
	must(proc.Run(src, []string{"GOFLAGS=", "GOWORK=off"}, "go", "build", "-o", bin, "."))
	return bin
}

type row struct {
	name   string
	ds     []time.Duration
	fsyncs string
}

func (r row) cells() string {
	return fmt.Sprintf("%s | %s–%s", proc.Ms(proc.Times(r.ds).Median()), proc.Ms(r.ds[0]), proc.Ms(r.ds[len(r.ds)-1]))
}

// planReplies are one plan with two context rounds: read a window of command.go,
// search for ExecuteC, then a one-line patch.
func planReplies(runs int) []map[string]string {
	read := `{"mode":"fix-plan","summary":"need more","questions":[],"context_requests":[{"type":"read_file","path":"command.go","start_line":900,"end_line":1100,"query":null,"glob":null,"source":null,"last_n":null}],"plan":[],"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	search := `{"mode":"fix-plan","summary":"need more","questions":[],"context_requests":[{"type":"search","path":null,"start_line":null,"end_line":null,"query":"func (c *Command) ExecuteC","glob":"*.go","source":null,"last_n":null}],"plan":[],"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	final := `{"mode":"fix-plan","summary":"fix","questions":[],"context_requests":[],"plan":[{"step":"s","details":"d"}],"proposed_changes":{"patch":"--- a/command.go\n+++ b/command.go\n@@ -1,1 +1,1 @@\n-// Copyright 2013-2023 The Cobra Authors\n+// Copyright 2013-2024 The Cobra Authors\n","actions":[],"commands_to_run":[]},"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	var out []map[string]string
	for i := 0; i < runs; i++ {
		out = append(out, map[string]string{"content": read}, map[string]string{"content": search}, map[string]string{"content": final})
	}
	return out
}

func main() {
	fixplan := flag.String("fixplan", "build/bin/fixplan-cli", "the fixplan CLI binary")
	helper := flag.String("fsynchelper", "", "the fsynchelper binary (bench/overhead/fsynchelper)")
	fake := flag.String("fakeprovider", "", "the fake provider binary (scripts/desktop/fakeprovider)")
	n := flag.Int("n", 7, "repetitions of each measurement (the median is reported)")
	md := flag.Bool("md", false, "print Markdown")
	applyOnly := flag.Bool("apply-only", false, "measure only the release diffs (e.g. a second run with -work on tmpfs)")
	workIn := flag.String("work", "build", "the copies are made in a new folder inside `DIR` (removed at the end); keep it on the disk you care about")
	flag.Parse()
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		must(err)
		return a
	}
	fp, fh, fk := abs(*fixplan), abs(*helper), abs(*fake)
	must(os.MkdirAll(*workIn, 0o755))
	work, err := os.MkdirTemp(*workIn, "overhead-")
	must(err)
	work = abs(work)
	defer os.RemoveAll(work)
	cfg := filepath.Join(work, "config")
	must(os.MkdirAll(cfg, 0o700))
	// GIT_CEILING_DIRECTORIES: the copies may sit inside a git checkout (build/), where
	// git apply would take paths relative to that checkout's root and skip them.
	env := []string{"FIXPLAN_CONFIG_DIR=" + cfg, "FIXPLAN_USER_PREFS=" + filepath.Join(cfg, "preferences.json"), "GIT_CEILING_DIRECTORIES=" + work}

	if !*applyOnly {
		startAndPlan(work, env, fp, fk, *n, *md)
	}
	applies(work, env, fp, fh, *n, *md)
}

// startAndPlan measures process start and the plan overhead and prints them.
func startAndPlan(work string, env []string, fp, fk string, n int, md bool) {
	empty := emptyProgram(work)
	starts := n * 3
	var emptyDs, versionDs []time.Duration
	for i := 0; i < starts; i++ { // taking turns, like the apply runs below
		d, err := timeIt(1, func(int) error { return proc.Run(work, nil, empty) })
		must(err)
		emptyDs = append(emptyDs, d...)
		d, err = timeIt(1, func(int) error { return proc.Run(work, env, fp, "--version") })
		must(err)
		versionDs = append(versionDs, d...)
	}
	sortDs(emptyDs)
	sortDs(versionDs)
	modDir, err := releases.Dir(planModule)
	must(err)
	proj := filepath.Join(work, "plan-project")
	must(releases.CopyTree(modDir, proj))
	replies, _ := json.Marshal(planReplies(n + 1))
	rf := filepath.Join(work, "replies.json")
	must(os.WriteFile(rf, replies, 0o644))
	url, stop, err := proc.StartFake(fk, rf)
	must(err)
	defer func() { must(stop()) }()
	problem := "--- FAIL: TestExecuteC (0.00s)\n    command_test.go:80: wrong output\n" +
		"goroutine 7 [running]:\ngithub.com/spf13/cobra.(*Command).ExecuteC(...)\n\t" + filepath.Join(proj, "command.go") + ":1060 +0x1a\nFAIL\n"
	planEnv := append(env, "FIXPLAN_BASE_URL="+url, "FIXPLAN_MODEL=fake", "FIXPLAN_API_KEY=bench-key")
	planCmd := func(int) error {
		return proc.Run(work, planEnv, fp, "--root", proj, "plan", "--quiet", "--json", "--problem", problem)
	}
	must(planCmd(0)) // fills the per-machine environment cache, as any earlier plan would
	planDs, err := timeIt(n, planCmd)
	must(err)
	if !md {
		fmt.Printf("empty Go program %s\nfixplan --version %s\nfixplan plan %s\n", emptyDs, versionDs, planDs)
		return
	}
	fmt.Printf("### Process start and plan overhead (median of %d runs; min–max)\n\n", starts)
	fmt.Println("| command | median | range |\n|---|---:|---:|")
	fmt.Printf("| empty Go program (the floor of a process start) | %s |\n", row{ds: emptyDs}.cells())
	fmt.Printf("| `fixplan --version` | %s |\n", row{ds: versionDs}.cells())
	fmt.Printf("| `fixplan plan` on %s, instant scripted model, two context rounds (%d runs) | %s |\n", planModule, n, row{ds: planDs}.cells())
	fmt.Printf("\nPlan overhead beyond a process start: %s (median plan − median `--version`).\n\n", proc.Ms(proc.Times(planDs).Median()-proc.Times(versionDs).Median()))
}

// applies measures the release diffs with the three tools and prints the table.
func applies(work string, env []string, fp, fh string, n int, md bool) {
	type applyRow struct {
		name, files        string
		git, gitSync, fixp row
	}
	var applies []applyRow
	for _, pr := range append(append([][2]string{}, releases.Pairs...), extraPairs...) {
		oldDir, err := releases.Dir(pr[0])
		must(err)
		newDir, err := releases.Dir(pr[1])
		must(err)
		diff, files, err := releases.TreeDiff(oldDir, newDir)
		must(err)
		pf := filepath.Join(work, "release.patch")
		must(os.WriteFile(pf, []byte(diff), 0o644))
		copyOld := func(name string) string {
			d := filepath.Join(work, name)
			must(os.RemoveAll(d))
			must(releases.CopyTree(oldDir, d))
			return d
		}
		var dirs [3]string
		tools := []struct {
			argv func(d string) [][]string
		}{
			{func(d string) [][]string { return [][]string{{"git", "apply", pf}} }},
			{func(d string) [][]string { return [][]string{{"git", "apply", pf}, {fh, "-C", d, pf}} }},
			{func(d string) [][]string { return [][]string{{fp, "--root", d, "patch", "--file", pf}} }},
		}
		var rows [3]row
		// Repetitions take turns (tool 1, 2, 3, tool 1, …) so that a change in the
		// machine's load falls on all three; each starts from a fresh copy with
		// nothing left to write back (sync), so no tool pays for the copy's writes.
		for i := 0; i < n; i++ {
			for ti, t := range tools {
				dirs[ti] = copyOld(fmt.Sprintf("apply-%d", ti))
				must(proc.Run(work, nil, "sync"))
				t0 := time.Now()
				for _, a := range t.argv(dirs[ti]) {
					must(proc.Run(dirs[ti], env, a[0], a[1:]...))
				}
				rows[ti].ds = append(rows[ti].ds, time.Since(t0))
			}
		}
		for ti, t := range tools {
			sortDs(rows[ti].ds)
			if d := sameTree(dirs[ti], newDir); d != "" {
				must(fmt.Errorf("%s: %s differs from %s after %v", pr[0], d, pr[1], t.argv(dirs[ti])))
			}
			// Count the fsyncs of one more run (a shell runs the two-command line).
			d := copyOld(fmt.Sprintf("apply-%d", ti))
			var line []string
			for _, a := range t.argv(d) {
				line = append(line, shellQuote(a))
			}
			must(proc.Run(work, nil, "sync"))
			rows[ti].fsyncs = fsyncs(d, env, "sh", "-c", strings.Join(line, " && "))
		}
		applies = append(applies, applyRow{name: strings.Replace(pr[0], "@", " ", 1) + " → " + pr[1][strings.LastIndex(pr[1], "@")+1:], files: strconv.Itoa(files),
			git: rows[0], gitSync: rows[1], fixp: rows[2]})
	}

	if !md {
		for _, a := range applies {
			fmt.Printf("%s (%s files): git apply %s; +fsync %s; fixplan %s\n", a.name, a.files, a.git.ds, a.gitSync.ds, a.fixp.ds)
		}
		return
	}
	fmt.Printf("### Applying a real release diff in %s (median of %d runs taking turns; fsyncs counted with strace)\n\n", fsType(work), n)
	fmt.Println("| release diff | files | `git apply` | `git apply` + fsyncs | `fixplan patch` | fixplan ÷ (git apply + fsyncs) |\n|---|---:|---:|---:|---:|---:|")
	for _, a := range applies {
		fmt.Printf("| %s | %s | %s | %s (%s fsyncs) | %s (%s fsyncs) | %.2f× |\n", a.name, a.files,
			proc.Ms(proc.Times(a.git.ds).Median()), proc.Ms(proc.Times(a.gitSync.ds).Median()), a.gitSync.fsyncs, proc.Ms(proc.Times(a.fixp.ds).Median()), a.fixp.fsyncs,
			float64(proc.Times(a.fixp.ds).Median())/float64(proc.Times(a.gitSync.ds).Median()))
	}
}

// fsType names the filesystem holding dir (from df), "" when unknown.
func fsType(dir string) string {
	out, err := exec.Command("df", "--output=fstype", dir).Output()
	if err != nil {
		return "a folder on an unknown filesystem"
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return "a folder on an unknown filesystem"
	}
	return "a folder on " + f[len(f)-1]
}

var plainArg = regexp.MustCompile(`^[A-Za-z0-9_./=@:+-]+$`)

func shellQuote(a []string) string {
	var out []string
	for _, s := range a {
		if plainArg.MatchString(s) {
			out = append(out, s)
		} else {
			out = append(out, "'"+strings.ReplaceAll(s, "'", `'\''`)+"'")
		}
	}
	return strings.Join(out, " ")
}
