package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// ErrInvalidRequest is matched by the errors Verify returns for a request it
// cannot act on (no Runner, no project root, a temporary folder inside the
// project).
var ErrInvalidRequest = errors.New("invalid verify request")

// Request is what Verify checks.
type Request struct {
	// Root is the project folder. It is only read.
	Root string
	// Changes are the files the plan writes, by slash-separated path relative
	// to Root: nil deletes the file, other bytes create or replace it (the
	// caller computes them with the apply engine).
	Changes map[string]*[]byte
	// Modes are the permission bits of created files (default 0644) or a new
	// mode for a replaced file (default: unchanged).
	Modes map[string]fs.FileMode
	// Focused runs only the failing test (see FocusedCommand); it runs first
	// and must pass. Empty when there is none.
	Focused string
	// Suite are the broader commands (the package's or project's tests) that
	// must not fail beyond what already failed before the change.
	Suite []string
	// Named are the failing tests the problem names (NamedTests): known
	// without running anything, they are looked up in each command's output
	// after the change. One that still fails there fails the plan, whatever
	// the baseline; all of them found passing show the fix works where there
	// is no focused command.
	Named []string
	// Timeout for each command (0: DefaultTimeout).
	Timeout time.Duration
	// Runner starts the commands; required.
	Runner Runner
	// Cache keeps baselines between verifications; nil runs them each time.
	Cache BaselineCache
	// TempDir is where the copies are made; it must not be inside Root. By
	// default it is the user's cache folder (…/fixplan/verify) when the file
	// system there clones the project's files copy-on-write, else os.TempDir().
	TempDir string
	// Clone bounds and shapes the copies.
	Clone CloneOptions
	// Progress, when set, is called at each stage (from Verify's goroutine).
	Progress func(Progress)
	// AlwaysBaseline runs (or loads) the baseline of every command, also when it
	// is not needed to decide: the report then shows, for instance, that the
	// focused test failed before the change. By default a baseline is run only
	// for suite commands that fail after the change.
	AlwaysBaseline bool
}

// Stage names a step of Verify for progress reports.
type Stage string

const (
	StageScan         Stage = "scan"          // listing the project
	StageCopy         Stage = "copy"          // copying it
	StageApply        Stage = "apply"         // writing the changes into the copy
	StageRun          Stage = "run"           // running a command on the changed copy
	StageBaselineCopy Stage = "baseline copy" // copying the unchanged project
	StageBaseline     Stage = "baseline"      // running a command on the unchanged copy
	StageCleanup      Stage = "clean up"      // removing the copies
)

// Progress is one progress report; Command and Index are set for runs.
type Progress struct {
	Stage   Stage  `json:"stage"`
	Command string `json:"command,omitempty"`
	Index   int    `json:"index"`
}

// Verify applies req.Changes to a throwaway copy of the project, runs the
// focused command and the suite there, and compares failures with a baseline
// run of the same commands on an unchanged copy (loaded from req.Cache when
// the project has not changed since). The project is never written, and the
// copies are removed before Verify returns, also when ctx is cancelled.
//
// Outcomes, including "not verified" (no command, project too large, copy or
// apply failure, a command that could not start, cancellation), are reported in
// the Report with a nil error; Report.Err holds the cause. Verify returns an
// error wrapping ErrInvalidRequest for a request without a Runner or Root or
// with TempDir inside Root, and "verify plan: …" errors when the project folder
// or the temporary folder cannot be opened.
func Verify(ctx context.Context, req Request) (rep Report, err error) {
	start := time.Now()
	if req.Runner == nil || req.Root == "" {
		return Report{}, fmt.Errorf("verify plan: %w: a Runner and a Root are required", ErrInvalidRequest)
	}
	if req.TempDir != "" && within(req.TempDir, req.Root) {
		return Report{}, fmt.Errorf("verify plan: %w: temporary folder %s is inside the project", ErrInvalidRequest, req.TempDir)
	}
	v := &verifier{req: req, rep: &rep}
	v.plan()
	if len(v.rep.Commands) == 0 {
		return v.notVerified(ReasonNoCommand, "no command to run", nil), nil
	}
	src, err := os.OpenRoot(req.Root)
	if err != nil {
		return Report{}, fmt.Errorf("verify plan: open project: %w", err)
	}
	defer src.Close()
	v.src = src
	defer func() { rep.Timings.Total = time.Since(start) }()
	if !v.scan(ctx) {
		return rep, nil
	}
	base := req.TempDir
	if base == "" {
		base = scratchDir(req.Root, v.manifest.bytes, func() (*os.File, error) { return someFile(src) })
	}
	work, err := os.MkdirTemp(base, "fixplan-verify-")
	if err != nil {
		return Report{}, fmt.Errorf("verify plan: create temporary folder: %w", err)
	}
	defer func() {
		v.progress(StageCleanup, "", 0)
		t := time.Now()
		if cerr := removeTree(work); cerr != nil && rep.Err == nil {
			rep.Err = cerr
		}
		rep.Timings.Cleanup += time.Since(t)
		rep.Timings.Total = time.Since(start)
	}()
	if within(work, req.Root) {
		return Report{}, fmt.Errorf("verify plan: %w: temporary folder %s is inside the project", ErrInvalidRequest, base)
	}
	v.work, rep.Scratch = work, base
	v.run(ctx)
	return rep, nil
}

