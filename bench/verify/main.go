// Command verify measures what verifying a plan costs beyond the checks
// themselves: listing the project, copying it, writing the plan's changes into
// the copy and removing the copy, on generated projects of realistic shape
// (2–8 KB source files, ~24 files per folder, nested four deep). The commands
// are answered at once by a runner that runs nothing, so the times are
// verify's own overhead.
//
// usage: go run ./bench/verify [-sizes 1000,10000,50000] [-runs 5] [-dir DIR] [-md]
//
// -dir chooses the file system (projects and copies live there, as the copies
// would live in the user's temporary folder beside their projects).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"fixplan/verify"
)

func main() {
	sizes := flag.String("sizes", "1000,10000,50000", "project sizes in files")
	runs := flag.Int("runs", 5, "runs per measurement (the median is reported)")
	dir := flag.String("dir", os.TempDir(), `folder on the file system to measure; "auto": the project in the temp folder and the copies where verify puts them by default`)
	md := flag.Bool("md", false, "print a Markdown table")
	flag.Parse()
	var rows []row
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			fail(fmt.Errorf("bad size %q", s))
		}
		r, err := measure(*dir, n, *runs)
		if err != nil {
			fail(err)
		}
		rows = append(rows, r)
		if !*md {
			fmt.Printf("%6d files %5.1f MB: one copy %v (scan %v copy %v apply %v clean-up %v) | with baseline copy %v | cp -a + rm -rf %v | reflink %s %s, copies in %s\n",
				r.files, float64(r.bytes)/1e6, r.happy.total, r.happy.scan, r.happy.copy, r.happy.apply, r.happy.cleanup, r.baseline.total, r.cp, r.reflink, r.note, r.scratch)
		}
	}
	if *md {
		fmt.Println("| files | MB | verify overhead, one copy | scan | copy | apply | clean-up | with a baseline copy too | `cp -a` + `rm -rf` | reflink, copies in |")
		fmt.Println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
		for _, r := range rows {
			fmt.Printf("| %d | %.1f | **%s** | %s | %s | %s | %s | %s | %s | %s |\n", r.files, float64(r.bytes)/1e6,
				ms(r.happy.total), ms(r.happy.scan), ms(r.happy.copy), ms(r.happy.apply), ms(r.happy.cleanup), ms(r.baseline.total), ms(r.cp), r.reflink+", copies in "+r.scratch)
		}
	}
}

type times struct{ total, scan, copy, apply, cleanup time.Duration }

type row struct {
	files         int
	bytes         int64
	happy         times         // every command passes: one copy
	baseline      times         // the suite fails: a baseline copy is made too
	cp            time.Duration // cp -a --reflink=auto of the project + rm -rf
	reflink, note string
	scratch       string // where the copies were made
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/verify:", err)
	os.Exit(1)
}

// measure generates a project of n files and verifies a small plan on it runs
// times with a runner that passes everything, then runs times with one whose
// suite fails before and after (so the baseline copy is made too).
func measure(base string, n, runs int) (row, error) {
	auto := base == "auto"
	if auto {
		base = os.TempDir()
	}
	work, err := os.MkdirTemp(base, "fixplan-bench-verify-")
	if err != nil {
		return row{}, err
	}
	defer os.RemoveAll(work)
	proj := filepath.Join(work, "proj")
	tmp := filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return row{}, err
	}
	tempDir := tmp
	if auto {
		tempDir = ""
	}
	bytes, changes, err := generate(proj, n)
	if err != nil {
		return row{}, err
	}
	r := row{files: n, bytes: bytes}
	one := func(suiteExit int) (times, verify.Report, error) {
		rep, err := verify.Verify(context.Background(), verify.Request{
			Root: proj, Changes: changes, Focused: "focused", Suite: []string{"suite"},
			Runner: instant{suiteExit: suiteExit}, TempDir: tempDir,
			Clone: verify.CloneOptions{MaxFiles: -1, MaxBytes: -1},
		})
		if err == nil && rep.Err != nil {
			err = rep.Err
		}
		t := rep.Timings
		return times{total: t.Overhead(), scan: t.Scan, copy: t.Copy + t.BaselineCopy, apply: t.Apply, cleanup: t.Cleanup}, rep, err
	}
	// One warm-up run: page cache and the file system's metadata as a project
	// the user works on would have them.
	if _, rep, err := one(0); err != nil {
		return r, err
	} else if rep.State != verify.StateVerified {
		return r, fmt.Errorf("warm-up: state %s (%s)", rep.State, rep.Detail)
	}
	for _, suiteExit := range []int{0, 1} {
		var all []times
		for range runs {
			runtime.GC()
			t, rep, err := one(suiteExit)
			if err != nil {
				return r, err
			}
			if suiteExit == 1 && rep.BaselineClone == nil {
				return r, fmt.Errorf("no baseline copy made")
			}
			r.reflink, r.note, r.scratch = rep.Clone.Reflink, rep.Clone.ReflinkNote, rep.Scratch
			if !auto {
				r.scratch = base
			}
			all = append(all, t)
		}
		slices.SortFunc(all, func(a, b times) int { return int(a.total - b.total) })
		if suiteExit == 0 {
			r.happy = all[len(all)/2]
		} else {
			r.baseline = all[len(all)/2]
		}
	}
	r.cp, err = cpReference(proj, tmp, runs)
	return r, err
}

