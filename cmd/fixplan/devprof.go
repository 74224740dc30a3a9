package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts the developer's profiles of this process the
// environment asks for: FIXPLAN_CPUPROFILE=FILE writes a CPU profile (go tool
// pprof), FIXPLAN_EXECTRACE=FILE an execution trace (go tool trace) of the
// whole command. The returned function stops them and closes the files; a
// profile that cannot start is told on stderr and skipped, the command runs
// all the same.
func startProfiles(getenv func(string) string, stderr *os.File) (stop func()) {
	var stops []func()
	if p := getenv("FIXPLAN_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "fixplan: FIXPLAN_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "fixplan: FIXPLAN_CPUPROFILE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := getenv("FIXPLAN_EXECTRACE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "fixplan: FIXPLAN_EXECTRACE: %v\n", err)
		} else if err := trace.Start(f); err != nil {
			fmt.Fprintf(stderr, "fixplan: FIXPLAN_EXECTRACE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