type verifier struct {
	req      Request
	rep      *Report
	src      *os.Root
	work     string
	manifest *manifest
}

func (v *verifier) progress(s Stage, cmd string, i int) {
	if v.req.Progress != nil {
		v.req.Progress(Progress{Stage: s, Command: cmd, Index: i})
	}
}

func (v *verifier) timeout() time.Duration {
	if v.req.Timeout > 0 {
		return v.req.Timeout
	}
	return DefaultTimeout
}

// plan lists the commands to run, focused first, all not run yet.
func (v *verifier) plan() {
	add := func(c string, focused bool) {
		if c = strings.TrimSpace(c); c != "" {
			v.rep.Commands = append(v.rep.Commands, CommandReport{Command: c, Focused: focused, Outcome: OutcomeNotRun, ExitCode: -1})
		}
	}
	add(v.req.Focused, true)
	for _, c := range v.req.Suite {
		add(c, false)
	}
}

// notVerified ends the report with State not_verified.
func (v *verifier) notVerified(r Reason, detail string, err error) Report {
	v.rep.State, v.rep.Reason, v.rep.Detail, v.rep.Err = StateNotVerified, r, detail, err
	return *v.rep
}

// stopOn classifies an error of the copy or a run.
func (v *verifier) stopOn(ctx context.Context, stage string, err error, fallback Reason) {
	switch {
	case ctx.Err() != nil:
		v.notVerified(ReasonCancelled, "cancelled during "+stage, ctx.Err())
	case errors.Is(err, ErrTooLarge):
		v.notVerified(ReasonTooLarge, err.Error(), err)
	default:
		v.notVerified(fallback, stage+": "+err.Error(), err)
	}
}

// scan lists the project; false when the report was ended (not verified).
func (v *verifier) scan(ctx context.Context) bool {
	v.progress(StageScan, "", 0)
	t := time.Now()
	m, err := scan(ctx, v.src, v.req.Clone)
	v.rep.Timings.Scan = time.Since(t)
	if err != nil {
		v.stopOn(ctx, "scan", err, ReasonCopyFailed)
		return false
	}
	v.manifest = m
	return true
}

func (v *verifier) run(ctx context.Context) {
	rep := v.rep
	changed := filepath.Join(v.work, "changed")
	v.progress(StageCopy, "", 0)
	t := time.Now()
	var err error
	rep.Clone, err = v.copyTo(ctx, changed, v.manifest)
	rep.Timings.Copy = time.Since(t)
	if err != nil {
		v.stopOn(ctx, "copy", err, ReasonCopyFailed)
		return
	}
	v.progress(StageApply, "", 0)
	t = time.Now()
	err = v.apply(changed)
	rep.Timings.Apply = time.Since(t)
	if err != nil {
		v.notVerified(ReasonApplyFailed, err.Error(), err)
		return
	}
	for i := range rep.Commands {
		c := &rep.Commands[i]
		v.progress(StageRun, c.Command, i)
		res, err := v.runOne(ctx, changed, c.Command, v.req.Named)
		if err != nil {
			v.stopOn(ctx, "run "+c.Command, err, ReasonRunFailed)
			return
		}
		c.ExitCode, c.TimedOut, c.Duration = res.ExitCode, res.TimedOut, res.Duration
		c.Output, c.Failures = res.Output, res.Failures
		c.NamedFailing, c.NamedPassing = res.NamedFailing, res.NamedPassing
		c.Outcome = OutcomePassed // judged against the baseline below
		if !res.Passed() {
			c.Outcome = OutcomeFailed
		}
		if v.outOfSpace(res) {
			return
		}
		if c.Focused && !res.Passed() {
			break // the fix does not work: the suite cannot change that
		}
	}
	if !v.baselines(ctx, changed) {
		return
	}
	for i := range rep.Commands {
		judge(&rep.Commands[i])
	}
	rep.State, rep.Reason, rep.Detail, rep.NewFailures = decide(rep.Commands, v.req.Named)
}

// copyTo makes a copy of the scanned tree in the new folder dir.
func (v *verifier) copyTo(ctx context.Context, dir string, m *manifest) (CloneStats, error) {
	t := time.Now()
	if err := os.Mkdir(dir, 0o700); err != nil {
		return CloneStats{}, fmt.Errorf("create copy folder: %w", err)
	}
	st, err := copyTree(ctx, v.src, dir, m, v.req.Clone)
	st.Duration = time.Since(t)
	return st, err
}