// cpReference is the median time of "cp -a --reflink=auto" of the project
// plus "rm -rf" of the copy: what the file system allows a plain tool (0 when
// GNU cp is not there).
func cpReference(proj, tmp string, runs int) (time.Duration, error) {
	if exec.Command("cp", "--reflink=auto", "--version").Run() != nil {
		return 0, nil
	}
	var all []time.Duration
	for i := range runs {
		dst := filepath.Join(tmp, fmt.Sprintf("cp%d", i))
		t := time.Now()
		if out, err := exec.Command("cp", "-a", "--reflink=auto", proj, dst).CombinedOutput(); err != nil {
			return 0, fmt.Errorf("cp: %v: %s", err, out)
		}
		if err := os.RemoveAll(dst); err != nil {
			return 0, err
		}
		all = append(all, time.Since(t))
	}
	slices.Sort(all)
	return all[len(all)/2], nil
}

// instant answers every command at once: the focused one passes, the suite
// exits with suiteExit and the same failing test before and after.
type instant struct{ suiteExit int }

func (r instant) Run(_ context.Context, _, command string, _ time.Duration) (verify.CommandResult, error) {
	if command == "suite" && r.suiteExit != 0 {
		return verify.CommandResult{ExitCode: r.suiteExit, Output: "--- FAIL: TestOld (0.00s)\nFAIL\texample.com/big/p0\t0.01s\n"}, nil
	}
	return verify.CommandResult{Output: "ok  \texample.com/big\t0.01s\n"}, nil
}

// generate writes n files of 2–8 KB into proj: folders of 24 files, four
// levels deep (pkg0/sub3/mod1/…), Go-like text; it returns the bytes written
// and a plan that changes five files and creates one.
func generate(proj string, n int) (int64, map[string]*[]byte, error) {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	var total int64
	var paths []string
	for i := range n {
		folder := i / 24
		rel := filepath.Join(fmt.Sprintf("pkg%d", folder/512), fmt.Sprintf("sub%d", folder/64%8), fmt.Sprintf("mod%d", folder/8%8), fmt.Sprintf("leaf%d", folder%8),
			fmt.Sprintf("file%d.go", i))
		size := 2048 + rng.IntN(6*1024)
		var b strings.Builder
		fmt.Fprintf(&b, "package leaf%d\n\n", folder%8)
		for j := 0; b.Len() < size; j++ {
			fmt.Fprintf(&b, "func F%d_%d(x int) int { return x*%d + %d } // %08x\n", i, j, rng.IntN(100), rng.IntN(1000), rng.Uint32())
		}
		p := filepath.Join(proj, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, nil, err
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return 0, nil, err
		}
		total += int64(b.Len())
		paths = append(paths, filepath.ToSlash(rel))
	}
	changes := map[string]*[]byte{}
	for i := range 5 {
		b := []byte(fmt.Sprintf("package changed\n\n// change %d\n", i))
		changes[paths[(i*7919)%len(paths)]] = &b
	}
	created := []byte("package fix\n\nfunc Fixed() bool { return true }\n")
	changes["fix/fixed.go"] = &created
	return total, changes, nil
}
