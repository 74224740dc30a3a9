package verify

import (
	"context"
	"time"
)

// Runner runs one approved command in a folder. The session provides it: it
// kills the command's whole process group when ctx is cancelled or timeout
// passes, and removes API keys from the environment.
//
// Run returns the result of a command that ran, whatever its exit code; it
// returns an error only when the command could not be started, or with
// ctx.Err() when ctx was cancelled.
type Runner interface {
	Run(ctx context.Context, dir, command string, timeout time.Duration) (CommandResult, error)
}

// CommandResult is what a Runner reports about one command.
type CommandResult struct {
	// ExitCode is the command's exit status (-1 when it was killed).
	ExitCode int `json:"exit_code"`
	// Output is the end of the combined stdout and stderr. verify reads the
	// failing tests' names from all of it, so keep a generous tail (256 KB is
	// plenty); reports keep only the last OutputTailBytes.
	Output   string        `json:"output"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Passed reports a command that exited with 0 before its time ran out.
func (r CommandResult) Passed() bool { return r.ExitCode == 0 && !r.TimedOut }

// OutputTailBytes is how much of a command's output a Report keeps.
const OutputTailBytes = 8 << 10

// DefaultTimeout is the time one command gets when Request.Timeout is 0.
const DefaultTimeout = 10 * time.Minute

// tail returns the last n bytes of s, starting at a line (or at least a
// UTF-8 character) boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for i := 0; i < len(s) && i < 512; i++ {
		if s[i] == '\n' {
			return s[i+1:]
		}
	}
	for i := 0; i < len(s) && i < 4; i++ {
		if s[i]&0xC0 != 0x80 {
			return s[i:]
		}
	}
	return s
}
