//go:build !windows

package codectx

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"fixplan/plan"
)

// The fake tools of this test are shell scripts.

func TestFulfilEnv(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":            "module x\n",
		"package-lock.json": "{}",
		".venv/pyvenv.cfg":  "home = /usr/bin\nversion = 3.12.1\n",
	})
	bin := t.TempDir()
	writeTree(t, bin, map[string]string{
		"go":     "#!/bin/sh\necho 'go version go1.99 linux/amd64'\n",
		"node":   "#!/bin/sh\nprintf '\\033[1mv20.1.0\\033[0m\\n'\n",
		"rustc":  "#!/bin/sh\nexec sleep 5\n",
		"python": "#!/bin/sh\nexit 3\n",
	})
	for _, n := range []string{"go", "node", "rustc", "python"} {
		if err := os.Chmod(filepath.Join(bin, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_DEFAULT_ENV", "")
	g := newGatherer(t, root, Options{ToolTimeout: 200 * time.Millisecond})
	g.lookPath = func(name string) (string, error) {
		p := filepath.Join(bin, name)
		if _, err := os.Stat(p); err != nil {
			return "", err
		}
		return p, nil
	}
	res := g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqEnv})
	if !res.OK {
		t.Fatal(res.Error)
	}
	for _, want := range []string{
		"env\nos: " + runtime.GOOS + "/" + runtime.GOARCH + "\n",
		"  go: go version go1.99 linux/amd64\n",
		"  node: v20.1.0\n",
		"package managers: go modules (go.mod), npm (package-lock.json)\n",
		"virtualenv: .venv/ (python 3.12.1, not active)\n",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("env lacks %q:\n%s", want, res.Text)
		}
	}
	for _, bad := range []string{"rustc", "python:"} {
		if strings.Contains(res.Text, bad) {
			t.Errorf("env lists %s, whose probe timed out or failed:\n%s", bad, res.Text)
		}
	}
}
