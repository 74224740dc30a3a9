package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// maxCommandOutput is how much of a command's output is kept (its tail).
const maxCommandOutput = 1 << 20

// CommandResult is the outcome of one verification command.
type CommandResult struct {
	Command    string `json:"command"`
	ExitCode   int    `json:"exit_code"`
	Output     string `json:"output"`
	TimedOut   bool   `json:"timed_out"`
	Stopped    bool   `json:"stopped"`
	DurationMS int64  `json:"duration_ms"`
}

// Summary is one line for people: "exit 0 in 1.2s", "timed out after 600s", ...
func (r CommandResult) Summary() string {
	d := time.Duration(r.DurationMS) * time.Millisecond
	switch {
	case r.Stopped:
		return fmt.Sprintf("stopped after %s", d.Round(time.Millisecond))
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s", d.Round(time.Second))
	}
	return fmt.Sprintf("exit %d in %s", r.ExitCode, d.Round(time.Millisecond))
}

// RunCommand runs one shell command (sh -c, or cmd /C on Windows) in root with a
// timeout, streaming output chunks to onOutput (may be nil) and keeping the last
// 1 MiB. Cancelling ctx stops it (Stopped); the whole process group is killed.
// It only fails when the command cannot be started; a non-zero exit is a result.
// Callers run a command only after the user approved that exact command. The
// command inherits fixplan's environment minus the API key variables of the
// well-known model providers (FIXPLAN_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY,
// ...): a check command runs project code, which has no business with the key.
func RunCommand(ctx context.Context, root, command string, timeout time.Duration, onOutput func(string)) (CommandResult, error) {
	return runCommand(ctx, root, command, timeout, onOutput, nil)
}

// pipeGrace is how long a finished (or killed) command's output pipes may stay
// open: a background process it started (`daemon &`, setsid) keeps them open
// and would otherwise hold fixplan until it exits.
const pipeGrace = 2 * time.Second

func runCommand(ctx context.Context, root, command string, timeout time.Duration, onOutput func(string), extraEnv []string) (CommandResult, error) {
	res := CommandResult{Command: command}
	if strings.TrimSpace(command) == "" {
		return res, errors.New("run command: the command is empty")
	}
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := shellCommand(command)
	cmd.Dir = root
	cmd.Env = append(commandEnv(os.Environ(), root), extraEnv...)
	cmd.WaitDelay = pipeGrace
	w := &tailWriter{max: maxCommandOutput, on: onOutput}
	cmd.Stdout, cmd.Stderr = w, w
	setProcessGroup(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("run command %q: %w", command, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
		killGroup(cmd) // what it left running in its process group goes with it
	case <-tctx.Done():
		killGroup(cmd)
		err = <-done
		if ctx.Err() != nil {
			res.Stopped = true
		} else {
			res.TimedOut = true
		}
	}
	res.DurationMS = time.Since(start).Milliseconds()
	res.Output = w.String()
	res.ExitCode = 0
	if errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil {
		// It exited; only a background process it left still held the output.
		err = nil
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			res.ExitCode = code
		}
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			res.ExitCode = ee.ExitCode()
		} else {
			res.ExitCode = -1
		}
	}
	if res.ExitCode == 0 && (res.Stopped || res.TimedOut) {
		res.ExitCode = -1
	}
	return res, nil
}

// providerKeyVars are the environment variables that carry model providers' API
// keys. RunCommand removes them from the environment of the commands it runs.
var providerKeyVars = []string{
	"FIXPLAN_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AZURE_OPENAI_API_KEY",
	"OPENROUTER_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "DEEPSEEK_API_KEY",
	"GEMINI_API_KEY", "GOOGLE_API_KEY", "TOGETHER_API_KEY", "FIREWORKS_API_KEY",
}

// commandEnv is environ without providerKeyVars (names compared case-insensitively,
// as Windows does) and, off Windows, with PWD naming dir: os/exec sets PWD only
// when Cmd.Env is nil.
func commandEnv(environ []string, dir string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == "" { // Windows' per-drive "=C:=C:\dir" entries
			out = append(out, kv)
			continue
		}
		if isProviderKeyVar(name) || (runtime.GOOS != "windows" && name == "PWD") {
			continue
		}
		out = append(out, kv)
	}
	if runtime.GOOS != "windows" {
		if abs, err := filepath.Abs(dir); err == nil {
			out = append(out, "PWD="+abs)
		}
	}
	return out
}

func isProviderKeyVar(name string) bool {
	for _, k := range providerKeyVars {
		if strings.EqualFold(name, k) {
			return true
		}
	}
	return false
}

// tailWriter keeps the last max bytes written and forwards every chunk.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
	max int
	cut bool
	on  func(string)
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	on := t.on
	t.mu.Unlock()
	if on != nil {
		on(string(p))
	}
	return len(p), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return "…[earlier output truncated]\n" + string(t.buf)
	}
	return string(t.buf)
}

// VerificationLog formats command results as the "verification" log source.
func VerificationLog(results []CommandResult) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "$ %s\n%s", r.Command, r.Output)
		if !strings.HasSuffix(r.Output, "\n") && r.Output != "" {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[%s]\n", r.Summary())
	}
	return b.String()
}
