package codectx

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
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
var ansiRe = lazyRegexp(`\x1b\[[0-9;?]*[A-Za-z]`)

// pendingVersion stands for a tool whose probe is still running.
const pendingVersion = "installed (version not known yet)"

// maxProbeOutput bounds what is kept of a probe's output.
const maxProbeOutput = 64 << 10

// envState is the Gatherer's env section state.
type envState struct {
	mu   sync.Mutex
	text string    // the complete section, once known
	run  *probeRun // probes started by an earlier call
	bg   sync.WaitGroup

	pathMu  sync.Mutex
	pathSet bool
	pathRaw string // $PATH when path was computed
	path    string // toolPATH
}

// probeRun is one batch of version probes; done is closed when every probe has
// ended and the cache has been written.
type probeRun struct {
	done  chan struct{}
	mu    sync.Mutex
	facts []toolFact // in the order of tools
	final []bool     // facts[i].Version is this run's answer
	stale []string   // a version known from before, shown while its re-probe runs
}

// Env describes the environment as the model receives it: OS/arch, the versions
// of the tools found on PATH, the package managers revealed by files in the root,
// and the virtualenv.
//
// Versions come from the env cache (Options.EnvCachePath) when it knows the
// binaries on PATH; otherwise `tool --version` probes run concurrently, each
// bounded by ToolTimeout, and Env waits for them at most EnvWait: a slower probe
// is reported as "installed (version not known yet)" and finishes in the
// background for the cache. Probes never run anything the project chooses: they
// start outside the root with a scrubbed environment and PATH (see lookTool and
// probeEnviron). The section is computed once per Gatherer once it is complete.
func (g *Gatherer) Env(ctx context.Context) string {
	g.env.mu.Lock()
	defer g.env.mu.Unlock()
	if g.env.text != "" {
		return g.env.text
	}
	versions, complete := g.toolVersions(ctx)
	text := g.envText(versions)
	if complete {
		g.env.text = text
	}
	return text
}

func (g *Gatherer) envText(versions []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "os: %s/%s\n", runtime.GOOS, runtime.GOARCH)
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
		if st, err := g.files.Stat(lf[0]); err == nil && st.Mode().IsRegular() && !seen[lf[1]] {
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

// toolVersions returns one version line per tool ("" = not found or the probe
// failed) and whether every line is final. g.env.mu is held.
func (g *Gatherer) toolVersions(ctx context.Context) ([]string, bool) {
	run := g.env.run
	if run == nil {
		var versions []string
		run, versions = g.startProbes(ctx)
		if run == nil {
			return versions, true
		}
		g.env.run = run
	}
	timer := time.NewTimer(g.opts.EnvWait)
	defer timer.Stop()
	select {
	case <-run.done:
	case <-timer.C:
	case <-ctx.Done():
	}
	complete := false
	select {
	case <-run.done:
		complete = true
		g.env.run = nil
	default:
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	versions := make([]string, len(tools))
	for i, f := range run.facts {
		switch {
		case f.Path == "":
		case run.final[i]:
			versions[i] = f.Version
		case run.stale[i] != "":
			versions[i] = run.stale[i]
		default:
			versions[i] = pendingVersion
		}
	}
	return versions, complete
}

// startProbes looks the tools up (or takes them from the cache) and starts the
// probes the cache cannot answer. It returns a nil run and the versions when
// there is nothing to probe.
func (g *Gatherer) startProbes(ctx context.Context) (*probeRun, []string) {
	pathList := g.toolPATH()
	cachePath := g.envCachePath()
	key := ""
	var cached *envEntry
	if cachePath != "" {
		key = envKey(pathList)
		c := loadEnvCache(cachePath)
		cached = c.find(key)
	}
	now := time.Now()
	entry := envEntry{Key: key}
	changed := cached == nil
	if cached != nil && stampsMatch(cached.Dirs) {
		entry.Dirs, entry.Tools = cached.Dirs, slices.Clone(cached.Tools)
	} else {
		changed = true
		for _, d := range filepath.SplitList(pathList) {
			entry.Dirs = append(entry.Dirs, statStamp(d))
		}
		entry.Tools = make([]toolFact, len(tools))
		for i, t := range tools {
			entry.Tools[i] = toolFact{Name: t.name}
			p, err := g.lookPath(t.name)
			if err != nil {
				continue
			}
			s := statStamp(p)
			entry.Tools[i] = toolFact{Name: t.name, Path: p, Size: s.Size, Mod: s.Mod}
			if cached != nil {
				if old := cached.Tools[i]; old.sameBinary(p) {
					entry.Tools[i] = old
				}
			}
		}
	}
	var need []int
	stale := make([]string, len(tools))
	for i, f := range entry.Tools {
		if f.Path == "" {
			continue
		}
		if !f.sameBinary(f.Path) {
			s := statStamp(f.Path)
			entry.Tools[i] = toolFact{Name: f.Name, Path: f.Path, Size: s.Size, Mod: s.Mod}
			need = append(need, i)
		} else if !f.fresh(now) {
			stale[i] = f.Version
			need = append(need, i)
		}
	}
	if len(need) == 0 {
		if changed && cachePath != "" {
			_ = saveEnvEntry(cachePath, entry) // a cache that cannot be written only costs time
		}
		versions := make([]string, len(tools))
		for i, f := range entry.Tools {
			versions[i] = f.Version
		}
		return nil, versions
	}
	run := &probeRun{done: make(chan struct{}), facts: entry.Tools, final: make([]bool, len(tools)), stale: stale}
	for i := range run.final {
		run.final[i] = !slices.Contains(need, i)
	}
	g.env.bg.Add(1)
	go func() {
		defer g.env.bg.Done()
		defer close(run.done)
		g.probeAll(context.WithoutCancel(ctx), run, need, pathList)
		if cachePath != "" {
			run.mu.Lock()
			entry.Tools = slices.Clone(run.facts)
			run.mu.Unlock()
			_ = saveEnvEntry(cachePath, entry)
		}
	}()
	return run, nil
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
		f, err := g.files.OpenRooted(d + "/pyvenv.cfg")
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
