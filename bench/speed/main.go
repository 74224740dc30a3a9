// Command speed measures what fixplan costs on trees of every size, side by
// side in one run (medians of several runs taking turns):
//
//   - process start and a whole plan: `fixplan --version` and `fixplan plan`
//     on a copy of github.com/spf13/cobra (one commit, then a broken
//     function), with the real `go test` output of the break as the problem
//     and an instant model (the fake OpenAI-compatible provider, a model name
//     with a real tokenizer);
//   - the base context (`fixplan context base`) on trees as big as a user's:
//     a copy of Go's own src (one commit, net/http broken, the real failing
//     `go test` output) and generated projects of 1,000, 10,000 and 100,000
//     files (Go, TypeScript and Python folders nested deep, a vendor folder,
//     node_modules, caches and build output under a .gitignore, one commit, a
//     pytest failure deep in the tree);
//   - next to each, fixplan's whole-tree pass (`fixplan context search`, the
//     engine the base context's searches and the model's search requests
//     share) and ripgrep searching the same message with fixplan's rules.
//
// Trees are made once in -cache and used again by later runs. With -baseline
// an older fixplan is measured in the same turns.
//
// Usage: go run ./bench/speed -fixplan BIN -fakeprovider BIN [-baseline BIN] [-rg BIN] [-n 5] [-sizes 1000,10000,100000] [-md]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"fixplan/bench/internal/proc"
	"fixplan/bench/internal/releases"
	"fixplan/projfs"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(1)
	}
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	must(err)
	return a
}

// timed is the command line a timed command runs as (-rt: under chrt).
var timed = func(name string, args ...string) (string, []string) { return name, args }

// runTimed runs a command that is timed (proc.Run through timed).
func runTimed(dir string, env []string, name string, args ...string) error {
	name, args = timed(name, args...)
	return proc.Run(dir, env, name, args...)
}

// defaultCache is where the trees are kept unless -cache says: beside the
// other benchmarks' downloads, in the user's cache folder.
func defaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "fixplan-bench", "speed")
}

// bin is one fixplan binary measured.
type bin struct{ name, path string }

