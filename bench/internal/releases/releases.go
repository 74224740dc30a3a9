// Package releases fetches real releases of Go modules through the module proxy
// (`go mod download`) for the benchmarks, and turns two releases into the
// unified diff between them: the patch benchmark measures how each changed file
// applies, the overhead benchmark how fast the whole release diff applies.
package releases

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Pairs are the module releases (older, newer) both benchmarks diff.
var Pairs = [][2]string{
	{"github.com/google/uuid@v1.5.0", "github.com/google/uuid@v1.6.0"},
	{"github.com/bmatcuk/doublestar/v4@v4.9.0", "github.com/bmatcuk/doublestar/v4@v4.10.4"},
	{"github.com/bluekeyes/go-gitdiff@v0.8.0", "github.com/bluekeyes/go-gitdiff@v0.9.0"},
}

// Dir downloads mod ("path@version") into the module cache if needed and
// returns its folder (read-only: copy it before changing anything).
func Dir(mod string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w (is the module proxy reachable?)", mod, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", fmt.Errorf("go mod download %s: %w", mod, err)
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %s", mod, info.Error)
	}
	return info.Dir, nil
}

// CopyTree copies the regular files and folders of src into dst (created),
// writable by the user.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// TreeDiff is the git-style unified diff (a/ and b/ paths, no rename detection,
// text files only) that turns the tree oldDir into newDir, and how many files it
// changes. It needs git on PATH.
func TreeDiff(oldDir, newDir string) (string, int, error) {
	tmp, err := os.MkdirTemp("", "releases-")
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(tmp)
	run := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %w (install git)", strings.Join(args, " "), err)
		}
		return string(out), nil
	}
	if err := CopyTree(oldDir, tmp); err != nil {
		return "", 0, err
	}
	if _, err := run("init", "-q"); err != nil {
		return "", 0, err
	}
	if _, err := run("add", "-A"); err != nil {
		return "", 0, err
	}
	if _, err := run("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-q", "--no-gpg-sign", "-m", "older release"); err != nil {
		return "", 0, err
	}
	// Replace the work tree by the newer release and diff it against the commit.
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(tmp, e.Name())); err != nil {
				return "", 0, err
			}
		}
	}
	if err := CopyTree(newDir, tmp); err != nil {
		return "", 0, err
	}
	if _, err := run("add", "-A"); err != nil {
		return "", 0, err
	}
	diff, err := run("diff", "--cached", "--no-renames", "--no-color", "--no-ext-diff")
	if err != nil {
		return "", 0, err
	}
	if strings.Contains(diff, "\nBinary files ") {
		return "", 0, fmt.Errorf("%s → %s changes a binary file; pick releases with text changes only", oldDir, newDir)
	}
	return diff, strings.Count(diff, "\ndiff --git ") + boolInt(strings.HasPrefix(diff, "diff --git ")), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
