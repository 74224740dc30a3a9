package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	codectx "fixplan/context"
	"fixplan/plan"
)

// gatherInProcess gathers the base context of problem on root n times in
// this process (a Gatherer each time; an environment cache of its own, filled
// by a first gather that is not counted) and returns the durations, writing a
// CPU profile of them to profile.
func gatherInProcess(root, problem string, n int, profile string) ([]time.Duration, error) {
	opts := codectx.DefaultOptions()
	dir, err := os.MkdirTemp("", "speed-env-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	opts.EnvCachePath = filepath.Join(dir, "env-cache.json")
	gather := func() (plan.Gathered, error) {
		g, err := codectx.New(root, opts)
		if err != nil {
			return plan.Gathered{}, err
		}
		defer g.Close()
		return g.Base(context.Background(), plan.ProblemInput{Problem: problem})
	}
	if _, err := gather(); err != nil {
		return nil, err
	}
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
		got, err := gather()
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
