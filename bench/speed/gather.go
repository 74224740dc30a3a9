package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	codectx "fixplan/context"
	"fixplan/plan"
)

// gatherInProcess gathers the base context of problem on root n times in
// this process (a Gatherer each time, no environment cache) and returns the
// durations, writing a CPU profile of all of them to profile.
func gatherInProcess(root, problem string, n int, profile string) ([]time.Duration, error) {
	opts := codectx.DefaultOptions()
	opts.EnvCachePath = ""
	f, err := os.Create(profile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, err
	}
	defer pprof.StopCPUProfile()
	var ds []time.Duration
	for range n {
		t0 := time.Now()
		g, err := codectx.New(root, opts)
		if err != nil {
			return nil, err
		}
		got, err := g.Base(context.Background(), plan.ProblemInput{Problem: problem})
		g.Close()
		if err != nil {
			return nil, err
		}
		ds = append(ds, time.Since(t0))
		if len(got.Sections) == 0 {
			return nil, fmt.Errorf("no sections gathered")
		}
	}
	return ds, nil
}
