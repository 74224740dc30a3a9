package session

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fixplan/apply"
	"fixplan/plan"
	"fixplan/redact"
	"fixplan/verify"
)

// Verified plans: before the user reviews a plan, it is applied to a throwaway
// copy of the project and the approved checks run there, compared with the same
// checks on the unchanged copy (package verify). The user's project is never
// touched. Only commands the user approved run; approvals are remembered per
// project in the user's config folder.

// Check is a command that can verify a plan, and whether the user approved it.
type Check struct {
	Command  string `json:"command"`
	Focused  bool   `json:"focused"`
	Source   string `json:"source"` // "failing test", "remembered test command", "plan"
	Approved bool   `json:"approved"`
	// FromProject: the command was chosen by the project (its .fixplan/project.json)
	// or by the model (the plan), not derived by fixplan or set by the user; a
	// blanket "yes" never approves it.
	FromProject bool `json:"from_project"`
}

// Checks lists the commands that could verify rec: the focused command derived
// from the problem (when fixplan recognises the runner), the project's
// remembered test command and the plan's own commands_to_run.
func (s *Session) Checks(rec *plan.Record) []Check {
	var out []Check
	seen := map[string]bool{}
	approved, suite := s.approvals.Snapshot(s.root)
	add := func(cmd, source string, focused, fromProject bool) {
		cmd = strings.TrimSpace(cmd)
		if cmd == "" || seen[cmd] {
			return
		}
		seen[cmd] = true
		out = append(out, Check{Command: cmd, Focused: focused, Source: source, Approved: approved[cmd], FromProject: fromProject})
	}
	if cmd, ok := verify.FocusedCommand(rec.Input.Problem, s.gath.Exists); ok {
		add(cmd, "failing test", true, false)
	}
	var test string
	if ok, _ := s.mem.Get(plan.KeyDefaultTestCommand, &test); ok {
		if o, ok := s.mem.ProposedByModel(plan.KeyDefaultTestCommand); ok {
			add(test, fmt.Sprintf("test command the model proposed in plan %s (applied %s), from the project's .fixplan/project.json (it may have come with the project)", o.Plan, o.Accepted), false, true)
		} else if s.mem.FromProject(plan.KeyDefaultTestCommand) {
			add(test, "test command from the project's .fixplan/project.json (it may have come with the project)", false, true)
		} else {
			add(test, "your remembered test command", false, false)
		}
	}
	for _, c := range rec.Plan.Commands() {
		add(c, modelSource, false, true)
	}
	for _, c := range suite {
		add(c, "approved for this project", false, false)
	}
	return out
}

// PlanChecks lists the checks of the stored plan id (Checks). A plan this user's
// fixplan did not make is refused: its commands are never offered.
func (s *Session) PlanChecks(id string) ([]Check, error) {
	rec, err := s.eng.LoadPlan(id)
	if err != nil {
		return nil, err
	}
	if rec.Foreign {
		return nil, plan.ForeignPlan(id, "; its commands are never offered", "make your own plan with Fix (plan)")
	}
	return s.Checks(rec), nil
}

// ApprovedChecks lists the check commands approved for this project.
func (s *Session) ApprovedChecks() []string { return s.approvals.List(s.root) }

// ApproveCheck approves a check command for this project. A command fixplan
// derived for the problem's failing test is remembered as such: it verifies
// plans for that test, while other approved commands check every plan.
func (s *Session) ApproveCheck(command string) error { return s.approvals.Approve(s.root, command) }

// ApproveFocused approves a command derived for one failing test.
func (s *Session) ApproveFocused(command string) error {
	return s.approvals.ApproveFocused(s.root, command)
}

// RevokeCheck withdraws an approval.
func (s *Session) RevokeCheck(command string) error { return s.approvals.Revoke(s.root, command) }