func (v *verifier) apply(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("apply changes: %w", err)
	}
	defer root.Close()
	return applyChanges(root, v.req.Changes, v.req.Modes)
}

// ranCommand is a command's result with its output made relative to the copy.
type ranCommand struct {
	CommandResult
	Failures Failures
	// NamedFailing and NamedPassing are the named tests found in the output.
	NamedFailing, NamedPassing []string
}

// runOne runs a command in dir and parses its output, looking the named tests
// up in all of it. The error is the Runner's (could not start, cancelled).
func (v *verifier) runOne(ctx context.Context, dir, command string, named []string) (ranCommand, error) {
	res, err := v.req.Runner.Run(ctx, dir, command, v.timeout())
	v.rep.Timings.Commands += res.Duration
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return ranCommand{}, err
	}
	out := relativeTo(res.Output, dir)
	r := ranCommand{CommandResult: res, Failures: ParseFailures(out)}
	r.NamedFailing, r.NamedPassing = lookupNamed(named, r.Failures.Names, out)
	r.Output = tail(out, OutputTailBytes)
	return r, nil
}

// baselines attaches a baseline to the commands that need one, from the cache
// or by running them on an unchanged copy. It returns false when the report
// was ended (not verified).
func (v *verifier) baselines(ctx context.Context, changed string) bool {
	rep := v.rep
	var need []int
	for i, c := range rep.Commands {
		if c.Outcome == OutcomeNotRun {
			continue
		}
		if v.req.AlwaysBaseline || (!c.Focused && !(c.ExitCode == 0 && !c.TimedOut)) {
			need = append(need, i)
		}
	}
	if len(need) == 0 {
		return true
	}
	head := headCommit(v.src)
	keys := map[int]string{}
	var missing []int
	for _, i := range need {
		c := &rep.Commands[i]
		keys[i] = baselineKey(c.Command, v.timeout(), head, v.req.Clone, v.manifest)
		if v.req.Cache != nil {
			if b, ok := v.req.Cache.Load(keys[i]); ok && b.Command == c.Command {
				c.Baseline, c.BaselineCached = &b, true
				continue
			}
		}
		missing = append(missing, i)
	}
	if len(missing) == 0 {
		return true
	}
	// The changed copy has served: remove it first, so that at most one copy
	// takes room at a time.
	t := time.Now()
	if err := removeTree(changed); err != nil {
		v.notVerified(ReasonCopyFailed, err.Error(), err)
		return false
	}
	rep.Timings.Cleanup += time.Since(t)
	dir := filepath.Join(v.work, "baseline")
	v.progress(StageBaselineCopy, "", 0)
	t = time.Now()
	st, err := v.copyTo(ctx, dir, v.manifest)
	rep.Timings.BaselineCopy = time.Since(t)
	rep.BaselineClone = &st
	if err != nil {
		v.stopOn(ctx, "baseline copy", err, ReasonCopyFailed)
		return false
	}
	for _, i := range missing {
		c := &rep.Commands[i]
		v.progress(StageBaseline, c.Command, i)
		res, err := v.runOne(ctx, dir, c.Command, nil)
		if err != nil {
			v.stopOn(ctx, "baseline run "+c.Command, err, ReasonRunFailed)
			return false
		}
		if v.outOfSpace(res) {
			return false
		}
		b := BaselineResult{Command: c.Command, ExitCode: res.ExitCode, TimedOut: res.TimedOut,
			Duration: res.Duration, Failures: res.Failures, Output: res.Output, Created: time.Now()}
		c.Baseline = &b
		// A project edited during the copy, or a run that timed out, is not a
		// baseline to trust next time.
		if v.req.Cache != nil && st.Changed == 0 && !res.TimedOut {
			_ = v.req.Cache.Store(keys[i], b)
		}
	}
	return true
}

// outOfSpace ends the report as not verified when a command failed because
// the copy's file system is full: that says nothing about the plan.
func (v *verifier) outOfSpace(res ranCommand) bool {
	if res.Passed() || !(strings.Contains(res.Output, "No space left on device") || strings.Contains(res.Output, "ENOSPC")) {
		return false
	}
	v.notVerified(ReasonNoSpace, "the file system of "+v.rep.Scratch+" ran out of space during a check", syscall.ENOSPC)
	return true
}

// relativeTo replaces the copy's folder in output with "." (and "dir/x" with
// "x"), under each spelling of the folder (macOS reports /private/var for
// /var), longest first.
func relativeTo(output, dir string) string {
	forms := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		forms = append(forms, real)
	}
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	for _, f := range forms {
		output = strings.ReplaceAll(output, f+string(filepath.Separator), "")
		if filepath.Separator != '/' {
			output = strings.ReplaceAll(output, filepath.ToSlash(f)+"/", "")
		}
		output = strings.ReplaceAll(output, f, ".")
	}
	return output
}