func main() {
	fixplan := flag.String("fixplan", "build/bin/fixplan-cli", "the fixplan CLI binary")
	baseline := flag.String("baseline", "", "an older fixplan CLI binary measured in the same turns (optional)")
	baselineName := flag.String("baseline-name", "baseline", "what the tables call the -baseline binary")
	fake := flag.String("fakeprovider", "", "the fake provider binary (scripts/desktop/fakeprovider)")
	rg := flag.String("rg", "rg", "ripgrep; \"\" leaves its column out")
	rgWhy := flag.String("rg-missing", "", "why ripgrep is not measured (printed in its place)")
	n := flag.Int("n", 5, "runs of each measurement (the median is reported)")
	sizes := flag.String("sizes", "1000,10000,100000", "the generated trees' sizes in files, comma-separated")
	goroot := flag.Bool("goroot", true, "measure a copy of Go's own src")
	cache := flag.String("cache", defaultCache(), "where the trees are made and kept for later runs")
	md := flag.Bool("md", false, "print Markdown")
	rt := flag.Bool("rt", false, "run every timed command under the real-time round-robin scheduler (chrt -r 1; needs root): on a machine shared with other work, the other work then does not decide the medians")
	pass := flag.String("pass", "", "internal: search the tree `DIR` for -message, -n times in this process after one untimed search, and print each time in nanoseconds")
	message := flag.String("message", "", "the literal -pass searches for")
	profile := flag.String("profile", "", "instead of the tables: gather each tree's base context in this process -n times and write a CPU profile of it to `PREFIX`-<tree>.prof")
	flag.Parse()
	if *pass != "" {
		must(passTimes(*pass, *message, *n))
		return
	}
	if *rt {
		timed = func(name string, args ...string) (string, []string) {
			return "chrt", append([]string{"-r", "1", name}, args...)
		}
	}
	bins := []bin{{"fixplan", abs(*fixplan)}}
	if *baseline != "" {
		bins = append(bins, bin{*baselineName, abs(*baseline)})
	}
	cacheDir := abs(*cache)
	must(os.MkdirAll(cacheDir, 0o755))
	work, err := os.MkdirTemp(cacheDir, "run-")
	must(err)
	defer os.RemoveAll(work)
	cfg := filepath.Join(work, "config")
	must(os.MkdirAll(cfg, 0o700))
	env := []string{"FIXPLAN_CONFIG_DIR=" + cfg, "FIXPLAN_USER_PREFS=" + filepath.Join(cfg, "preferences.json"),
		"GIT_CEILING_DIRECTORIES=" + cacheDir}

	var out strings.Builder
	if *profile == "" {
		out.WriteString(planSection(work, env, bins, abs(*fake), *n))
	}
	var trees []tree
	if *goroot {
		trees = append(trees, goTree(cacheDir))
	}
	for _, s := range strings.Split(*sizes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			k, err := strconv.Atoi(s)
			must(err)
			trees = append(trees, genTreeCached(cacheDir, k))
		}
	}
	if *profile != "" {
		for _, t := range trees {
			problem, err := os.ReadFile(t.problem)
			must(err)
			name := strings.NewReplacer(" ", "-", "'", "", "(", "", ")", "", ",", "").Replace(t.name)
			ds, err := gatherInProcess(t.dir, string(problem), *n, *profile+"-"+name+".prof")
			must(err)
			fmt.Printf("%s: %v\n", t.name, ds)
		}
		return
	}
	rgBin := *rg
	if rgBin != "" {
		if p, err := exec.LookPath(rgBin); err != nil {
			*rgWhy, rgBin = fmt.Sprintf("%s is not installed", rgBin), ""
		} else {
			rgBin = p
		}
	}
	out.WriteString(treeSection(env, bins, trees, rgBin, *rgWhy, *n))
	text := out.String()
	if !*md {
		text = strings.NewReplacer("`", "", "**", "").Replace(text)
	}
	fmt.Print(text)
}

// ---- process start and a whole plan on cobra ----

const planModule = "github.com/spf13/cobra@v1.8.0"

// cobraBreak is the broken line of the plan benchmark: one error message of
// args.go changed, which the package's tests compare.
var cobraBreak = [2]string{`"accepts %d arg(s), received %d"`, `"accepts %d arg(s), received %d args"`}

