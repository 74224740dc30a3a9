//go:build unix

package verify

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A hostile project links outside; the plan's change names a path through the
// link. Nothing outside is written, the link is reported as skipped.
func TestVerifyHostileProject(t *testing.T) {
	base := t.TempDir()
	proj, outside, tmp := filepath.Join(base, "proj"), filepath.Join(base, "outside"), t.TempDir()
	writeTree(t, base, map[string]string{
		"outside/keep.txt": "precious",
		"proj/a.txt":       "a",
		"proj/out":         "-> ../outside",
		"proj/abs":         "-> " + outside,
	})
	outBefore, projBefore := snapshot(t, outside), snapshot(t, proj)
	rep, err := Verify(context.Background(), Request{
		Root: proj, Runner: groupRunner{}, TempDir: tmp, Suite: []string{"cat out/keep.txt abs/keep.txt; ls -la; true"},
		Changes: map[string]*[]byte{"out/keep.txt": bytesOf("pwned"), "abs/new.txt": bytesOf("pwned")},
	})
	must(t, err)
	sameSnapshot(t, "outside", outBefore, snapshot(t, outside))
	sameSnapshot(t, "project", projBefore, snapshot(t, proj))
	emptyDir(t, tmp)
	if rep.Clone.SkippedLinks != 2 || !hasSkipped(rep.Clone, "out") || !hasSkipped(rep.Clone, "abs") {
		t.Errorf("links not reported as skipped: %+v", rep.Clone)
	}
	if strings.Contains(rep.Commands[0].Output, "precious") {
		t.Errorf("the copy reached the outside folder:\n%s", rep.Commands[0].Output)
	}
}

func TestVerifyNotVerified(t *testing.T) {
	proj := t.TempDir()
	writeTree(t, proj, map[string]string{"a.txt": "a", "b.txt": "b"})
	tests := []struct {
		name   string
		req    Request
		reason Reason
		is     error
	}{
		{name: "no command", req: Request{}, reason: ReasonNoCommand},
		{name: "blank commands", req: Request{Focused: "  ", Suite: []string{""}}, reason: ReasonNoCommand},
		{name: "too large", req: Request{Suite: []string{"true"}, Clone: CloneOptions{MaxFiles: 1}}, reason: ReasonTooLarge, is: ErrTooLarge},
		{name: "change names .git", req: Request{Suite: []string{"true"}, Changes: map[string]*[]byte{".git/config": bytesOf("x")}},
			reason: ReasonApplyFailed, is: ErrBadChange},
		{name: "command cannot start", req: Request{Suite: []string{"true"}, Runner: failingRunner{}}, reason: ReasonRunFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			req := tt.req
			req.Root, req.TempDir = proj, tmp
			if req.Runner == nil {
				req.Runner = groupRunner{}
			}
			rep, err := Verify(context.Background(), req)
			must(t, err)
			if rep.State != StateNotVerified || rep.Reason != tt.reason {
				t.Errorf("state %s %s (%s)", rep.State, rep.Reason, rep.Detail)
			}
			if tt.is != nil && !errors.Is(rep.Err, tt.is) {
				t.Errorf("Err = %v, want %v", rep.Err, tt.is)
			}
			emptyDir(t, tmp)
		})
	}
	t.Run("invalid requests", func(t *testing.T) {
		for _, req := range []Request{
			{Root: proj, Suite: []string{"true"}},
			{Runner: groupRunner{}, Suite: []string{"true"}},
			{Root: proj, Runner: groupRunner{}, Suite: []string{"true"}, TempDir: proj},
		} {
			if _, err := Verify(context.Background(), req); !errors.Is(err, ErrInvalidRequest) {
				t.Errorf("err = %v, want ErrInvalidRequest", err)
			}
		}
		if ents, _ := os.ReadDir(proj); len(ents) != 2 {
			t.Errorf("the project holds %d entries, want 2", len(ents))
		}
	})
}

type failingRunner struct{}

func (failingRunner) Run(context.Context, string, string, time.Duration) (CommandResult, error) {
	return CommandResult{}, errors.New("exec: \"sh\": executable file not found in $PATH")
}

