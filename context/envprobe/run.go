package envprobe

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// probeAll runs the probes of run.facts[need] concurrently in a fresh empty
// folder outside the root, removed afterwards. Without such a folder nothing runs.
func (p *Probe) probeAll(ctx context.Context, run *probeRun, need []int, pathList string) {
	dir, err := p.probeDir()
	if err != nil {
		run.mu.Lock()
		for _, i := range need {
			run.final[i] = true
			run.facts[i].Version = run.stale[i]
		}
		run.mu.Unlock()
		return
	}
	defer os.RemoveAll(dir)
	environ := Environ(os.Environ(), p.root, pathList, dir)
	var wg sync.WaitGroup
	for _, i := range need {
		run.mu.Lock()
		path := run.facts[i].Path
		run.mu.Unlock()
		wg.Go(func() {
			v, timedOut := p.probe(ctx, path, tools[i].args, dir, environ)
			run.mu.Lock()
			defer run.mu.Unlock()
			run.final[i] = true
			run.facts[i].Version = v
			if timedOut && v == "" {
				run.facts[i].Probed = 0 // try again next time
			} else {
				run.facts[i].Probed = time.Now().Unix()
			}
		})
	}
	wg.Wait()
}

// probeDir makes a fresh empty folder for the probes to start in: in the env
// cache's folder (inside the user's config folder, whose parents belong to the
// user, unlike a shared /tmp where anyone may leave a .mvn/ or a
// rust-toolchain.toml for tools walking up from their folder to find), else in
// the system temp folder; never inside the root.
func (p *Probe) probeDir() (string, error) {
	var parents []string
	if c := p.envCachePath(); c != "" {
		parents = append(parents, filepath.Dir(c))
	}
	parents = append(parents, os.TempDir())
	for _, parent := range parents {
		if err := os.MkdirAll(parent, 0o700); err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(parent)
		if err != nil || inside(p.root, real) {
			continue
		}
		if d, err := os.MkdirTemp(real, "probe-"); err == nil {
			return d, nil
		}
	}
	return "", errors.New("make probe folder: no folder outside the project root")
}

// probe runs one version command in dir with environ and returns the first
// non-empty line of its output ("" on failure), and whether it was stopped at
// ToolTimeout.
func (p *Probe) probe(ctx context.Context, path string, args []string, dir string, environ []string) (string, bool) {
	ctx, cancel := context.WithTimeout(ctx, p.opts.ToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = environ
	cmd.WaitDelay = p.opts.ToolTimeout
	out := NewCappedBuffer(maxProbeOutput)
	cmd.Stdout, cmd.Stderr = out, out
	_ = cmd.Run() // a failing probe may still have printed its version
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
	sc := bufio.NewScanner(strings.NewReader(ansiRe.ReplaceAllString(string(out.Bytes()), "")))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			if len(l) > maxVersionLen {
				l = l[:maxVersionLen]
			}
			return strings.ToValidUTF8(l, ""), timedOut
		}
	}
	return "", timedOut
}

// CappedBuffer keeps the first max bytes written to it (the output of a tool,
// which may write without end).
type CappedBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (c *CappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// NewCappedBuffer returns a CappedBuffer that keeps max bytes.
func NewCappedBuffer(max int) *CappedBuffer { return &CappedBuffer{max: max} }

// Bytes returns what was kept.
func (c *CappedBuffer) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.b
}
