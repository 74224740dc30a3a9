//go:build unix

package verify

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// groupRunner is the Runner the tests use: sh -c in its own process group,
// the whole group killed on timeout or cancellation (as the session's runner
// does), combined output kept whole.
type groupRunner struct{ env []string }

var _ Runner = groupRunner{}

func (r groupRunner) Run(ctx context.Context, dir, command string, timeout time.Duration) (CommandResult, error) {
	start := time.Now()
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), r.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return CommandResult{}, err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	kill := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	res := CommandResult{}
	var err error
	select {
	case <-done:
	case <-timer.C:
		res.TimedOut = true
		kill()
		<-done
	case <-ctx.Done():
		kill()
		<-done
		err = ctx.Err()
	}
	res.ExitCode = cmd.ProcessState.ExitCode()
	res.Output = out.String()
	res.Duration = time.Since(start)
	return res, err
}
