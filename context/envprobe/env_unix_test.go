//go:build unix

package envprobe

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixplan/internal/testtree"
)

// TestEnvProbeRunsNothingFromTheProject opens a hostile project: tools of the
// same names in the root, in node_modules/.bin and in a toolchain that
// rust-toolchain.toml points at, a .mvn/jvm.config that makes the JVM write a
// file, a go.mod asking for a toolchain download, a .python-version naming a
// Python that does not exist, NODE_OPTIONS requiring a script of the project, and
// a PATH with ".", relative entries, the root and a symlink into it (before or
// after the real PATH), with the process started inside the root. No project file
// may run, the real tools must still be reported, and the probes must not see the
// provider keys.
func TestEnvProbeRunsNothingFromTheProject(t *testing.T) {
	tests := []struct {
		name         string
		hostileFirst bool // the project's PATH entries come before the real PATH
	}{
		{name: "PATH entries into the project come first", hostileFirst: true},
		{name: "the real tools read the project's files from their folder"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			marks := t.TempDir()
			mark := func(name string) string {
				return "echo ran > " + filepath.Join(marks, name) + "\necho 'hostile 6.6.6'\n"
			}
			hostile := map[string]string{}
			for _, name := range []string{"go", "node", "npm", "python3", "python", "rustc", "cargo", "java", "mvn", "git", "gcc", "deno"} {
				hostile[name] = mark("root-" + name)
				hostile["node_modules/.bin/"+name] = mark("nm-" + name)
				hostile["evil-toolchain/bin/"+name] = mark("toolchain-" + name)
			}
			testtree.Scripts(t, root, hostile)
			testtree.Write(t, root, map[string]string{
				"go.mod":              "module evil\n\ngo 1.99\n\ntoolchain go1.99.0\n",
				"rust-toolchain.toml": "[toolchain]\npath = \"" + filepath.Join(root, "evil-toolchain") + "\"\n",
				".mvn/jvm.config":     "-Xlog:gc:file=" + filepath.Join(marks, "mvn-jvm-config.log") + "\n",
				".mvn/maven.config":   "-Dhostile=1\n",
				".tool-versions":      "nodejs 6.6.6\npython 6.6.6\n",
				".mise.toml":          "[tools]\nnode = \"6.6.6\"\n",
				".nvmrc":              "6.6.6\n",
				".python-version":     "6.6.6\n",
				"package.json":        `{"name":"evil","packageManager":"yarn@6.6.6"}`,
				"evil.js":             "require('fs').writeFileSync(" + quoteJS(filepath.Join(marks, "node-options")) + ", 'ran')\n",
			})

			// A spy tool outside the project records where and with what it ran.
			spyBin := t.TempDir()
			spy := filepath.Join(marks, "spy")
			testtree.Scripts(t, spyBin, map[string]string{"bun": "{ pwd -P; env; } > " + spy + "\necho 'bun 9.9.9'\n"})
			link := filepath.Join(t.TempDir(), "bin-link")
			if err := os.Symlink(filepath.Join(root, "node_modules", ".bin"), link); err != nil {
				t.Fatal(err)
			}
			bad := []string{link, filepath.Join(root, "node_modules", ".bin"), root, "node_modules/.bin", ".", ""}
			good := []string{spyBin, os.Getenv("PATH")}
			path := append(append([]string{}, good...), bad...)
			if tc.hostileFirst {
				path = append(append([]string{}, bad...), good...)
			}
			t.Setenv("PATH", strings.Join(path, string(os.PathListSeparator)))
			t.Setenv("NODE_OPTIONS", "--require "+filepath.Join(root, "evil.js"))
			t.Setenv("OPENAI_API_KEY", "sk-openai-secret")
			t.Setenv("FIXPLAN_API_KEY", "sk-fixplan-secret")
			t.Setenv("GITHUB_TOKEN", "ghp_secret")
			t.Setenv("GOTOOLCHAIN", "auto")
			t.Chdir(root)

			cacheDir := t.TempDir()
			g := openProbe(t, root, Options{ToolTimeout: 20 * time.Second, Wait: time.Minute,
				CachePath: filepath.Join(cacheDir, "env-cache.json")})
			text := g.Text(context.Background())
			g.Wait()
			t.Logf("env section:\n%s", text)

			ents, _ := os.ReadDir(marks)
			for _, e := range ents {
				if e.Name() != "spy" {
					t.Errorf("a project file ran: marker %s", e.Name())
				}
			}
			if strings.Contains(text, "hostile") || strings.Contains(text, "6.6.6") {
				t.Errorf("the env section reports a project's tool:\n%s", text)
			}
			if !strings.Contains(text, "  go: go version go1.") || !strings.Contains(text, "  bun: bun 9.9.9\n") {
				t.Errorf("the real tools on PATH are missing:\n%s", text)
			}
			if strings.Contains(text, pendingVersion) {
				t.Errorf("a probe was still running:\n%s", text)
			}

			b, err := os.ReadFile(spy)
			if err != nil {
				t.Fatalf("the spy tool did not run: %v", err)
			}
			lines := strings.Split(string(b), "\n")
			if inside(g.root, lines[0]) || !strings.HasPrefix(lines[0], resolveExisting(cacheDir)) {
				t.Errorf("the probe ran in %s, want a folder in %s", lines[0], cacheDir)
			}
			env := map[string]string{}
			for _, l := range lines[1:] {
				if k, v, ok := strings.Cut(l, "="); ok {
					env[k] = v
				}
			}
			for _, k := range []string{"OPENAI_API_KEY", "FIXPLAN_API_KEY", "GITHUB_TOKEN", "NODE_OPTIONS", "OLDPWD"} {
				if _, ok := env[k]; ok {
					t.Errorf("the probe saw %s", k)
				}
			}
			if env["GOTOOLCHAIN"] != "local" || env["PWD"] != lines[0] || env["HOME"] != os.Getenv("HOME") {
				t.Errorf("GOTOOLCHAIN=%q PWD=%q HOME=%q", env["GOTOOLCHAIN"], env["PWD"], env["HOME"])
			}
			for _, d := range filepath.SplitList(env["PATH"]) {
				if !filepath.IsAbs(d) || inside(g.root, d) || d == link {
					t.Errorf("the probe's PATH has %q", d)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(cacheDir, "probe-*")); len(left) > 0 {
				t.Errorf("probe folders left behind: %v", left)
			}
			if _, err := os.Stat(filepath.Join(cacheDir, "env-cache.json")); err != nil {
				t.Errorf("no cache written: %v", err)
			}
		})
	}
}

