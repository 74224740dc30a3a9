package verify

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"fixplan/internal/fsutil"
)

// BaselineResult is one command's result on the unchanged project.
type BaselineResult struct {
	Command  string        `json:"command"`
	ExitCode int           `json:"exit_code"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	Failures Failures      `json:"failures"`
	Output   string        `json:"output"` // last OutputTailBytes, copy path replaced
	Created  time.Time     `json:"created"`
}

// Passed reports a baseline command that exited with 0 in time.
func (b BaselineResult) Passed() bool { return b.ExitCode == 0 && !b.TimedOut }

// BaselineCache keeps baseline results between verifications, so an unchanged
// project is not run again. Keys are 64 hex digits made by Verify from the
// command, its timeout, the project's HEAD commit and the path, size, mode and
// modification time of every file copied.
type BaselineCache interface {
	// Load returns the result stored under key, if any.
	Load(key string) (BaselineResult, bool)
	// Store keeps r under key; an error is reported, not fatal.
	Store(key string, r BaselineResult) error
}

// baselineKey hashes what decides a command's baseline result.
func baselineKey(command string, timeout time.Duration, head string, opt CloneOptions, m *manifest) string {
	h := sha256.New()
	w := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	w("fixplan verify baseline v1")
	w(command)
	w(timeout.String())
	w(head)
	skip := opt.SkipDirs
	if skip == nil {
		skip = DefaultSkipDirs()
	}
	w(fmt.Sprint(opt.IncludeGit, skip))
	ents := make([]string, 0, len(m.files)+len(m.links)+len(m.dirs))
	for _, f := range m.files {
		ents = append(ents, fmt.Sprintf("f %s %o %d %d", filepath.ToSlash(f.rel), f.mode, f.size, f.mtime.UnixNano()))
	}
	for _, l := range m.links {
		ents = append(ents, fmt.Sprintf("l %s %s", filepath.ToSlash(l.rel), l.target))
	}
	for _, d := range m.dirs {
		ents = append(ents, fmt.Sprintf("d %s %o", filepath.ToSlash(d.rel), d.mode))
	}
	sort.Strings(ents)
	for _, e := range ents {
		w(e)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func validKey(key string) bool {
	if len(key) != 64 {
		return false
	}
	_, err := hex.DecodeString(key)
	return err == nil && strings.ToLower(key) == key
}

// MemoryCache is a BaselineCache in memory, bounded to a number of entries
// (the oldest stored goes first). Safe for concurrent use.
type MemoryCache struct {
	mu    sync.Mutex
	max   int
	order []string
	m     map[string]BaselineResult
}

var _ BaselineCache = (*MemoryCache)(nil)

// NewMemoryCache returns a cache of at most max entries (0: 256).
func NewMemoryCache(max int) *MemoryCache {
	if max <= 0 {
		max = 256
	}
	return &MemoryCache{max: max, m: map[string]BaselineResult{}}
}

// Load returns the result stored under key.
func (c *MemoryCache) Load(key string) (BaselineResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[key]
	return r, ok
}

// Store keeps r under key, dropping the oldest entry when full.
func (c *MemoryCache) Store(key string, r BaselineResult) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok {
		c.order = append(c.order, key)
	}
	c.m[key] = r
	for len(c.order) > c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	return nil
}

// FileCache is a BaselineCache in files under a folder of the user's (the
// fixplan config folder; never the project: a project could ship a baseline).
// Entries older than MaxAge are ignored (toolchains change too), and at most
// MaxEntries are kept.
type FileCache struct {
	dir        string
	MaxAge     time.Duration
	MaxEntries int
}

var _ BaselineCache = (*FileCache)(nil)

// maxEntryBytes bounds one cache file read back.
const maxEntryBytes = 1 << 20

// NewFileCache returns a cache in the folder "verify-baselines" under
// configDir, creating it (mode 0700). It fails when the folder cannot be made.
func NewFileCache(configDir string) (*FileCache, error) {
	dir := filepath.Join(configDir, "verify-baselines")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create baseline cache: %w", err)
	}
	return &FileCache{dir: dir, MaxAge: 24 * time.Hour, MaxEntries: 200}, nil
}

// Load returns the result stored under key when it is there, readable, not
// older than MaxAge and stored for that key.
func (c *FileCache) Load(key string) (BaselineResult, bool) {
	if !validKey(key) {
		return BaselineResult{}, false
	}
	f, err := os.Open(filepath.Join(c.dir, key+".json"))
	if err != nil {
		return BaselineResult{}, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxEntryBytes+1))
	if err != nil || len(b) > maxEntryBytes {
		return BaselineResult{}, false
	}
	var e fileEntry
	if json.Unmarshal(b, &e) != nil || e.Key != key {
		return BaselineResult{}, false
	}
	if c.MaxAge > 0 && time.Since(e.Result.Created) > c.MaxAge {
		return BaselineResult{}, false
	}
	return e.Result, true
}

type fileEntry struct {
	Key    string         `json:"key"`
	Result BaselineResult `json:"result"`
}

// Store writes r under key atomically (mode 0600: outputs may hold secrets)
// and removes the oldest entries beyond MaxEntries.
func (c *FileCache) Store(key string, r BaselineResult) error {
	if !validKey(key) {
		return errors.New("store baseline: invalid key")
	}
	b, err := json.Marshal(fileEntry{Key: key, Result: r})
	if err != nil {
		return fmt.Errorf("store baseline: %w", err)
	}
	if len(b) > maxEntryBytes {
		return errors.New("store baseline: entry too large")
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(c.dir, key+".json"), b, 0o600); err != nil {
		return fmt.Errorf("store baseline: %w", err)
	}
	return c.prune()
}

func (c *FileCache) prune() error {
	if c.MaxEntries <= 0 {
		return nil
	}
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return fmt.Errorf("prune baselines: %w", err)
	}
	type aged struct {
		name string
		t    time.Time
	}
	var files []aged
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".json") || !validKey(strings.TrimSuffix(name, ".json")) {
			continue
		}
		if fi, err := e.Info(); err == nil {
			files = append(files, aged{name, fi.ModTime()})
		}
	}
	if len(files) <= c.MaxEntries {
		return nil
	}
	slices.SortFunc(files, func(a, b aged) int { return a.t.Compare(b.t) })
	for _, f := range files[:len(files)-c.MaxEntries] {
		if err := os.Remove(filepath.Join(c.dir, f.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("prune baselines: %w", err)
		}
	}
	return nil
}