// planSection measures `fixplan --version` and `fixplan plan` on cobra.
func planSection(work string, env []string, bins []bin, fake string, n int) string {
	mod, err := releases.Dir(planModule)
	must(err)
	proj := filepath.Join(work, "cobra")
	must(releases.CopyTree(mod, proj))
	gitCommit(proj)
	src, err := os.ReadFile(filepath.Join(proj, "args.go"))
	must(err)
	broken := strings.Replace(string(src), cobraBreak[0], cobraBreak[1], 1)
	if broken == string(src) {
		must(fmt.Errorf("%s: args.go has no %s to break", planModule, cobraBreak[0]))
	}
	must(os.WriteFile(filepath.Join(proj, "args.go"), []byte(broken), 0o644))
	problem := failingOutput(proj, nil, "go", "test", "-count=1", "-run", "^TestExactArgs", ".")
	patch := fixPatch("args.go", broken, cobraBreak[1], cobraBreak[0])
	final := map[string]any{"mode": "fix-plan", "summary": "the ExactArgs message gained a word", "questions": []any{},
		"context_requests": []any{}, "plan": []any{map[string]string{"step": "restore the message", "details": "args.go"}},
		"proposed_changes": map[string]any{"patch": patch, "actions": []any{}, "commands_to_run": []any{}}, "patch": nil,
		"commands_to_run": []any{}, "verification": []any{}, "risks": []any{}, "rollback": []any{}, "memory_patch": []any{}}
	content, err := json.Marshal(final)
	must(err)
	var replies []map[string]string
	for range (n + 1) * len(bins) {
		replies = append(replies, map[string]string{"content": string(content)})
	}
	rb, err := json.Marshal(replies)
	must(err)
	rf := filepath.Join(work, "replies.json")
	must(os.WriteFile(rf, rb, 0o644))
	url, stop, err := proc.StartFake(fake, rf)
	must(err)
	defer func() { must(stop()) }()
	planEnv := append(env[:len(env):len(env)], "FIXPLAN_BASE_URL="+url, "FIXPLAN_MODEL=gpt-4o-mini", "FIXPLAN_API_KEY=bench-key")
	plan := func(b bin) error {
		// every run is a project's first plan: no records of earlier runs to load
		if err := os.RemoveAll(filepath.Join(proj, ".fixplan")); err != nil {
			return err
		}
		return runTimed(work, planEnv, b.path, "--root", proj, "plan", "--quiet", "--json", "--problem", problem)
	}
	version := make([]proc.Times, len(bins))
	plans := make([]proc.Times, len(bins))
	for _, b := range bins {
		must(plan(b)) // fills the per-machine environment cache, as any earlier plan would
	}
	for range n {
		for i, b := range bins {
			for range 3 {
				must(version[i].Time(func() error { return runTimed(work, env, b.path, "--version") }))
			}
			must(plans[i].Time(func() error { return plan(b) }))
		}
	}
	var s strings.Builder
	fmt.Fprintf(&s, "### A whole plan on %s (median of %d runs; `--version` %d)\n\n", planModule, n, 3*n)
	fmt.Fprintf(&s, "The problem is the real `go test` output of a broken message in args.go (%d lines); the model is the fake\n", strings.Count(problem, "\n"))
	s.WriteString("OpenAI-compatible provider answering at once with the fix (model name `gpt-4o-mini`: counted with o200k_base).\n\n")
	s.WriteString("| binary | `fixplan --version` | `fixplan plan` | plan − `--version` | target ≤ 100 ms |\n|---|---:|---:|---:|---|\n")
	for i, b := range bins {
		over := plans[i].Median() - version[i].Median()
		fmt.Fprintf(&s, "| %s | %s | %s (%s) | **%s** | %s |\n", b.name, proc.Ms(version[i].Median()), proc.Ms(plans[i].Median()),
			plans[i].Range(), proc.Ms(over), verdict(over <= 100*time.Millisecond))
	}
	return s.String() + "\n"
}