func quoteJS(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// counterTool is a tool script that appends a line to counter whenever it runs
// and prints version; before it prints, it waits for the file gate when not "".
func counterTool(counter, version, gate string) string {
	s := "echo run >> " + counter + "\n"
	if gate != "" {
		s += "while [ ! -e " + gate + " ]; do " + sleepCmd + " 0.01; done\n"
	}
	return s + "echo '" + version + "'\n"
}

var sleepCmd = func() string {
	if p, err := exec.LookPath("sleep"); err == nil {
		return p
	}
	return "/bin/sleep"
}()

func runs(t *testing.T, counter string) int {
	t.Helper()
	b, err := os.ReadFile(counter)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "run\n")
}

// cacheProbe opens a Probe of root with the real tool lookup and the env cache
// at cache.
func cacheProbe(t *testing.T, root, cache string, wait time.Duration) *Probe {
	t.Helper()
	return openProbe(t, root, Options{ToolTimeout: 20 * time.Second, Wait: wait, CachePath: cache})
}

func TestEnvCache(t *testing.T) {
	root := t.TempDir()
	bin := t.TempDir()
	counts := t.TempDir()
	deno, bun := filepath.Join(counts, "deno"), filepath.Join(counts, "bun")
	testtree.Scripts(t, bin, map[string]string{"deno": counterTool(deno, "deno 1.0.0", "")})
	t.Setenv("PATH", bin)
	cache := filepath.Join(t.TempDir(), "fixplan", "env-cache.json")
	ctx := context.Background()

	first := cacheProbe(t, root, cache, time.Minute).Text(ctx)
	if !strings.Contains(first, "  deno: deno 1.0.0\n") || runs(t, deno) != 1 {
		t.Fatalf("first probe: %d runs\n%s", runs(t, deno), first)
	}
	if second := cacheProbe(t, root, cache, time.Minute).Text(ctx); second != first || runs(t, deno) != 1 {
		t.Fatalf("second probe ran the tool again (%d runs) or differs:\n%s", runs(t, deno), second)
	}

	// A new binary in the same place is probed again.
	testtree.Scripts(t, bin, map[string]string{"deno": counterTool(deno, "deno 2.0.0-new", "")})
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(bin, "deno"), later, later)
	if third := cacheProbe(t, root, cache, time.Minute).Text(ctx); !strings.Contains(third, "  deno: deno 2.0.0-new\n") || runs(t, deno) != 2 {
		t.Fatalf("changed binary: %d runs\n%s", runs(t, deno), third)
	}

	// A tool added to a PATH folder is found and probed; the others are not.
	testtree.Scripts(t, bin, map[string]string{"bun": counterTool(bun, "bun 1.1.1", "")})
	os.Chtimes(bin, later, later)
	fourth := cacheProbe(t, root, cache, time.Minute).Text(ctx)
	if !strings.Contains(fourth, "  bun: bun 1.1.1\n") || runs(t, bun) != 1 || runs(t, deno) != 2 {
		t.Fatalf("added tool: bun %d runs, deno %d runs\n%s", runs(t, bun), runs(t, deno), fourth)
	}

	// Another PATH is another entry; the first one stays.
	bin2 := t.TempDir()
	testtree.Scripts(t, bin2, map[string]string{"deno": counterTool(deno, "deno 3.0.0", "")})
	t.Setenv("PATH", bin2)
	if fifth := cacheProbe(t, root, cache, time.Minute).Text(ctx); !strings.Contains(fifth, "  deno: deno 3.0.0\n") || runs(t, deno) != 3 {
		t.Fatalf("other PATH: %d runs\n%s", runs(t, deno), fifth)
	}
	t.Setenv("PATH", bin)
	if again := cacheProbe(t, root, cache, time.Minute).Text(ctx); again != fourth || runs(t, deno) != 3 {
		t.Fatalf("back to the first PATH: %d runs\n%s", runs(t, deno), again)
	}
	if st, err := os.Stat(cache); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("cache file: %v %v", st, err)
	}
}