// VerifyPlan verifies the stored plan id in a scratch copy with the approved
// checks and saves the result in the plan record. approve are approved first
// (and remembered); those that are not among the plan's candidate checks run as
// extra suite commands (the CLI's --check). A plan without approved checks is
// recorded as not verified, saying which commands could be approved.
func (s *Session) VerifyPlan(ctx context.Context, id string, approve []string) (*plan.Record, error) {
	return s.verifyPlan(ctx, id, approve, nil)
}

// verifyPlan is VerifyPlan of the plan as proposed (sel nil) or of the user's
// choices in it (review.go: VerifySelection).
func (s *Session) verifyPlan(ctx context.Context, id string, approve []string, sel *apply.Selection) (*plan.Record, error) {
	rec, err := s.eng.LoadPlan(id)
	if err != nil {
		return nil, err
	}
	if rec.Foreign {
		return nil, plan.ForeignPlan(id, "; it is never verified", "make your own plan with Fix (plan)")
	}
	focused, _ := verify.FocusedCommand(rec.Input.Problem, s.gath.Exists)
	for _, c := range approve {
		approveIt := s.approvals.Approve
		if c == focused {
			approveIt = s.approvals.ApproveFocused
		}
		if err := approveIt(s.root, c); err != nil {
			return nil, err
		}
	}
	v := s.verify(ctx, rec, approve, sel)
	v.Covers = covers(rec, sel)
	if rec.Verification != nil {
		v.Attempts = rec.Verification.Attempts
	}
	rec.Verification = v
	s.mu.Lock()
	err = s.eng.SavePlan(rec)
	s.mu.Unlock()
	if err != nil {
		return rec, fmt.Errorf("save the verification: %w", err)
	}
	return rec, nil
}

// verify runs the approved checks of rec in a scratch copy.
func (s *Session) verify(ctx context.Context, rec *plan.Record, extra []string, sel *apply.Selection) *plan.Verification {
	var focused string
	var suite []string
	var waiting []Check
	checks := s.Checks(rec)
	known := map[string]bool{}
	for _, c := range checks {
		known[c.Command] = true
	}
	for _, e := range extra {
		if e = strings.TrimSpace(e); e != "" && !known[e] {
			known[e] = true
			checks = append(checks, Check{Command: e, Source: "asked for", Approved: s.approvals.Approved(s.root, e)})
		}
	}
	for _, c := range checks {
		switch {
		case !MayRun(c, Consent{}):
			waiting = append(waiting, c)
		case c.Focused:
			focused = c.Command
		default:
			suite = append(suite, c.Command)
		}
	}
	if focused == "" && len(suite) == 0 {
		return &plan.Verification{State: plan.VerifyNotVerified, Commands: []plan.CheckResult{},
			Reason: "no check command is approved for this project, so nothing ran; " + approveHint(waiting)}
	}
	changes, modes, err := s.scratchChanges(rec, sel)
	if err != nil {
		return &plan.Verification{State: plan.VerifyNotVerified, Reason: "the plan's changes cannot be computed: " + err.Error(), Commands: []plan.CheckResult{}}
	}
	s.em.Emit(Event{Stage: StageVerify, Message: "verifying the plan in a scratch copy"})
	named := verify.NamedTests(rec.Input.Problem)
	req := verify.Request{Root: s.root, Changes: changes, Modes: modes, Focused: focused, Suite: suite, Named: named,
		Timeout: time.Duration(s.st.CheckTimeoutSeconds) * time.Second, Runner: checkRunner{s.secrets}, Cache: s.baselines,
		Progress: func(p verify.Progress) {
			msg := "verifying: " + string(p.Stage)
			if p.Command != "" {
				msg += " — " + p.Command
			}
			s.em.Emit(Event{Stage: StageVerify, Message: msg})
		}}
	rep, err := verify.Verify(ctx, req)
	if err != nil {
		return &plan.Verification{State: plan.VerifyNotVerified, Reason: "verification could not start: " + err.Error(), Commands: []plan.CheckResult{}}
	}
	v := s.toVerification(rep)
	if rep.Reason == verify.ReasonInconclusive {
		v.Reason = inconclusiveText(named) + "; " + approveHint(waiting)
	}
	if sel != nil {
		v.Reason += "; this verdict is about your choices (the ticked files, the accepted hunks and your own text), not the plan as proposed"
	}
	var tests []string
	for p := range changes {
		if isTestPath(p) {
			tests = append(tests, p)
		}
	}
	if len(tests) > 0 && v.State != plan.VerifyNotVerified {
		sort.Strings(tests)
		v.Reason += "; note: the plan changes tests or their configuration (" + strings.Join(limitStrings(tests, 3), ", ") + "), so a pass may come from the changed tests"
	}
	return v
}

