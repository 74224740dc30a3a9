// Package envprobe describes the machine's environment for the model — OS and
// architecture, the versions of the usual tools on PATH, the package managers
// the project's files reveal, the virtualenv (Probe.Text) — and owns the
// scrubbed environment every tool fixplan runs for context starts in (Environ,
// LookTool, PATH): a PATH without entries inside the project, no credentials,
// no variables naming places inside it, a folder outside it. Versions are kept
// per machine in a cache file (cache.go).
package envprobe

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"fixplan/internal/lazyre"
	"fixplan/projfs"
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
var ansiRe = lazyre.New(`\x1b\[[0-9;?]*[A-Za-z]`)

// pendingVersion stands for a tool whose probe is still running.
const pendingVersion = "installed (version not known yet)"

// maxProbeOutput bounds what is kept of a probe's output.
const maxProbeOutput = 64 << 10

// Options tune a Probe.
type Options struct {
	// Files is the project: its package-manager files and virtualenv are looked
	// up through it, and no tool, PATH entry or cache inside it is used.
	Files *projfs.Root
	// ToolTimeout bounds each `tool --version` probe.
	ToolTimeout time.Duration
	// Wait is how long Text waits for version probes that are not cached;
	// slower probes go on in the background (up to ToolTimeout) and are cached
	// for the next time.
	Wait time.Duration
	// CachePath is the JSON file caching the tool versions per machine
	// (DefaultCachePath); "" turns the cache off. A path inside the project is
	// never used.
	CachePath string
	// LookPath finds a tool; nil: LookTool.
	LookPath func(name string) (string, error)
}

// Probe is the environment section of one project. It is safe for concurrent
// use.
type Probe struct {
	root     string // absolute, symlinks resolved
	files    *projfs.Root
	opts     Options
	lookPath func(string) (string, error)

	mu   sync.Mutex
	text string    // the complete section, once known
	run  *probeRun // probes started by an earlier call
	bg   sync.WaitGroup

	pathMu  sync.Mutex
	pathSet bool
	pathRaw string // $PATH when path was computed
	path    string // PATH()
}

// New returns the Probe of the project o.Files.
func New(o Options) *Probe {
	p := &Probe{root: o.Files.Dir(), files: o.Files, opts: o, lookPath: o.LookPath}
	if p.lookPath == nil {
		p.lookPath = p.LookTool
	}
	return p
}

// Wait waits for the version probes still running in the background (each is
// bounded by ToolTimeout), so their facts reach the cache and nothing writes to
// the config folder afterwards.
func (p *Probe) Wait() { p.bg.Wait() }

// probeRun is one batch of version probes; done is closed when every probe has
// ended and the cache has been written.
type probeRun struct {
	done  chan struct{}
	mu    sync.Mutex
	facts []toolFact // in the order of tools
	final []bool     // facts[i].Version is this run's answer
	stale []string   // a version known from before, shown while its re-probe runs
}

// Text describes the environment as the model receives it: OS/arch, the versions
// of the tools found on PATH, the package managers revealed by files in the root,
// and the virtualenv.
//
// Versions come from the env cache (Options.CachePath) when it knows the
// binaries on PATH; otherwise `tool --version` probes run concurrently, each
// bounded by ToolTimeout, and Text waits for them at most Options.Wait: a slower
// probe is reported as "installed (version not known yet)" and finishes in the
// background for the cache. Probes never run anything the project chooses: they
// start outside the root with a scrubbed environment and PATH (see LookTool and
// Environ). The section is computed once per Probe once it is complete.
func (p *Probe) Text(ctx context.Context) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.text != "" {
		return p.text
	}
	versions, complete := p.toolVersions(ctx)
	text := p.envText(versions)
	if complete {
		p.text = text
	}
	return text
}

func (p *Probe) envText(versions []string) string {
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
		if st, err := p.files.Stat(lf[0]); err == nil && st.Mode().IsRegular() && !seen[lf[1]] {
			seen[lf[1]] = true
			pms = append(pms, lf[1]+" ("+lf[0]+")")
		}
	}
	if len(pms) > 0 {
		fmt.Fprintf(&b, "package managers: %s\n", strings.Join(pms, ", "))
	} else {
		b.WriteString("package managers: none detected\n")
	}
	b.WriteString("virtualenv: " + p.virtualenv() + "\n")
	return b.String()
}

// toolVersions returns one version line per tool ("" = not found or the probe
// failed) and whether every line is final. p.mu is held.
func (p *Probe) toolVersions(ctx context.Context) ([]string, bool) {
	run := p.run
	if run == nil {
		var versions []string
		run, versions = p.startProbes(ctx)
		if run == nil {
			return versions, true
		}
		p.run = run
	}
	timer := time.NewTimer(p.opts.Wait)
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
		p.run = nil
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
func (p *Probe) startProbes(ctx context.Context) (*probeRun, []string) {
	pathList := p.PATH()
	cachePath := p.envCachePath()
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
			bin, err := p.lookPath(t.name)
			if err != nil {
				continue
			}
			s := statStamp(bin)
			entry.Tools[i] = toolFact{Name: t.name, Path: bin, Size: s.Size, Mod: s.Mod}
			if cached != nil {
				if old := cached.Tools[i]; old.sameBinary(bin) {
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
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		defer close(run.done)
		p.probeAll(context.WithoutCancel(ctx), run, need, pathList)
		if cachePath != "" {
			run.mu.Lock()
			entry.Tools = slices.Clone(run.facts)
			run.mu.Unlock()
			_ = saveEnvEntry(cachePath, entry)
		}
	}()
	return run, nil
}

// maxPyvenvCfg bounds the pyvenv.cfg read (a few lines in practice).
const maxPyvenvCfg = 64 << 10

// virtualenv describes the active or in-root Python virtualenv.
func (p *Probe) virtualenv() string {
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		return "active (" + filepath.Base(v) + ")"
	}
	if v := os.Getenv("CONDA_DEFAULT_ENV"); v != "" {
		return "conda env " + filepath.Base(v)
	}
	for _, d := range []string{".venv", "venv", "env"} {
		f, _, err := p.files.OpenRooted(d+"/pyvenv.cfg", d+"/pyvenv.cfg")
		if err != nil { // missing, or not a regular file (a FIFO would hang a read)
			continue
		}
		data, err := projfs.ReadBounded(f, maxPyvenvCfg, d+"/pyvenv.cfg")
		f.Close()
		if err != nil {
			continue
		}
		ver := ""
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), "=")
			if ok && (strings.TrimSpace(k) == "version" || strings.TrimSpace(k) == "version_info") {
				ver = strings.TrimSpace(v)
			}
		}
		if ver != "" {
			return d + "/ (python " + ver + ", not active)"
		}
		return d + "/ (not active)"
	}
	return "none"
}
