package verify

import (
	"fmt"
	"strings"
	"time"
)

// State is the verdict on a plan.
type State string

const (
	// StateVerified: every command passed after the change, or the focused
	// command passed (or, without one, every test the problem names was found
	// passing) and the suite has no failure the unchanged project lacked.
	StateVerified State = "verified"
	// StatePartly: the focused command passed (or the named tests), but the
	// suite has failures the unchanged project did not have
	// (Report.NewFailures).
	StatePartly State = "partly"
	// StateFailed: the focused command still fails, a test the problem names
	// still fails in a command's output, or a command fails in a way the
	// unchanged project's run does not explain (see the command's Output).
	StateFailed State = "failed"
	// StateNotVerified: nothing could be concluded (Report.Reason says why).
	StateNotVerified State = "not_verified"
)

// Reason says why a Report has its State; the edge (app, CLI) words it.
type Reason string

const (
	ReasonNone         Reason = ""
	ReasonNoCommand    Reason = "no_command"    // no command to run
	ReasonTooLarge     Reason = "too_large"     // the project is above CloneOptions' bounds
	ReasonCancelled    Reason = "cancelled"     // ctx was cancelled
	ReasonCopyFailed   Reason = "copy_failed"   // the copy could not be made (disk full, unreadable project)
	ReasonApplyFailed  Reason = "apply_failed"  // the changes could not be written into the copy
	ReasonRunFailed    Reason = "run_failed"    // the Runner could not start a command
	ReasonNoSpace      Reason = "no_space"      // a command failed because the copy's file system is full
	ReasonInconclusive Reason = "inconclusive"  // no focused command, no named test found, and the suite fails before and after alike
	ReasonFocusedFails Reason = "focused_fails" // the focused command fails after the change
	ReasonNamedFails   Reason = "named_fails"   // a test the problem names still fails after the change
	ReasonNamedPass    Reason = "named_pass"    // verified: the named tests pass; the suite's other failures predate the change
	ReasonCommandFails Reason = "command_fails" // a command fails and the baseline does not explain it
	ReasonNewFailures  Reason = "new_failures"  // the suite has new failing tests
)

// Outcome is one command's result compared with the baseline.
type Outcome string

const (
	OutcomePassed      Outcome = "passed"
	OutcomeFailed      Outcome = "failed"       // focused and failing, or failing unexplained
	OutcomeNewFailures Outcome = "new_failures" // failing tests the baseline did not have
	OutcomePreexisting Outcome = "preexisting"  // fails only the way the unchanged project does
	OutcomeNotRun      Outcome = "not_run"      // the focused command failed first, or verification stopped
)

