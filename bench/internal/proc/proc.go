// Package proc runs the commands a benchmark times and reports their times:
// a command run to its end (Run), repeated timings and their median (Times),
// and the fake OpenAI-compatible provider started for a plan (StartFake).
package proc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Run runs name with args in dir, with env added to this process's
// environment; the error carries what the command printed.
func Run(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stderr = &out
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return nil
}

// Times are the durations of repeated runs of one measurement.
type Times []time.Duration

// Time runs f once and adds its duration to ts.
func (ts *Times) Time(f func() error) error {
	t0 := time.Now()
	if err := f(); err != nil {
		return err
	}
	*ts = append(*ts, time.Since(t0))
	return nil
}

// Sorted is ts from the shortest to the longest.
func (ts Times) Sorted() Times {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s
}

// Median is the median of ts (0 for none).
func (ts Times) Median() time.Duration {
	if len(ts) == 0 {
		return 0
	}
	return ts.Sorted()[len(ts)/2]
}

// Range is "min–max" of ts in milliseconds.
func (ts Times) Range() string {
	if len(ts) == 0 {
		return ""
	}
	s := ts.Sorted()
	return Ms(s[0]) + "–" + Ms(s[len(s)-1])
}

// Ms is d in milliseconds with one decimal, as "12.3 ms".
func Ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// StartFake starts the fake provider bin (scripts/desktop/fakeprovider) serving
// the scripted replies of the file replies; it returns the server's URL and a
// function that stops it and reports a scripted reply never asked for.
func StartFake(bin, replies string) (url string, stop func() error, err error) {
	cmd := exec.Command(bin, "-replies", replies)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ready ") {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return "", nil, fmt.Errorf("fake provider did not start: %q %v %s", line, err, stderr.String())
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "ready ")), func() error {
		_ = cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("fake provider: %v: %s", err, stderr.String())
		}
		return nil
	}, nil
}