// isTestPath reports files that decide what a test run checks: test sources and
// test configuration. A plan that changes them can make a check pass without
// fixing anything.
func isTestPath(p string) bool {
	base := strings.ToLower(path.Base(p))
	for _, seg := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		switch seg {
		case "test", "tests", "__tests__", "spec", "testdata":
			return true
		}
	}
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.HasSuffix(base, "_test.py"), base == "conftest.py", base == "pytest.ini", base == "tox.ini",
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."), strings.HasPrefix(base, "jest.config"),
		strings.HasPrefix(base, "vitest.config"), base == "package.json", base == "makefile", base == "cargo.toml":
		return true
	}
	return false
}

// scratchChanges are the plan's file changes as verify takes them: as proposed,
// or as the user chose them (sel: ticked files, accepted hunks, own text).
func (s *Session) scratchChanges(rec *plan.Record, sel *apply.Selection) (map[string]*[]byte, map[string]fs.FileMode, error) {
	var cs []apply.Change
	var err error
	if sel != nil {
		cs, err = s.eng.SelectedChanges(rec.ID, *sel)
	} else {
		cs, err = s.eng.Changes(&rec.Plan)
	}
	if err != nil {
		return nil, nil, err
	}
	changes := map[string]*[]byte{}
	modes := map[string]fs.FileMode{}
	for _, c := range cs {
		switch c.Op {
		case plan.OpDelete:
			changes[c.Path] = nil
		case plan.OpCreate, plan.OpUpdate:
			b := c.After
			changes[c.Path] = &b
			if c.Mode != 0 && c.Mode != c.BeforeMode {
				modes[c.Path] = c.Mode
			}
		}
	}
	return changes, modes, nil
}

// toVerification words a report for the record (outputs redacted).
func (s *Session) toVerification(rep verify.Report) *plan.Verification {
	v := &plan.Verification{State: string(rep.State), Commands: []plan.CheckResult{}, NewFailures: rep.NewFailures,
		OverheadMS: rep.Timings.Overhead().Milliseconds()}
	v.Reason = reasonText(rep)
	for _, c := range rep.Commands {
		out, _ := redact.Text(c.Output)
		out = s.secrets.text(out)
		v.Commands = append(v.Commands, plan.CheckResult{Command: c.Command, Focused: c.Focused, Outcome: string(c.Outcome),
			ExitCode: c.ExitCode, TimedOut: c.TimedOut, DurationMS: c.Duration.Milliseconds(), Output: out,
			Failures: c.Failures.Names, NewFailures: c.NewFailures, BaselineExitCode: c.BaselineExitCode()})
	}
	return v
}

