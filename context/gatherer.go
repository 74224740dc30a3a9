// Package codectx gathers the code context fixplan sends to the model (docs/CONTRACT.md
// §5 and §6): the base context of a problem (environment, project preferences, recent
// files, logs, code windows around the frames of pasted stack traces, the failing
// test and its module under test) and the answers to the model's context requests
// (read_file, search, logs, env).
//
// Every path is confined to the project root: relative paths only, symlinks
// resolved through os.Root, `.git/` never read, secret files refused unless the
// user allowed them. Every text that leaves the package has secret-looking values
// replaced by [REDACTED], and every result is capped by the byte budget of Options.
package codectx

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"fixplan/context/envprobe"
	"fixplan/context/frames"
	"fixplan/context/gitrepo"
	"fixplan/context/rules"
	"fixplan/projfs"
	"fixplan/redact"
)

// Options tune a Gatherer. Zero fields take the value of DefaultOptions, except
// EnvCachePath, where "" means no cache.
type Options struct {
	// WindowLines is the number of lines shown on each side of a stack-frame line.
	WindowLines int
	// MaxResultBytes caps one context result or one base-context section.
	MaxResultBytes int
	// MaxTotalBytes caps the whole base context.
	MaxTotalBytes int
	// MaxSearchResults bounds the matches a search request returns to the model.
	MaxSearchResults int
	// LogLastN is the number of log lines sent when a request does not say.
	LogLastN int
	// AllowSecrets lets secret files (.env*, *.pem, id_rsa*, ...) be read; their
	// secret-looking values are still redacted.
	AllowSecrets bool
	// ToolTimeout bounds each `tool --version` probe of the env section.
	ToolTimeout time.Duration
	// EnvWait is how long the env section waits for version probes that are not
	// cached; slower probes go on in the background (up to ToolTimeout) and are
	// cached for the next time.
	EnvWait time.Duration
	// EnvCachePath is the JSON file caching the env section's tool versions per
	// machine (DefaultOptions: <user config dir>/fixplan/env-cache.json); "" turns
	// the cache off. A path inside the project root is never used.
	EnvCachePath string
	// MaxFileBytes is the size above which a file is refused (read_file, windows)
	// and skipped (search).
	MaxFileBytes int64
	// MaxScanBytes bounds the bytes one read_file of a line range reads from a
	// file over MaxFileBytes (projfs.MaxScanBytes), whatever the range asked.
	MaxScanBytes int64
	// NoProjectRules leaves the project's instructions for AI tools (AGENTS.md,
	// CLAUDE.md, .cursorrules, ...; see rules.Files) out of the base context.
	NoProjectRules bool
	// NoDefinitions leaves out of the base context the definitions of what the
	// failing lines use (context/defs); bench/context measures with and without.
	NoDefinitions bool
}

// DefaultOptions returns the defaults: ±80-line windows, 24 KiB per result,
// 96 KiB in total, 50 search matches, the last 200 log lines, 3 s per tool probe
// of which the env section waits at most 1 s, files up to 4 MiB (256 MiB scanned for
// a line range of a bigger one), and the env cache
// in the user config folder (off when there is none).
func DefaultOptions() Options {
	return Options{
		WindowLines:      80,
		MaxResultBytes:   24 * 1024,
		MaxTotalBytes:    96 * 1024,
		MaxSearchResults: 50,
		LogLastN:         200,
		ToolTimeout:      3 * time.Second,
		EnvWait:          time.Second,
		MaxFileBytes:     projfs.DefaultMaxFileBytes,
		MaxScanBytes:     projfs.MaxScanBytes,
		EnvCachePath:     envprobe.DefaultCachePath(),
	}
}

func (o Options) normalised() Options {
	d := DefaultOptions()
	if o.WindowLines <= 0 {
		o.WindowLines = d.WindowLines
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = d.MaxResultBytes
	}
	if o.MaxTotalBytes <= 0 {
		o.MaxTotalBytes = d.MaxTotalBytes
	}
	if o.MaxSearchResults <= 0 {
		o.MaxSearchResults = d.MaxSearchResults
	}
	if o.LogLastN <= 0 {
		o.LogLastN = d.LogLastN
	}
	if o.ToolTimeout <= 0 {
		o.ToolTimeout = d.ToolTimeout
	}
	if o.EnvWait <= 0 {
		o.EnvWait = d.EnvWait
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = d.MaxFileBytes
	}
	if o.MaxScanBytes <= 0 {
		o.MaxScanBytes = d.MaxScanBytes
	}
	return o
}