// CommandReport is one command's run on the changed copy.
type CommandReport struct {
	Command  string        `json:"command"`
	Focused  bool          `json:"focused,omitempty"`
	Outcome  Outcome       `json:"outcome"`
	ExitCode int           `json:"exit_code"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	// Output is the last OutputTailBytes of the output; the copy's folder is
	// replaced by "." so paths read as in the project.
	Output      string   `json:"output"`
	Failures    Failures `json:"failures"`
	NewFailures []string `json:"new_failures,omitempty"`
	// Baseline is the same command on the unchanged project, when it was needed
	// (a suite command that failed) or asked for (Request.AlwaysBaseline).
	Baseline       *BaselineResult `json:"baseline,omitempty"`
	BaselineCached bool            `json:"baseline_cached,omitempty"`
	// Note says how the comparison was made when it is weaker than by test
	// names ("compared by exit code only").
	Note string `json:"note,omitempty"`
	// NamedFailing and NamedPassing are the tests of Request.Named this
	// output shows failing or passing.
	NamedFailing []string `json:"named_failing,omitempty"`
	NamedPassing []string `json:"named_passing,omitempty"`
}

// BaselineExitCode is the baseline's exit code, or -1 without a baseline.
func (c CommandReport) BaselineExitCode() int {
	if c.Baseline == nil {
		return -1
	}
	return c.Baseline.ExitCode
}

// Timings split a verification's wall time; Overhead is what verify itself
// costs beyond the commands.
type Timings struct {
	Scan         time.Duration `json:"scan_ns"`
	Copy         time.Duration `json:"copy_ns"`
	Apply        time.Duration `json:"apply_ns"`
	BaselineCopy time.Duration `json:"baseline_copy_ns"`
	Commands     time.Duration `json:"commands_ns"`
	Cleanup      time.Duration `json:"cleanup_ns"`
	Total        time.Duration `json:"total_ns"`
}

// Overhead is Total less the time spent in commands.
func (t Timings) Overhead() time.Duration { return t.Total - t.Commands }

// Report is the outcome of Verify.
type Report struct {
	State  State  `json:"state"`
	Reason Reason `json:"reason,omitempty"`
	// Detail is a one-line technical explanation for logs (the edge words it
	// for people).
	Detail string `json:"detail,omitempty"`
	// Err is the error behind a not_verified report (errors.Is ErrTooLarge,
	// context.Canceled, …) or a failed clean-up.
	Err      error           `json:"-"`
	Commands []CommandReport `json:"commands"`
	// NewFailures are the failing tests the change introduced, over all commands.
	NewFailures   []string    `json:"new_failures,omitempty"`
	Clone         CloneStats  `json:"clone"`
	BaselineClone *CloneStats `json:"baseline_clone,omitempty"`
	// Scratch is the folder the copies were made in (and removed from).
	Scratch string  `json:"scratch,omitempty"`
	Timings Timings `json:"timings"`
}

// judge sets a command's Outcome from its result and its baseline.
func judge(c *CommandReport) {
	if c.Outcome == OutcomeNotRun {
		return
	}
	c.NewFailures, c.Note = nil, ""
	switch {
	case c.ExitCode == 0 && !c.TimedOut:
		c.Outcome = OutcomePassed
	case c.Focused:
		c.Outcome = OutcomeFailed
	case len(c.NamedFailing) > 0:
		// The failing test still fails: no baseline explains that. What else
		// fails that did not before is said too.
		c.Outcome = OutcomeFailed
		if c.Baseline != nil {
			for _, n := range newFailures(c.Failures.Names, c.Baseline.Failures.Names) {
				if !anySame(n, c.NamedFailing) {
					c.NewFailures = append(c.NewFailures, n)
				}
			}
		}
	case c.Baseline == nil:
		c.Outcome = OutcomeFailed
	case c.Baseline.Passed():
		if len(c.Failures.Names) > 0 {
			c.Outcome, c.NewFailures = OutcomeNewFailures, c.Failures.Names
		} else {
			c.Outcome = OutcomeFailed
		}
	case c.TimedOut:
		if c.Baseline.TimedOut {
			c.Outcome, c.Note = OutcomePreexisting, "timed out before the change too"
		} else {
			c.Outcome = OutcomeFailed
		}
	case len(c.Failures.Names) > 0:
		if nf := newFailures(c.Failures.Names, c.Baseline.Failures.Names); len(nf) > 0 {
			c.Outcome, c.NewFailures = OutcomeNewFailures, nf
		} else {
			c.Outcome = OutcomePreexisting
		}
	case len(c.Baseline.Failures.Names) == 0 && c.Baseline.ExitCode == c.ExitCode:
		c.Outcome, c.Note = OutcomePreexisting, "compared by exit code only"
	default:
		c.Outcome = OutcomeFailed
	}
}

// decide turns the judged commands into the report's verdict; named are the
// tests the problem names (Request.Named).
func decide(cmds []CommandReport, named []string) (State, Reason, string, []string) {
	hasFocused, focusedPassed := false, false
	var failed, namedFailed *CommandReport
	var newFails []string
	anyPre := false
	passing := map[string]bool{}
	for i := range cmds {
		c := &cmds[i]
		if c.Focused {
			hasFocused, focusedPassed = true, c.Outcome == OutcomePassed
		}
		for _, n := range c.NamedPassing {
			passing[n] = true
		}
		switch c.Outcome {
		case OutcomeFailed:
			if failed == nil {
				failed = c
			}
			if namedFailed == nil && len(c.NamedFailing) > 0 {
				namedFailed = c
			}
			newFails = append(newFails, c.NewFailures...)
		case OutcomeNewFailures:
			newFails = append(newFails, c.NewFailures...)
		case OutcomePreexisting:
			anyPre = true
		}
	}
	namedPass := len(named) > 0
	for _, n := range named {
		namedPass = namedPass && passing[n]
	}
	switch {
	case failed != nil && failed.Focused:
		return StateFailed, ReasonFocusedFails, fmt.Sprintf("focused command %q still fails (%s)", failed.Command, exitText(*failed)), nil
	case namedFailed != nil:
		return StateFailed, ReasonNamedFails, fmt.Sprintf("the test(s) named in the problem still fail in %q: %s", namedFailed.Command, listNames(namedFailed.NamedFailing)), newFails
	case failed != nil:
		return StateFailed, ReasonCommandFails, fmt.Sprintf("command %q fails (%s) and failed differently or not at all before the change", failed.Command, exitText(*failed)), newFails
	case len(newFails) > 0 && (hasFocused && focusedPassed || !hasFocused && namedPass):
		return StatePartly, ReasonNewFailures, fmt.Sprintf("the failing test passes; %d test(s) fail that passed before: %s", len(newFails), listNames(newFails)), newFails
	case len(newFails) > 0:
		return StateFailed, ReasonCommandFails, fmt.Sprintf("%d test(s) fail that passed before: %s", len(newFails), listNames(newFails)), newFails
	case anyPre && !hasFocused && namedPass:
		return StateVerified, ReasonNamedPass, fmt.Sprintf("the test(s) named in the problem pass (%s); the suite's other failures are those of the unchanged project", listNames(named)), nil
	case anyPre && !hasFocused:
		return StateNotVerified, ReasonInconclusive, "the suite fails before and after the change alike, no focused command ran and the output does not show the tests the problem names", nil
	}
	return StateVerified, ReasonNone, "", nil
}

func exitText(c CommandReport) string {
	if c.TimedOut {
		return "timed out"
	}
	return fmt.Sprintf("exit code %d", c.ExitCode)
}

func listNames(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}