func reasonText(rep verify.Report) string {
	switch rep.Reason {
	case verify.ReasonNone:
		if rep.State == verify.StateVerified {
			passed := 0
			for _, c := range rep.Commands {
				if c.Outcome == verify.OutcomePassed {
					passed++
				}
			}
			return fmt.Sprintf("%d of %d checks pass with the change", passed, len(rep.Commands))
		}
	case verify.ReasonNoCommand:
		return "no check command to run"
	case verify.ReasonTooLarge:
		return "the project is too large to verify in a copy"
	case verify.ReasonCancelled:
		return "verification was cancelled"
	case verify.ReasonCopyFailed:
		return "the project could not be copied: " + rep.Detail
	case verify.ReasonApplyFailed:
		return "the changes could not be written into the copy: " + rep.Detail
	case verify.ReasonRunFailed:
		return "a check could not be started: " + rep.Detail
	case verify.ReasonInconclusive:
		return inconclusiveText(nil)
	case verify.ReasonFocusedFails:
		return "the failing test still fails with the change"
	case verify.ReasonNamedFails:
		var still []string
		for _, c := range rep.Commands {
			if len(c.NamedFailing) > 0 {
				still = c.NamedFailing
				break
			}
		}
		why := "the failing test named in the problem still fails with the change: " + strings.Join(limitStrings(still, 5), ", ")
		if len(rep.NewFailures) > 0 {
			why += fmt.Sprintf("; %d other test(s) fail that passed before: %s", len(rep.NewFailures), strings.Join(limitStrings(rep.NewFailures, 5), ", "))
		}
		return why
	case verify.ReasonNamedPass:
		return "the failing test named in the problem passes with the change; the suite's other failures are the same as before it"
	case verify.ReasonCommandFails:
		return "a check fails with the change, and did not before"
	case verify.ReasonNewFailures:
		return fmt.Sprintf("%d new failure(s): %s", len(rep.NewFailures), strings.Join(limitStrings(rep.NewFailures, 5), ", "))
	}
	return string(rep.Reason)
}

// inconclusiveText says why a suite that fails alike before and after the
// change concludes nothing.
func inconclusiveText(named []string) string {
	why := "the suite fails the same way before and after the change, and there is no focused test"
	if len(named) > 0 {
		return why + "; the test named in the problem (" + strings.Join(limitStrings(named, 3), ", ") + ") does not show in its output"
	}
	return why + "; the problem names no failing test to look for in its output"
}

// approveHint says exactly what to approve to get a verdict: the focused test
// derived from the problem (the CLI's --yes approves it), or another waiting
// check (those the project or the model chose are approved only by name), or
// a check to add when there is none.
func approveHint(waiting []Check) string {
	var focused *Check
	var others []string
	for i, c := range waiting {
		if c.Focused {
			focused = &waiting[i]
		} else {
			others = append(others, c.Command+" ("+c.Source+"): fixplan checks approve "+verify.ShellQuote(c.Command))
		}
	}
	var b strings.Builder
	if focused != nil {
		fmt.Fprintf(&b, "to get a verdict, approve the focused test `%s`: run fixplan plan --verify again with --yes, or approve it once with fixplan checks approve %s (in the window: tick it under Verify)",
			focused.Command, verify.ShellQuote(focused.Command))
		if len(others) > 0 {
			b.WriteString("; or a suite check: " + strings.Join(others, " | "))
		}
		return b.String()
	}
	b.WriteString("fixplan derives no focused test from this problem; to get a verdict, add a check that runs the failing test (fixplan plan --verify --check CMD, or Verify in the window)")
	if len(others) > 0 {
		b.WriteString(", or approve one: " + strings.Join(others, " | "))
	}
	return b.String()
}

func limitStrings(ss []string, n int) []string {
	if len(ss) > n {
		return append(ss[:n:n], fmt.Sprintf("… %d more", len(ss)-n))
	}
	return ss
}

