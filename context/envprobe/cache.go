package envprobe

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"fixplan/internal/config"
)

// The env cache keeps the tool versions of the env section per machine, in one
// JSON file in the user's config folder, so that a plan does not wait for
// `java -version` and friends every time. An entry is keyed (envKey) by what
// selects the tools: the host, the scrubbed PATH, the environment variables of
// version managers and the user-level files they read; within an entry each tool
// remembers the size and modification time of the binary it was probed from and
// is probed again when they change, or after envCacheTTL. The PATH folders'
// stamps tell whether the tools must be looked up again at all.

const (
	envCacheVersion = 1
	envCacheTTL     = 24 * time.Hour
	envCacheEntries = 8 // e.g. the desktop app's PATH and a terminal's
	maxVersionLen   = 160
)

// DefaultCachePath returns env-cache.json in the user's config folder
// (internal/config), or "" when the user has no config folder.
func DefaultCachePath() string {
	d, err := config.Default()
	if err != nil {
		return ""
	}
	return config.EnvCacheFile(d)
}

type envCache struct {
	Version int        `json:"version"`
	Entries []envEntry `json:"entries"` // most recently written first
}

type envEntry struct {
	Key   string     `json:"key"`
	Dirs  []stamp    `json:"dirs"`  // the PATH folders when the tools were looked up
	Tools []toolFact `json:"tools"` // in the order of tools
}

// stamp identifies a file's content cheaply: Size -1 means missing.
type stamp struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	Mod  int64  `json:"mod"` // Unix nanoseconds
}

// toolFact is what is known of one tool.
type toolFact struct {
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"` // "" = not on PATH
	Size    int64  `json:"size,omitempty"`
	Mod     int64  `json:"mod,omitempty"`
	Version string `json:"version,omitempty"` // "" after a probe = the probe failed
	Probed  int64  `json:"probed,omitempty"`  // Unix seconds; 0 = not probed (yet)
}

func statStamp(p string) stamp {
	st, err := os.Stat(p)
	if err != nil {
		return stamp{Path: p, Size: -1}
	}
	return stamp{Path: p, Size: st.Size(), Mod: st.ModTime().UnixNano()}
}

func stampsMatch(ss []stamp) bool {
	for _, s := range ss {
		if statStamp(s.Path) != s {
			return false
		}
	}
	return true
}

// sameBinary reports whether f was probed from the binary at p as it is now.
func (f toolFact) sameBinary(p string) bool {
	s := statStamp(p)
	return f.Path == p && s.Size == f.Size && s.Mod == f.Mod && s.Size >= 0
}

// fresh reports whether f holds a probe result younger than envCacheTTL.
func (f toolFact) fresh(now time.Time) bool {
	return f.Probed > 0 && now.Sub(time.Unix(f.Probed, 0)) < envCacheTTL
}

// selectorVars are environment variables that choose tool versions; selector
// prefixes cover version managers (ASDF_NODEJS_VERSION, MISE_..., ...).
var (
	selectorVars = []string{"JAVA_HOME", "JDK_HOME", "GOROOT", "GOPATH", "CARGO_HOME", "MAVEN_HOME", "M2_HOME",
		"MAVEN_OPTS", "GRADLE_HOME", "GRADLE_USER_HOME", "JAVA_TOOL_OPTIONS", "DOTNET_ROOT", "COREPACK_HOME",
		"BUN_INSTALL", "DENO_INSTALL", "CONDA_PREFIX", "VIRTUAL_ENV"}
	selectorPrefixes = []string{"RUSTUP_", "PYENV_", "ASDF_", "MISE_", "RTX_", "NVM_", "VOLTA_", "NODENV_",
		"RBENV_", "JENV_", "SDKMAN_", "GOENV_"}
	// selectorFiles are user-level files (under the home folder) of version managers.
	selectorFiles = []string{".tool-versions", ".config/mise/config.toml", ".rustup/settings.toml",
		".pyenv/version", ".nvm/alias/default", ".nodenv/version", ".rbenv/version", ".jenv/version",
		".sdkman/candidates/java/current", ".volta/tools/user/platform.json"}
)

// envKey identifies the machine and the choice of tools for path (a scrubbed PATH).
func envKey(path string) string {
	h := sha256.New()
	host, _ := os.Hostname()
	fmt.Fprintf(h, "v%d\x00%s\x00%s/%s\x00%s\x00", envCacheVersion, host, runtime.GOOS, runtime.GOARCH, path)
	var sel []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		if slices.Contains(selectorVars, up) || hasAny(up, selectorPrefixes, strings.HasPrefix) {
			if !hasAny(up, dropSuffixes, strings.HasSuffix) {
				sel = append(sel, kv)
			}
		}
	}
	slices.Sort(sel)
	for _, kv := range sel {
		fmt.Fprintf(h, "%s\x00", kv)
	}
	if home, err := os.UserHomeDir(); err == nil {
		for _, f := range selectorFiles {
			s := statStamp(filepath.Join(home, filepath.FromSlash(f)))
			fmt.Fprintf(h, "%s %d %d\x00", f, s.Size, s.Mod)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// loadEnvCache reads the cache file; a missing, unreadable or foreign file is
// an empty cache, and facts that do not look like probe results are dropped.
func loadEnvCache(path string) envCache {
	b, err := os.ReadFile(path)
	if err != nil {
		return envCache{Version: envCacheVersion}
	}
	var c envCache
	if json.Unmarshal(b, &c) != nil || c.Version != envCacheVersion {
		return envCache{Version: envCacheVersion}
	}
	for _, e := range c.Entries {
		for i, f := range e.Tools {
			if len(f.Version) > maxVersionLen || strings.ContainsAny(f.Version, "\r\n\x1b") {
				e.Tools[i].Version, e.Tools[i].Probed = "", 0
			}
		}
	}
	return c
}

// find returns the entry for key with one fact per tool, or nil.
func (c *envCache) find(key string) *envEntry {
	for i := range c.Entries {
		e := &c.Entries[i]
		if e.Key != key || len(e.Tools) != len(tools) {
			continue
		}
		for j, f := range e.Tools {
			if f.Name != tools[j].name {
				return nil
			}
		}
		return e
	}
	return nil
}

// saveEnvEntry writes e into the cache file at path (atomically, replacing the
// entry of the same key and keeping the envCacheEntries most recent ones).
func saveEnvEntry(path string, e envEntry) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save env cache: %w", err)
	}
	c := loadEnvCache(path)
	entries := []envEntry{e}
	for _, old := range c.Entries {
		if old.Key != e.Key && len(entries) < envCacheEntries {
			entries = append(entries, old)
		}
	}
	c.Entries = entries
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("save env cache: %w", err)
	}
	f, err := os.CreateTemp(dir, ".env-cache-*.tmp")
	if err != nil {
		return fmt.Errorf("save env cache: %w", err)
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("save env cache: %w", werr)
	}
	return nil
}

// envCachePath is the cache file to use: Options.CachePath made absolute with
// its folder's symlinks resolved, or "" when there is none or it would be inside
// the project root.
func (p *Probe) envCachePath() string {
	path := p.opts.CachePath
	if path == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	dir := resolveExisting(filepath.Dir(abs))
	if inside(p.root, dir) {
		return ""
	}
	return filepath.Join(dir, filepath.Base(abs))
}

// resolveExisting resolves the symlinks of the longest existing prefix of the
// absolute path p and appends the rest unchanged.
func resolveExisting(p string) string {
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
