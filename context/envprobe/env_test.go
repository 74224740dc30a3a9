package envprobe

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"fixplan/internal/testtree"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// noTools is a LookPath that finds nothing: no real tool probes where a test
// does not need them (they are slow and machine-dependent).
func noTools(string) (string, error) { return "", os.ErrNotExist }

// openProbe opens the project root and a Probe of it with o, failing the test
// on error; the probes still running and the root are done with at cleanup.
func openProbe(t testing.TB, root string, o Options) *Probe {
	t.Helper()
	o.Files = projfstest.Open(t, root, projfs.Options{})
	p := New(o)
	t.Cleanup(p.Wait) // before the root is closed: cleanups run last first
	return p
}

func TestScrubPATH(t *testing.T) {
	root := t.TempDir()
	out := t.TempDir()
	testtree.Write(t, root, map[string]string{"node_modules/.bin/x": "x", "bin/x": "x"})
	testtree.Write(t, out, map[string]string{"a/x": "x", "b/x": "x", "link": "->" + filepath.Join(root, "bin")})
	sep := string(os.PathListSeparator)
	in := strings.Join([]string{
		"", ".", "node_modules/.bin", filepath.Join(root, "node_modules", ".bin"), root,
		filepath.Join(out, "a"), filepath.Join(out, "link"), filepath.Join(out, "a") + string(filepath.Separator),
		filepath.Join(out, "missing"), filepath.Join(root, "..", filepath.Base(root), "bin"), filepath.Join(out, "b"),
	}, sep)
	got := scrubPATH(in, root)
	want := filepath.Join(out, "a") + sep + filepath.Join(out, "b")
	if got != want {
		t.Fatalf("scrubPATH =\n%s\nwant\n%s", got, want)
	}
}

func TestProbeEnviron(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj")
	environ := []string{
		"HOME=" + root, // the project may be the home folder: tools still need HOME
		"PATH=/usr/bin:.", "PWD=" + root, "OLDPWD=/x", "GOTOOLCHAIN=auto",
		"FIXPLAN_API_KEY=k", "OPENAI_API_KEY=k", "GITHUB_TOKEN=t", "AWS_SECRET_ACCESS_KEY=s", "DB_PASSWORD=p",
		"my_api_key=k", "NPM_TOKEN=t",
		"VIRTUAL_ENV=" + filepath.Join(root, ".venv"), "NODE_OPTIONS=--require " + filepath.Join(root, "x.js"),
		"JAVA_HOME=/usr/lib/jvm/java-17", "OTHER=" + root + "-sibling", "LANG=C.UTF-8",
	}
	got := Environ(environ, root, "/usr/bin", "/probe")
	want := []string{"HOME=" + root, "JAVA_HOME=/usr/lib/jvm/java-17", "OTHER=" + root + "-sibling", "LANG=C.UTF-8",
		"PATH=/usr/bin", "GOTOOLCHAIN=local"}
	if runtime.GOOS != "windows" {
		want = append(want, "PWD=/probe")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Environ =\n%q\nwant\n%q", got, want)
	}
}

func TestNamesInside(t *testing.T) {
	root := filepath.FromSlash("/home/u/proj")
	tests := []struct {
		val  string
		want bool
	}{
		{root, true},
		{root + string(filepath.Separator) + "x", true},
		{"--require " + root + `/x.js`, true},
		{"/usr/bin" + string(os.PathListSeparator) + root, true},
		{`"` + root + `"`, true},
		{root + "-other", false},
		{root + "2/x", false},
		{"/home/u", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := namesInside(tc.val, root); got != tc.want {
			t.Errorf("namesInside(%q) = %v, want %v", tc.val, got, tc.want)
		}
	}
}

func TestEnvCacheInsideTheRootIsNotUsed(t *testing.T) {
	root := t.TempDir()
	g := openProbe(t, root, Options{CachePath: filepath.Join(root, ".fixplan", "env-cache.json"), LookPath: noTools})
	if p := g.envCachePath(); p != "" {
		t.Fatalf("envCachePath = %q", p)
	}
	g.Text(context.Background())
	g.Wait()
	if _, err := os.Stat(filepath.Join(root, ".fixplan")); !os.IsNotExist(err) {
		t.Fatalf("the project folder was written: %v", err)
	}
}

func TestEnvCacheFileIsValidated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "env-cache.json")
	for _, body := range []string{"", "not json", `{"version":99,"entries":[{"key":"k"}]}`} {
		os.WriteFile(path, []byte(body), 0o600)
		if c := loadEnvCache(path); len(c.Entries) != 0 {
			t.Errorf("%q loaded as %+v", body, c)
		}
	}
	facts := make([]toolFact, len(tools))
	for i, tl := range tools {
		facts[i] = toolFact{Name: tl.name}
	}
	facts[0] = toolFact{Name: tools[0].name, Path: "/x", Version: "v1\n  evil: injected", Probed: 1}
	if err := saveEnvEntry(path, envEntry{Key: "k", Tools: facts}); err != nil {
		t.Fatal(err)
	}
	c := loadEnvCache(path)
	e := c.find("k")
	if e == nil || e.Tools[0].Version != "" || e.Tools[0].Probed != 0 {
		t.Fatalf("a version with a line break was kept: %+v", e)
	}
	for i := range envCacheEntries + 3 {
		if err := saveEnvEntry(path, envEntry{Key: strings.Repeat("k", i+2), Tools: facts}); err != nil {
			t.Fatal(err)
		}
	}
	if c := loadEnvCache(path); len(c.Entries) != envCacheEntries || c.Entries[0].Key != strings.Repeat("k", envCacheEntries+4) {
		t.Fatalf("%d entries, first %q", len(c.Entries), c.Entries[0].Key)
	}
}

// BenchmarkEnvCacheHit measures the env section of a new session on a machine
// whose tools are cached: scrubbing PATH, reading and checking the cache, and
// the project's package-manager files. The real tools on PATH are probed once
// before the timer starts.
func BenchmarkEnvCacheHit(b *testing.B) {
	root := b.TempDir()
	for name, body := range map[string]string{"go.mod": "module x\n", "package-lock.json": "{}"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cache := filepath.Join(b.TempDir(), "env-cache.json")
	g := openProbe(b, root, Options{ToolTimeout: 20 * time.Second, Wait: time.Minute, CachePath: cache})
	ctx := context.Background()
	warm := g.Text(ctx)
	g.Wait()
	n := strings.Count(warm, "\n  ")
	b.ReportMetric(float64(n), "tools")
	for b.Loop() {
		g.text = ""
		g.pathSet = false
		if got := g.Text(ctx); got != warm {
			b.Fatalf("cache hit differs:\n%s\nwant\n%s", got, warm)
		}
	}
}
