package codectx

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

// tool is one `name args...` version probe of the env section.
type tool struct {
	name string
	args []string
}

var tools = []tool{
	{"go", []string{"version"}},
	{"python3", []string{"--version"}},
	{"python", []string{"--version"}},
	{"node", []string{"--version"}},
	{"npm", []string{"--version"}},
	{"pnpm", []string{"--version"}},
	{"yarn", []string{"--version"}},
	{"deno", []string{"--version"}},
	{"bun", []string{"--version"}},
	{"java", []string{"-version"}},
	{"kotlin", []string{"-version"}},
	{"mvn", []string{"--version"}},
	{"gradle", []string{"--version"}},
	{"rustc", []string{"--version"}},
	{"cargo", []string{"--version"}},
	{"gcc", []string{"--version"}},
	{"clang", []string{"--version"}},
	{"dotnet", []string{"--version"}},
	{"ruby", []string{"--version"}},
	{"php", []string{"--version"}},
	{"git", []string{"--version"}},
}

// lockFiles maps a file in the root to the package manager it reveals.
var lockFiles = [][2]string{
	{"go.mod", "go modules"}, {"package-lock.json", "npm"}, {"yarn.lock", "yarn"},
	{"pnpm-lock.yaml", "pnpm"}, {"bun.lockb", "bun"}, {"bun.lock", "bun"}, {"deno.lock", "deno"},
	{"Pipfile.lock", "pipenv"}, {"poetry.lock", "poetry"}, {"uv.lock", "uv"}, {"pdm.lock", "pdm"},
	{"requirements.txt", "pip (requirements.txt)"}, {"pyproject.toml", "pyproject.toml"},
	{"Cargo.lock", "cargo"}, {"Cargo.toml", "cargo"}, {"Gemfile.lock", "bundler"}, {"composer.lock", "composer"},
	{"pom.xml", "maven"}, {"build.gradle", "gradle"}, {"build.gradle.kts", "gradle"},
	{"CMakeLists.txt", "cmake"}, {"Makefile", "make"}, {"packages.lock.json", "nuget"},
}

// ansiRe matches terminal colour/escape sequences some tools print even to a pipe.
var ansiRe = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

func lookPathFunc(name string) (string, error) { return exec.LookPath(name) }

// Env describes the environment as the model receives it: OS/arch, the versions
// of the tools found on PATH (each probe bounded by ToolTimeout), the package
// managers revealed by files in the root, and the virtualenv. The result is
// computed once per Gatherer (unless ctx was cancelled meanwhile).
func (g *Gatherer) Env(ctx context.Context) string {
	g.envMu.Lock()
	defer g.envMu.Unlock()
	if g.envText != "" {
		return g.envText
	}
	text := g.env(ctx)
	if ctx.Err() == nil {
		g.envText = text
	}
	return text
}

func (g *Gatherer) env(ctx context.Context) string {
	var b strings.Builder
	fmt.Fprintf(&b, "os: %s/%s\n", runtime.GOOS, runtime.GOARCH)
	versions := make([]string, len(tools))
	var wg sync.WaitGroup
	for i, t := range tools {
		p, err := g.lookPath(t.name)
		if err != nil {
			continue
		}
		wg.Go(func() { versions[i] = g.probe(ctx, p, t.args) })
	}
	wg.Wait()
	b.WriteString("tools on PATH:\n")
	any := false
	for i, t := range tools {
		if versions[i] != "" {
			fmt.Fprintf(&b, "  %s: %s\n", t.name, versions[i])
			any = true
		}
	}
	if !any {
		b.WriteString("  (none of the usual tools found)\n")
	}
	var pms []string
	seen := map[string]bool{}
	for _, lf := range lockFiles {
		if st, err := g.fsys.Stat(lf[0]); err == nil && st.Mode().IsRegular() && !seen[lf[1]] {
			seen[lf[1]] = true
			pms = append(pms, lf[1]+" ("+lf[0]+")")
		}
	}
	if len(pms) > 0 {
		fmt.Fprintf(&b, "package managers: %s\n", strings.Join(pms, ", "))
	} else {
		b.WriteString("package managers: none detected\n")
	}
	b.WriteString("virtualenv: " + g.virtualenv() + "\n")
	return b.String()
}

// probe runs one version command and returns the first non-empty line of its
// output, or "" on failure or timeout.
func (g *Gatherer) probe(ctx context.Context, path string, args []string) string {
	ctx, cancel := context.WithTimeout(ctx, g.opts.ToolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = g.root
	cmd.WaitDelay = g.opts.ToolTimeout
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		return ""
	}
	sc := bufio.NewScanner(strings.NewReader(ansiRe.ReplaceAllString(string(out), "")))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			if len(l) > 160 {
				l = l[:160]
			}
			return l
		}
	}
	return ""
}

// virtualenv describes the active or in-root Python virtualenv.
func (g *Gatherer) virtualenv() string {
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		return "active (" + filepath.Base(v) + ")"
	}
	if v := os.Getenv("CONDA_DEFAULT_ENV"); v != "" {
		return "conda env " + filepath.Base(v)
	}
	for _, d := range []string{".venv", "venv", "env"} {
		f, err := g.fsys.Open(filepath.Join(d, "pyvenv.cfg"))
		if err != nil {
			continue
		}
		ver := ""
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), "=")
			if ok && (strings.TrimSpace(k) == "version" || strings.TrimSpace(k) == "version_info") {
				ver = strings.TrimSpace(v)
			}
		}
		f.Close()
		if ver != "" {
			return d + "/ (python " + ver + ", not active)"
		}
		return d + "/ (not active)"
	}
	return "none"
}