// Without a TempDir the copies go where the file system clones files, else
// in os.TempDir(); never inside the project.
func TestScratchDir(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	proj := t.TempDir()
	writeTree(t, proj, map[string]string{"sub/a.txt": "hello", "empty": ""})
	root, err := os.OpenRoot(proj)
	must(t, err)
	defer root.Close()
	f, err := someFile(root)
	must(t, err)
	if fi, _ := f.Stat(); fi.Size() != 5 {
		t.Errorf("probe file has %d bytes, want the non-empty one", fi.Size())
	}
	f.Close()
	allowed := []string{os.TempDir(), filepath.Join(cache, "fixplan", "verify"), "/dev/shm"}
	if got := scratchDir(proj, 1<<40, nil); got != os.TempDir() {
		t.Errorf("a 1 TB project without a probe goes to %s, want %s", got, os.TempDir())
	}
	got := scratchDir(proj, 5, func() (*os.File, error) { return someFile(root) })
	t.Logf("scratch folder for a small project: %s", got)
	if !slices.Contains(allowed, got) || within(got, proj) {
		t.Errorf("scratch folder %s", got)
	}
	before := snapshot(t, proj)
	var ours []string // copies already there (other processes' verifications)
	for _, d := range allowed {
		m, _ := filepath.Glob(filepath.Join(d, "fixplan-verify-*"))
		ours = append(ours, m...)
	}
	rep, err := Verify(context.Background(), Request{Root: proj, Runner: groupRunner{}, Suite: []string{"cat sub/a.txt"}})
	must(t, err)
	if rep.State != StateVerified || !strings.Contains(rep.Commands[0].Output, "hello") {
		t.Errorf("state %s, output %q", rep.State, rep.Commands[0].Output)
	}
	if !slices.Contains(allowed, rep.Scratch) {
		t.Errorf("copies made in %s", rep.Scratch)
	}
	left, _ := filepath.Glob(filepath.Join(rep.Scratch, "fixplan-verify-*"))
	for _, l := range left {
		if !slices.Contains(ours, l) {
			t.Errorf("copy left behind: %s", l)
		}
	}

	sameSnapshot(t, "project", before, snapshot(t, proj))
}

// Plain shell commands: a time-out, and AlwaysBaseline showing that the focused
// check failed before the change.
func TestVerifyShell(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		state  State
		reason Reason
		check  func(t *testing.T, rep Report)
	}{
		{name: "focused check times out", req: Request{Focused: "sleep 20", Timeout: 500 * time.Millisecond},
			state: StateFailed, reason: ReasonFocusedFails,
			check: func(t *testing.T, rep Report) {
				if !rep.Commands[0].TimedOut {
					t.Error("not reported as timed out")
				}
			}},
		{name: "always baseline: the focused check failed before the change", req: Request{Focused: "grep -q fixed state", Suite: []string{"test -f state"},
			Changes: map[string]*[]byte{"state": bytesOf("fixed\n")}, AlwaysBaseline: true},
			state: StateVerified,
			check: func(t *testing.T, rep Report) {
				f := rep.Commands[0]
				if f.Baseline == nil || f.Baseline.Passed() || f.BaselineExitCode() != 1 {
					t.Errorf("focused baseline: %+v", f.Baseline)
				}
				if rep.Commands[1].Baseline == nil || !rep.Commands[1].Baseline.Passed() {
					t.Errorf("suite baseline: %+v", rep.Commands[1].Baseline)
				}
			}},
		{name: "a full disk is no verdict on the plan", req: Request{Focused: "echo 'write out.o: No space left on device' >&2; exit 1"},
			state: StateNotVerified, reason: ReasonNoSpace},
		{name: "deleted file", req: Request{Focused: "test ! -e state", Changes: map[string]*[]byte{"state": nil}}, state: StateVerified},
		{name: "new executable file", req: Request{Focused: "./fix.sh", Changes: map[string]*[]byte{"fix.sh": bytesOf("#!/bin/sh\nexit 0\n")},
			Modes: map[string]fs.FileMode{"fix.sh": 0o755}}, state: StateVerified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj, tmp := t.TempDir(), t.TempDir()
			writeTree(t, proj, map[string]string{"state": "bug\n"})
			before := snapshot(t, proj)
			req := tt.req
			req.Root, req.TempDir, req.Runner = proj, tmp, groupRunner{}
			var stages []Stage
			req.Progress = func(p Progress) { stages = append(stages, p.Stage) }
			rep, err := Verify(context.Background(), req)
			must(t, err)
			if rep.State != tt.state || rep.Reason != tt.reason {
				t.Fatalf("state %s %s (%s)", rep.State, rep.Reason, rep.Detail)
			}
			if tt.check != nil {
				tt.check(t, rep)
			}
			if stages[0] != StageScan || stages[len(stages)-1] != StageCleanup || !slices.Contains(stages, StageRun) {
				t.Errorf("stages %q", stages)
			}
			sameSnapshot(t, "project", before, snapshot(t, proj))
			emptyDir(t, tmp)
		})
	}
}