// fixPatch is a unified diff of file changing the one line holding from so
// that it holds to instead.
func fixPatch(file, content, from, to string) string {
	lines := strings.SplitAfter(content, "\n")
	k := -1
	for i, l := range lines {
		if strings.Contains(l, from) {
			k = i
			break
		}
	}
	if k < 0 {
		must(fmt.Errorf("%s: no line holds %s", file, from))
	}
	lo, hi := max(0, k-3), min(len(lines)-1, k+3)
	if lines[hi] == "" {
		hi--
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n", file, file, lo+1, hi-lo+1, lo+1, hi-lo+1)
	for i := lo; i <= hi; i++ {
		if i == k {
			b.WriteString("-" + lines[i])
			b.WriteString("+" + strings.Replace(lines[i], from, to, 1))
			continue
		}
		b.WriteString(" " + lines[i])
	}
	return b.String()
}

// ---- the trees ----

// tree is a project the base context is measured on: its folder, the file
// with its failure output, the message ripgrep looks for, and a description.
type tree struct {
	name, dir, problem, message, about string
}

// gitCommit makes dir a repository with everything in it as one commit.
func gitCommit(dir string) {
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "--no-gpg-sign", "-m", "one commit"}} {
		must(proc.Run(dir, []string{"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir)}, "git", args...))
	}
}

// failingOutput runs a test command that must fail in dir and returns its
// output.
func failingOutput(dir string, env []string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !strings.Contains(string(out), "--- FAIL") {
		must(fmt.Errorf("%s %s in %s was to fail: %v\n%s", name, strings.Join(args, " "), dir, err, out))
	}
	return string(out)
}

// cached runs make in a fresh folder cache/name unless a complete one made by
// the same version is there; the stamp file marks it complete.
func cached(cache, name, version string, make func(dir string)) string {
	dir := filepath.Join(cache, name)
	stamp := filepath.Join(dir, ".speed-stamp")
	if b, err := os.ReadFile(stamp); err == nil && string(b) == version {
		return dir
	}
	must(os.RemoveAll(dir))
	must(os.MkdirAll(dir, 0o755))
	fmt.Fprintf(os.Stderr, "speed: making %s (kept in %s for later runs)\n", name, dir)
	make(dir)
	must(os.WriteFile(stamp, []byte(version), 0o644))
	return dir
}

// goTree is a copy of Go's src as one commit, with net/http broken (every
// header line written without the space after its colon) and the real output
// of the test that catches it. The copy is a GOROOT of its own (its other
// folders link to the real ones), so go test compiles the broken package.
func goTree(cache string) tree {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	must(err)
	f := strings.Fields(string(out))
	if len(f) != 2 {
		must(fmt.Errorf("go env GOROOT GOVERSION: %q", out))
	}
	goroot, version := f[0], f[1]
	dir := cached(cache, "goroot-"+version, genVersion, func(dir string) {
		must(proc.Run(dir, nil, "cp", "-r", filepath.Join(goroot, "src"), filepath.Join(dir, "src")))
		ents, err := os.ReadDir(goroot)
		must(err)
		for _, e := range ents {
			if e.Name() != "src" {
				must(os.Symlink(filepath.Join(goroot, e.Name()), filepath.Join(dir, e.Name())))
			}
		}
		src := filepath.Join(dir, "src")
		header := filepath.Join(src, "net", "http", "header.go")
		b, err := os.ReadFile(header)
		must(err)
		broken := strings.Replace(string(b), `{kv.key, ": ", v, "\r\n"}`, `{kv.key, ":", v, "\r\n"}`, 1)
		if broken == string(b) {
			must(fmt.Errorf("%s: no header line to break", header))
		}
		must(os.WriteFile(header, []byte(broken), 0o644))
		gitCommit(src)
		fail := failingOutput(src, []string{"GOROOT=" + dir, "GOFLAGS=", "GOTOOLCHAIN=local"},
			filepath.Join(goroot, "bin", "go"), "test", "-count=1", "-run", "^TestHeaderWrite$", "net/http")
		must(os.WriteFile(filepath.Join(dir, "fail.txt"), []byte(fail), 0o644))
	})
	return tree{name: "Go's src (" + version + ")", dir: filepath.Join(dir, "src"), problem: filepath.Join(dir, "fail.txt"),
		message: "Content-Type: text/html; charset=UTF-8", about: "net/http broken, `go test -run TestHeaderWrite` output"}
}

// genTreeCached is the generated project of about n files (genTree) as one
// commit.
func genTreeCached(cache string, n int) tree {
	dir := cached(cache, fmt.Sprintf("generated-%d", n), genVersion, func(dir string) {
		problem, err := genTree(filepath.Join(dir, "src"), n)
		must(err)
		gitCommit(filepath.Join(dir, "src"))
		must(os.WriteFile(filepath.Join(dir, "fail.txt"), []byte(problem), 0o644))
	})
	return tree{name: fmt.Sprintf("generated, %d files", n), dir: filepath.Join(dir, "src"), problem: filepath.Join(dir, "fail.txt"),
		message: failMessage, about: "pytest failure deep in the tree"}
}

// rgArgs make ripgrep follow fixplan's rules: hidden files searched,
// .gitignore files honoured (also outside a repository), fixplan's excluded
// folders and secret files skipped (as bench/search does).
func rgArgs() []string {
	return []string{"--hidden", "--no-require-git", "--no-ignore-global", "--no-ignore-parent", "-F", "-n", "--no-heading", "--no-messages",
		"-g", "!{" + strings.Join(projfs.DefaultExcludes(), ",") + "}",
		"--iglob", "!*.{env,pem,key,p12,pfx,jks,keystore}", "--iglob", "!.env.*", "--iglob", "!id_{rsa,dsa,ecdsa,ed25519}*",
		"--iglob", "!credentials", "--iglob", "!credentials.*", "--iglob", "!{.netrc,.pgpass,.htpasswd}",
		"--iglob", "!secrets?.{json,yaml,yml,toml}", "--iglob", "!secrets/", "--iglob", "!.ssh/"}
}

// passTimes searches the tree dir for message with projfs (every text file
// read, as the model's search and `context search` do) n times after an
// untimed first search, and prints each time in nanoseconds.
func passTimes(dir, message string, n int) error {
	r, err := projfs.OpenRoot(dir, projfs.Options{})
	if err != nil {
		return err
	}
	defer r.Close()
	for i := 0; i <= n; i++ {
		t0 := time.Now()
		if _, err := r.Search(context.Background(), message, projfs.SearchOptions{}); err != nil {
			return err
		}
		if i > 0 {
			fmt.Println(time.Since(t0).Nanoseconds())
		}
	}
	return nil
}

// passTimesOf runs passTimes in a process of its own (this program again,
// timed like the other commands).
func passTimesOf(dir, message string, n int) proc.Times {
	self, err := os.Executable()
	must(err)
	name, args := timed(self, "-pass", dir, "-message", message, "-n", strconv.Itoa(n))
	out, err := exec.Command(name, args...).Output()
	must(err)
	var ts proc.Times
	for _, f := range strings.Fields(string(out)) {
		ns, err := strconv.ParseInt(f, 10, 64)
		must(err)
		ts = append(ts, time.Duration(ns))
	}
	return ts
}

// treeRow is one tree's measurements.
type treeRow struct {
	t                     tree
	files                 int
	base                  []proc.Times // per binary
	pass, search, rgTimes proc.Times
}

// treeSection measures the base context, fixplan's whole-tree pass and
// ripgrep on every tree, taking turns.
func treeSection(env []string, bins []bin, trees []tree, rg, rgWhy string, n int) string {
	var rows []treeRow
	for _, t := range trees {
		ls, err := exec.Command("git", "-C", t.dir, "ls-files", "-z").Output()
		must(err)
		r := treeRow{t: t, files: strings.Count(string(ls), "\x00"), base: make([]proc.Times, len(bins))}
		base := func(b bin) error {
			return runTimed(t.dir, env, b.path, "--root", t.dir, "context", "base", "--problem-file", t.problem)
		}
		search := func() error {
			return runTimed(t.dir, env, bins[0].path, "--root", t.dir, "context", "search", t.message, "--max", "0", "--json")
		}
		ripgrep := func() error {
			err := runTimed(t.dir, nil, rg, append(rgArgs(), "--", t.message)...)
			var ee *exec.ExitError
			if errors.As(err, &ee) && ee.ExitCode() == 1 {
				return nil // no match
			}
			return err
		}
		// once each first: the page cache, the environment cache
		for _, b := range bins {
			must(base(b))
		}
		must(search())
		if rg != "" {
			must(ripgrep())
		}
		for range n {
			for i, b := range bins {
				must(r.base[i].Time(func() error { return base(b) }))
			}
			must(r.search.Time(search))
			if rg != "" {
				must(r.rgTimes.Time(ripgrep))
			}
		}
		r.pass = passTimesOf(t.dir, t.message, n)
		rows = append(rows, r)
	}
	var s strings.Builder
	fmt.Fprintf(&s, "### The base context on big trees (median of %d runs taking turns; min–max)\n\n", n)
	s.WriteString("`context base` is the whole base context of the tree's failure (`fixplan context base --problem-file`). The whole-tree\n")
	s.WriteString("pass is fixplan's search engine reading every text file of the tree for the message the failure quotes (projfs\n")
	s.WriteString("Search, in a process of its own: the walk and the reads the base context's searches and the model's search\n")
	s.WriteString("requests share); `context search` is the same as a command (a process start, and the redaction rules compiled\n")
	s.WriteString("before its matches are shown); ripgrep searches the same message with fixplan's rules (hidden files, .gitignore,\n")
	s.WriteString("the excluded folders and secret files).\n\n")
	s.WriteString("| tree | files (committed) |")
	for _, b := range bins {
		fmt.Fprintf(&s, " `context base`, %s |", b.name)
	}
	s.WriteString(" whole-tree pass | `context search` | ripgrep | pass ÷ ripgrep |\n|---|---:|")
	for range bins {
		s.WriteString("---:|")
	}
	s.WriteString("---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&s, "| %s (%s) | %d |", r.t.name, r.t.about, r.files)
		for i := range bins {
			fmt.Fprintf(&s, " **%s** (%s) |", proc.Ms(r.base[i].Median()), r.base[i].Range())
		}
		fmt.Fprintf(&s, " %s | %s |", proc.Ms(r.pass.Median()), proc.Ms(r.search.Median()))
		if rg != "" {
			fmt.Fprintf(&s, " %s | %.2f |\n", proc.Ms(r.rgTimes.Median()), float64(r.pass.Median())/float64(r.rgTimes.Median()))
		} else {
			s.WriteString(" — | — |\n")
		}
	}
	if rg == "" {
		fmt.Fprintf(&s, "\nripgrep is not measured: %s.\n", rgWhy)
	}
	// how the generated trees' times grow
	var gen []treeRow
	for _, r := range rows {
		if strings.HasPrefix(r.t.name, "generated") {
			gen = append(gen, r)
		}
	}
	if len(gen) > 1 {
		s.WriteString("\nHow the times grow from one generated tree to the next (× files → × time):\n\n")
		s.WriteString("| from → to | files | `context base` |")
		if rg != "" {
			s.WriteString(" whole-tree pass | ripgrep |")
		}
		s.WriteString("\n|---|---:|---:|")
		if rg != "" {
			s.WriteString("---:|---:|")
		}
		s.WriteString("\n")
		for i := 1; i < len(gen); i++ {
			a, b := gen[i-1], gen[i]
			x := func(p, q time.Duration) string { return fmt.Sprintf("%.1f×", float64(q)/float64(p)) }
			fmt.Fprintf(&s, "| %d → %d | %.1f× | %s |", a.files, b.files, float64(b.files)/float64(a.files), x(a.base[0].Median(), b.base[0].Median()))
			if rg != "" {
				fmt.Fprintf(&s, " %s | %s |", x(a.pass.Median(), b.pass.Median()), x(a.rgTimes.Median(), b.rgTimes.Median()))
			}
			s.WriteString("\n")
		}
	}
	// the targets
	s.WriteString("\nTargets (fixplan):\n\n")
	for _, r := range rows {
		med := r.base[0].Median()
		switch {
		case strings.HasPrefix(r.t.name, "Go's src"):
			fmt.Fprintf(&s, "- `context base` on Go's src ≤ 0.5 s: %s (%s)\n", verdict(med <= 500*time.Millisecond), proc.Ms(med))
		case r.files >= 90000:
			fmt.Fprintf(&s, "- `context base` on %d files ≤ 3 s: %s (%s)\n", r.files, verdict(med <= 3*time.Second), proc.Ms(med))
		}
		if rg != "" {
			fmt.Fprintf(&s, "- whole-tree pass on %s no slower than ripgrep: %s (%.2f×)\n", r.t.name, verdict(r.pass.Median() <= r.rgTimes.Median()),
				float64(r.pass.Median())/float64(r.rgTimes.Median()))
		}
	}
	fmt.Fprintf(&s, "\n%d CPUs (GOMAXPROCS %d)", runtime.NumCPU(), runtime.GOMAXPROCS(0))
	if name, _ := timed("x"); name == "chrt" {
		s.WriteString("; every timed command ran under the real-time round-robin scheduler (`chrt -r 1`), every tool alike")
	}
	s.WriteString(".\n")
	return s.String()
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**not met**"
}
