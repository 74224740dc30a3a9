package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FIXPLAN_CPUPROFILE and FIXPLAN_EXECTRACE write a CPU profile and an
// execution trace of the command.
func TestProfilesAreWrittenWhenAsked(t *testing.T) {
	dir := t.TempDir()
	cpu, trace := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "exec.trace")
	env := map[string]string{"FIXPLAN_CPUPROFILE": cpu, "FIXPLAN_EXECTRACE": trace}
	stop := startProfiles(func(k string) string { return env[k] }, os.Stderr)
	n := 0
	for i := range 1 << 20 {
		n += i % 7
	}
	stop()
	b, err := os.ReadFile(cpu)
	if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Fatalf("no gzipped CPU profile (%v): % x", err, b[:min(len(b), 4)])
	}
	b, err = os.ReadFile(trace)
	if err != nil || !bytes.HasPrefix(b, []byte("go 1.")) {
		t.Fatalf("no execution trace (%v): %q", err, b[:min(len(b), 8)])
	}

	_ = n
}