// PlanVerified makes a plan and, when it has changes, verifies it (checks as in
// VerifyPlan's approve); a plan that
// fails verification goes back to the model with the (redacted) check output as
// the "verification" log, up to attempts times. The final plan carries the
// earlier attempts in Verification.Attempts.
func (s *Session) PlanVerified(ctx context.Context, in plan.ProblemInput, attempts int, checks []string) (*plan.Record, error) {
	rec, err := s.Plan(ctx, in)
	if err != nil || len(rec.Changes) == 0 {
		return rec, err
	}
	if rec, err = s.VerifyPlan(ctx, rec.ID, checks); err != nil {
		return rec, err
	}
	var history []plan.VerifyAttempt
	for i := 0; i < attempts && repairable(rec.Verification); i++ {
		if ctx.Err() != nil {
			break
		}
		history = append(history, attemptOf(rec))
		next := in
		next.Previous = rec.ID
		next.Logs = append(append([]plan.LogSource{}, in.Logs...), plan.LogSource{Source: "verification", Text: verificationLog(rec.Verification)})
		s.em.Emit(Event{Stage: StageVerify, Message: fmt.Sprintf("verification %s; asking the model again (attempt %d of %d)", rec.Verification.State, i+2, attempts+1)})
		nrec, err := s.Plan(ctx, next)
		if err != nil || len(nrec.Changes) == 0 {
			history = history[:len(history)-1]
			if err != nil {
				rec.Warnings = append(rec.Warnings, "a repair attempt after verification failed: "+oneLine(err.Error()))
			} else {
				rec.Warnings = append(rec.Warnings, "the model's repair attempt proposed no changes; this is the last plan that did")
			}
			break
		}
		if nrec, err = s.VerifyPlan(ctx, nrec.ID, checks); err != nil {
			return nrec, err
		}
		rec = nrec
	}
	if len(history) > 0 || len(rec.Warnings) > 0 {
		rec.Verification.Attempts = append(history, rec.Verification.Attempts...)
		s.mu.Lock()
		err = s.eng.SavePlan(rec)
		s.mu.Unlock()
	}
	return rec, err
}

func repairable(v *plan.Verification) bool {
	return v != nil && (v.State == plan.VerifyFailed || v.State == plan.VerifyPartly)
}

func attemptOf(rec *plan.Record) plan.VerifyAttempt {
	a := plan.VerifyAttempt{PlanID: rec.ID, Summary: rec.Plan.Summary, State: rec.Verification.State, Reason: rec.Verification.Reason,
		NewFailures: rec.Verification.NewFailures}
	for _, c := range rec.Verification.Commands {
		if c.Outcome != "passed" && c.Outcome != "not_run" {
			a.Output = tailString(c.Output, 2000)
			break
		}
	}
	return a
}

// verificationLog is the check output the model gets back: each command, its
// outcome and the end of its output (already redacted), bounded.
func verificationLog(v *plan.Verification) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Verification of your previous plan in a copy of the project: %s (%s).\n", v.State, v.Reason)
	for _, c := range v.Commands {
		fmt.Fprintf(&b, "$ %s\n[%s, exit %d", c.Command, c.Outcome, c.ExitCode)
		if len(c.NewFailures) > 0 {
			fmt.Fprintf(&b, ", new failures: %s", strings.Join(c.NewFailures, ", "))
		}
		b.WriteString("]\n")
		if c.Outcome != "passed" {
			b.WriteString(tailString(c.Output, 6000))
			if !strings.HasSuffix(c.Output, "\n") {
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

func tailString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < 200 {
		s = s[i+1:]
	}
	return "…" + s
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// checkRunner runs verification checks like approved commands: a shell in the
// copy, process group killed on cancel or timeout, provider keys removed from
// its environment and the known secrets from its output (before verify reads,
// reports or caches it as a baseline).
type checkRunner struct{ secrets scrubber }

func (c checkRunner) Run(ctx context.Context, dir, command string, timeout time.Duration) (verify.CommandResult, error) {
	// git in the copy must not find a repository around the scratch folder (a
	// dotfiles repo in the home folder, say) and change it.
	res, err := runCommand(ctx, dir, command, timeout, nil, []string{"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir)})
	if err != nil {
		return verify.CommandResult{}, err
	}
	if res.Stopped && ctx.Err() != nil {
		return verify.CommandResult{}, ctx.Err()
	}
	return verify.CommandResult{ExitCode: res.ExitCode, Output: c.secrets.text(res.Output), TimedOut: res.TimedOut,
		Duration: time.Duration(res.DurationMS) * time.Millisecond}, nil
}

var _ verify.Runner = checkRunner{}