// Gatherer gathers context for one project root. It is safe for concurrent use.
type Gatherer struct {
	root     string       // absolute, symlinks resolved
	files    *projfs.Root // every read of the project goes through it
	opts     Options
	env      *envprobe.Probe
	git      *gitrepo.Git
	lookPath func(string) (string, error) // finds a tool; default: the env probe's LookTool
	// listing is the last base context's listing of the project and a digest
	// of its input: the model's searches in that plan scan it (keepListing)
	listing struct {
		sync.Mutex
		key  [sha256.Size]byte
		tree *projfs.Tree
	}
}

// New opens a Gatherer on root. It fails when root does not exist or is not a
// directory (a *plan.Error with code ERR_INVALID_INPUT).
func New(root string, opts Options) (*Gatherer, error) {
	redact.Prepare() // everything gathered is redacted
	g := &Gatherer{opts: opts.normalised()}
	files, err := projfs.OpenRoot(root, projfs.Options{AllowSecrets: g.opts.AllowSecrets, MaxFileBytes: g.opts.MaxFileBytes,
		Tracked: func(rel string) (bool, string) { return g.git.Tracks(rel) }})
	if err != nil {
		return nil, err
	}
	g.root, g.files = files.Dir(), files
	g.env = envprobe.New(envprobe.Options{Files: files, ToolTimeout: g.opts.ToolTimeout, Wait: g.opts.EnvWait,
		CachePath: g.opts.EnvCachePath, LookPath: func(name string) (string, error) { return g.lookPath(name) }})
	g.lookPath = g.env.LookTool
	g.git = gitrepo.New(gitrepo.Options{Files: files, LookPath: func(name string) (string, error) { return g.lookPath(name) },
		PATH: g.env.PATH, Timeout: g.opts.ToolTimeout})
	return g, nil
}

// Root returns the absolute project root (symlinks resolved).
func (g *Gatherer) Root() string { return g.root }

// RulesTitle starts the title of the base-context section that carries the
// project's own instructions for AI tools (rules.Title); the session frames
// that section as conventions that never override fixplan's rules.
const RulesTitle = rules.Title

// Env describes the environment as the model receives it: OS/arch, the versions
// of the tools on PATH, the package managers the root's files reveal, the
// virtualenv (envprobe.Probe.Text). The section is computed once per Gatherer
// once every probe has answered.
func (g *Gatherer) Env(ctx context.Context) string { return g.env.Text(ctx) }

// ResolveTrace parses the frames of text and resolves them to the project's
// files (frames.Resolver.Trace).
func (g *Gatherer) ResolveTrace(ctx context.Context, text string) []frames.ResolvedFrame {
	return frames.NewResolver(g.files.Tree(projfs.TreeOptions{})).Trace(ctx, text)
}

// ResolveFrames resolves each frame to a file of the project
// (frames.Resolver.Frames).
func (g *Gatherer) ResolveFrames(ctx context.Context, fs []frames.Frame) []frames.ResolvedFrame {
	return frames.NewResolver(g.files.Tree(projfs.TreeOptions{})).Frames(ctx, fs)
}

// Exists reports whether rel (slash-separated) names a file or folder in the
// project, looked up through the root (nothing outside it is ever stat-ed).
func (g *Gatherer) Exists(rel string) bool { return g.files.Exists(rel) }

// Options returns the effective options.
func (g *Gatherer) Options() Options { return g.opts }

// Close releases the root handle. The Gatherer must not be used afterwards.
func (g *Gatherer) Close() error {
	// Version probes still running in the background finish (each is bounded by
	// ToolTimeout) so their facts reach the per-machine cache, and nothing
	// writes to the config folder after Close.
	g.env.Wait()
	return g.files.Close()
}