// TestEnvSlowProbeDoesNotHoldThePlan: a probe that cannot finish before the test
// lets it is reported as pending; it finishes in the background and the next
// Probe reads its version from the cache without running the tool again.
func TestEnvSlowProbeDoesNotHoldThePlan(t *testing.T) {
	root := t.TempDir()
	bin := t.TempDir()
	counts := t.TempDir()
	gate := filepath.Join(counts, "go-ahead")
	counter := filepath.Join(counts, "deno")
	testtree.Scripts(t, bin, map[string]string{
		"deno": counterTool(counter, "deno 1.0.0", gate),
		"bun":  "echo 'bun 1.2.3'\n",
	})
	t.Setenv("PATH", bin)
	cache := filepath.Join(t.TempDir(), "env-cache.json")
	ctx := context.Background()

	g := cacheProbe(t, root, cache, 50*time.Millisecond)
	text := g.Text(ctx)
	if !strings.Contains(text, "  deno: "+pendingVersion+"\n") {
		t.Fatalf("the slow probe is not reported as pending:\n%s", text)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	g.Wait()
	if again := g.Text(ctx); !strings.Contains(again, "  deno: deno 1.0.0\n") || !strings.Contains(again, "  bun: bun 1.2.3\n") {
		t.Fatalf("the finished probe is not used:\n%s", again)
	}
	if next := cacheProbe(t, root, cache, 50*time.Millisecond).Text(ctx); !strings.Contains(next, "  deno: deno 1.0.0\n") || runs(t, counter) != 1 {
		t.Fatalf("the background result was not cached (%d runs):\n%s", runs(t, counter), next)
	}
}

func TestEnvProbeTimeoutIsNotCached(t *testing.T) {
	root := t.TempDir()
	bin := t.TempDir()
	counter := filepath.Join(t.TempDir(), "deno")
	testtree.Scripts(t, bin, map[string]string{"deno": "echo run >> " + counter + "\nexec " + sleepCmd + " 30\n"})
	t.Setenv("PATH", bin)
	cache := filepath.Join(t.TempDir(), "env-cache.json")
	for i := 1; i <= 2; i++ {
		// The timeout must leave the script time to record its run before it is killed
		// (100 ms was not always enough on a loaded machine); the probe still times out.
		g := openProbe(t, root, Options{ToolTimeout: 1500 * time.Millisecond, Wait: time.Minute, CachePath: cache})
		text := g.Text(context.Background())
		g.Wait()
		if strings.Contains(text, "deno") || runs(t, counter) != i {
			t.Fatalf("round %d: %d runs\n%s", i, runs(t, counter), text)
		}
	}
}

// TestLookOutside finds a program the way fixplan finds the user's editor: the
// project's own programs of the same name are never found — neither in a PATH
// entry inside the project (absolute, relative or through a link) nor through a
// program link outside that leads into it.
func TestLookOutside(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	testtree.Scripts(t, root, map[string]string{"bin/ed1": "", "bin/ed2": ""})
	testtree.Scripts(t, out, map[string]string{"real/ed1": ""})
	testtree.Write(t, out, map[string]string{"into/bin": "->" + filepath.Join(root, "bin"), "links/ed2": "->" + filepath.Join(root, "bin", "ed2")})
	sep := string(os.PathListSeparator)
	list := strings.Join([]string{filepath.Join(root, "bin"), "bin", filepath.Join(out, "into", "bin"), filepath.Join(out, "links"), filepath.Join(out, "real")}, sep)
	got, err := LookOutside("ed1", root, list)
	if err != nil || got != filepath.Join(out, "real", "ed1") {
		t.Fatalf("LookOutside(ed1) = %q, %v; want the one outside the project", got, err)
	}
	if got, err := LookOutside("ed2", root, list); err == nil {
		t.Fatalf("LookOutside(ed2) = %q: found a program of the project", got)
	}
}
