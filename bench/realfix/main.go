// Command realfix is the benchmark of real fixes: for fix commits of public
// repositories whose regression tests fail before the fix and pass after it
// (the cases, bench/realfix/cases/*.json), it rebuilds each pre-fix tree from
// git, gathers the base context of the recorded failing output exactly as
// `fixplan context base --problem-file` does, and reports whether the fixed
// file and every fixed function (whole) are in it, its size and the time to
// gather it — for the tuning set and the held-out set apart.
//
// Usage:
//
//	realfix [-cases DIR] [-md] [-save DIR] [-only ID,…]       measure every case
//	realfix -verify [-cases DIR] [-only ID,…]                 re-run each case's tests before and after its fix
//	realfix -mine OWNER/NAME -lang go|python|js|ts [-max N] [-tries N] [-ts DIR]
//	                                                           find new cases in a repository's history
//
// The repositories' histories come from REALFIX_GIT, a folder of bare mirrors
// (<owner>+<name>/repo, <owner>+<name>, <owner>+<name>.git or
// <owner>/<name>.git), or, when it is not set, from bare clones of
// https://github.com/<owner>/<name> kept in REALFIX_CACHE (default: the user's
// cache folder). See README.md.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	casesDir := flag.String("cases", "bench/realfix/cases", "the cases `folder`")
	md := flag.Bool("md", false, "print Markdown (the RESULTS.md tables)")
	save := flag.String("save", "", "write each case's output and base context into this `folder`")
	only := flag.String("only", "", "only the cases with these comma-separated `ids`")
	verify := flag.Bool("verify", false, "re-run each case's tests in its pre-fix tree (must fail) and at the fix (must pass)")
	mineRepo := flag.String("mine", "", "mine fix commits of this repository (`owner/name`)")
	lang := flag.String("lang", "go", "the language of the repository to mine (go, python, js, ts)")
	max := flag.Int("max", 10, "mine until the repository has this many cases")
	tries := flag.Int("tries", 40, "mine at most this many candidate commits")
	maxLines := flag.Int("max-lines", 120, "mine only fixes changing at most this many lines of non-test code")
	tsModule := flag.String("ts", "", "the typescript package's `folder` (mining JavaScript and TypeScript: it finds their functions)")
	work := flag.String("work", "", "folder for the trees (default: a new temporary folder, removed at the end)")
	diagnoses := flag.String("diagnoses", "bench/realfix/diagnoses.tsv", "the misses' diagnoses (`file`, see run.go)")
	flag.Parse()

	rs, err := newRepos()
	if err != nil {
		fail(err)
	}
	wd := *work
	if wd == "" {
		wd, err = os.MkdirTemp("", "realfix-")
		if err != nil {
			fail(err)
		}
		defer removeTree(wd)
	} else if err := os.MkdirAll(wd, 0o755); err != nil {
		fail(err)
	}
	if wd, err = filepath.Abs(wd); err == nil {
		wd, err = filepath.EvalSymlinks(wd)
	}
	if err != nil {
		fail(err)
	}

	if *mineRepo != "" {
		if err := os.MkdirAll(*casesDir, 0o755); err != nil {
			fail(err)
		}
		m := &miner{repos: rs, work: wd, out: *casesDir, tsModule: *tsModule, maxLines: *maxLines}
		if err := m.mine(*mineRepo, *lang, *max, *tries); err != nil {
			fail(err)
		}
		return
	}

	cases, err := loadCases(*casesDir)
	if err != nil {
		fail(err)
	}
	if *only != "" {
		keep := map[string]bool{}
		for _, id := range strings.Split(*only, ",") {
			keep[strings.TrimSpace(id)] = true
		}
		var sel []*Case
		for _, c := range cases {
			if keep[c.ID] {
				sel = append(sel, c)
			}
		}
		cases = sel
	}
	if len(cases) == 0 {
		fail(fmt.Errorf("no cases in %s", *casesDir))
	}
	if *verify {
		if bad := verifyCases(cases, rs, wd); bad > 0 {
			fail(fmt.Errorf("%d of %d cases did not fail before and pass after their fix", bad, len(cases)))
		}
		return
	}
	if *save != "" {
		if err := os.MkdirAll(*save, 0o755); err != nil {
			fail(err)
		}
	}
	results := measureCases(cases, rs, wd, *save)
	notes, err := loadDiagnoses(*diagnoses)
	if err != nil {
		fail(err)
	}
	report(os.Stdout, results, notes, *md)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "realfix:", err)
	os.Exit(1)
}
