// Package ctxbench is what the context benchmarks share: the base context of a
// failure gathered exactly as `fixplan context base --problem-file` gathers it,
// and the test of whether a function of the project is shown in it.
package ctxbench

import (
	"context"
	"regexp"
	"strconv"

	codectx "fixplan/context"
	"fixplan/plan"
)

// Gather returns the base context of problem in the project at root with the
// CLI's default options (envCache, when set, is the environment facts' cache
// file; noDefs switches the definitions of what the failing lines use off).
func Gather(root, problem, envCache string, noDefs bool) (plan.Gathered, error) {
	o := codectx.DefaultOptions()
	o.EnvCachePath = envCache
	o.NoDefinitions = noDefs
	g, err := codectx.New(root, o)
	if err != nil {
		return plan.Gathered{}, err
	}
	defer g.Close()
	return g.Base(context.Background(), plan.ProblemInput{Problem: problem})
}

var (
	titleRe    = regexp.MustCompile(`^File (\S+) lines `)
	numberedRe = regexp.MustCompile(`(?m)^\s*(\d+) \| `)
)

// Lines returns the lines of file (root-relative, slash-separated) that a
// section of g shows.
func Lines(g plan.Gathered, file string) map[int]bool {
	lines := map[int]bool{}
	for _, s := range g.Sections {
		m := titleRe.FindStringSubmatch(s.Title)
		if m == nil || m[1] != file {
			continue
		}
		for _, n := range numberedRe.FindAllStringSubmatch(s.Body, -1) {
			v, _ := strconv.Atoi(n[1])
			lines[v] = true
		}
	}
	return lines
}

// Shown reports whether every line from..to of file is in a section of g
// (fn), and whether any line of the file is (file).
func Shown(g plan.Gathered, file string, from, to int) (fn, anyLine bool) {
	lines := Lines(g, file)
	for i := from; i <= to; i++ {
		if !lines[i] {
			return false, len(lines) > 0
		}
	}
	return true, true
}

// Size is the base context's length in bytes: every section's title and body.
func Size(g plan.Gathered) int {
	n := 0
	for _, s := range g.Sections {
		n += len(s.Title) + len(s.Body)
	}
	return n
}
