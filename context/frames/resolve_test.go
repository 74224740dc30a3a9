package frames

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

func resolveFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"app/calc.py":        "x\n",
		"tests/test_calc.py": "x\n",
		"orders/models.py":   "x\n",
		"billing/models.py":  "x\n",
		"src/main/java/com/acme/greeter/Greeter.java": "x\n",
		"src/test/java/com/acme/greeter/Greeter.java": "x\n",
		"src/main/java/com/other/Greeter.java":        "x\n",
		"internal/hub/hub.go":                         "x\n",
		"cmd/relay/main.go":                           "x\n",
		"tools/main.go":                               "x\n",
		"calc/calc_test.go":                           "x\n",
		"src/server.js":                               "x\n",
		"node_modules/express/lib/router/layer.js":    "x\n",
		"src/components/Button.tsx":                   "x\n",
		"lib/util.c":                                  "x\n",
		".env":                                        "SECRET=1\n",
		"ignored/gen.py":                              "x\n",
		".gitignore":                                  "ignored/\n",
		"venv/lib/python3.12/site-packages/_pytest/python.py": "x\n",
	})
	return root
}

func TestResolveFrames(t *testing.T) {
	root := resolveFixture(t)
	g := NewResolver(projfstest.Open(t, root, projfs.Options{}).Tree(projfs.TreeOptions{}))
	tests := []struct {
		name    string
		frame   Frame
		file    string
		library bool
	}{
		{"relative exists", Frame{Path: "app/calc.py", Line: 1}, "app/calc.py", false},
		{"dot slash", Frame{Path: "./app/calc.py", Line: 1}, "app/calc.py", false},
		{"absolute from another machine", Frame{Path: "/home/alice/work/proj/tests/test_calc.py", Line: 4}, "tests/test_calc.py", false},
		{"windows absolute", Frame{Path: `C:\Users\bob\proj\app\calc.py`, Line: 2}, "app/calc.py", false},
		{"windows relative", Frame{Path: `lib\util.c`, Line: 9}, "lib/util.c", false},
		{"longest suffix wins", Frame{Path: "/srv/x/orders/models.py", Line: 57}, "orders/models.py", false},
		{"bare name ambiguous", Frame{Path: "models.py", Line: 1}, "", false},
		{"bare name unique", Frame{Path: "calc_test.go", Line: 12}, "calc/calc_test.go", false},
		{"go main ambiguous by base, resolved by dir", Frame{Path: "/build/relay/cmd/relay/main.go", Line: 30}, "cmd/relay/main.go", false},
		{"java class picks package", Frame{Path: "Greeter.java", Line: 14, Class: "com.other.Greeter"}, "src/main/java/com/other/Greeter.java", false},
		{"java same package in main and test is a tie", Frame{Path: "Greeter.java", Line: 14, Class: "com.acme.greeter.Greeter"}, "", false},
		{"jdk frame", Frame{Path: "Thread.java", Line: 833, Class: "java.lang.Thread"}, "", true},
		{"site-packages", Frame{Path: "/usr/lib/python3.11/site-packages/pluggy/_hooks.py", Line: 1}, "", true},
		{"node_modules", Frame{Path: "/Users/jo/api/node_modules/express/lib/router/layer.js", Line: 95}, "", true},
		{"node internal", Frame{Path: "node:internal/modules/cjs/loader", Line: 1376}, "", true},
		{"goroot", Frame{Path: "/usr/local/go/src/net/http/server.go", Line: 2220}, "", true},
		{"module cache", Frame{Path: "/home/runner/go/pkg/mod/gopkg.in/yaml.v3@v3.0.1/yaml.go", Line: 294}, "", true},
		{"rustlib", Frame{Path: "/rustc/90b35a/library/core/src/panicking.rs", Line: 208}, "", true},
		{"cargo registry", Frame{Path: "/home/li/.cargo/registry/src/x/rayon/src/registry.rs", Line: 1}, "", true},
		{"system header", Frame{Path: "/usr/include/c++/12/bits/stl_vector.h", Line: 1}, "", true},
		{"library copy inside the root", Frame{Path: "venv/lib/python3.12/site-packages/_pytest/python.py", Line: 1}, "venv/lib/python3.12/site-packages/_pytest/python.py", true},
		{"library never matched by suffix", Frame{Path: "/opt/venv/lib/python3.12/site-packages/_pytest/python.py", Line: 1}, "", true},
		{"not in project", Frame{Path: "/elsewhere/unknown.py", Line: 3}, "", false},
		{"secret never resolved", Frame{Path: ".env", Line: 1}, "", false},
		{"gitignored file not found by suffix", Frame{Path: "/x/ignored/gen.py", Line: 1}, "", false},
		{"gitignored file found by exact path", Frame{Path: "ignored/gen.py", Line: 1}, "ignored/gen.py", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := g.Frames(context.Background(), []Frame{tt.frame})[0]
			if got.File != tt.file || got.Library != tt.library {
				t.Errorf("resolve %+v = file %q library %v; want %q %v", tt.frame, got.File, got.Library, tt.file, tt.library)
			}
		})
	}
}

func TestResolveTraceGoPackages(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"calc/calc_test.go": "x", "other/calc_test.go": "x", "util_test.go": "x"})
	g := NewResolver(projfstest.Open(t, root, projfs.Options{}).Tree(projfs.TreeOptions{}))
	tests := []struct {
		name, text, want string
	}{
		{"failing package picks the folder", "--- FAIL: TestAdd\n    calc_test.go:12: bad\nFAIL\tgithub.com/acme/proj/calc\t0.01s\n", "calc/calc_test.go"},
		{"build header", "# example.com/proj/other [example.com/proj/other.test]\ncalc_test.go:3:2: undefined: x\n", "other/calc_test.go"},
		{"no package named stays unresolved", "calc_test.go:12: bad\n", ""},
		// go test prints each package's output before its FAIL line
		{"the FAIL line below the frame names its package", "calc_test.go:12: bad\nFAIL\tx.com/p/calc\t0.1s\nFAIL\tx.com/p/other\t0.1s\n", "calc/calc_test.go"},
		{"two packages disagree", "FAIL\tx.com/p/calc\t0.1s\nFAIL\tx.com/p/other\t0.1s\ncalc_test.go:12: bad\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := g.Trace(context.Background(), tt.text)
			if len(rs) != 1 || rs[0].File != tt.want {
				t.Errorf("ResolveTrace = %+v, want file %q", rs, tt.want)
			}
		})
	}
}

// TestResolveTraceGoPackageFolder: go test prints a test file's name relative
// to its package's folder; when the root has a file of the same name, the
// frame still resolves to the file in the package that failed (mapped through
// go.mod's module path, nested modules too), and the failing test's definition
// is taken from that package.
func TestResolveTraceGoPackageFolder(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod":                   "module example.com/lru/v2\n\ngo 1.22\n",
		"lru_test.go":              "package lru\n\nimport \"testing\"\n\nfunc TestLRU(t *testing.T) {\n\tt.Log(\"root\")\n}\n",
		"simplelru/lru_test.go":    "package simplelru\n\nimport \"testing\"\n\nfunc TestLRU(t *testing.T) {\n\tt.Log(\"simple\")\n}\n",
		"tools/go.mod":             "module example.com/tools\n",
		"tools/gen/lru_test.go":    "package gen\n",
		"vendor2/example.com/x.go": "package x\n",
	})
	g := NewResolver(projfstest.Open(t, root, projfs.Options{}).Tree(projfs.TreeOptions{}))
	tests := []struct {
		name, text string
		want       []string
	}{
		{"package folder wins over the root's file", "--- FAIL: TestLRU (0.00s)\n    lru_test.go:6: bad key: 128\nFAIL\nFAIL\texample.com/lru/v2/simplelru\t0.010s\nFAIL\n",
			[]string{"simplelru/lru_test.go"}},
		{"the root package", "--- FAIL: TestLRU (0.00s)\n    lru_test.go:6: bad\nFAIL\nFAIL\texample.com/lru/v2\t0.010s\n", []string{"lru_test.go"}},
		{"go test ./... with two packages", "--- FAIL: TestLRU (0.00s)\n    lru_test.go:6: root\nFAIL\nFAIL\texample.com/lru/v2\t0.01s\n--- FAIL: TestLRU (0.00s)\n    lru_test.go:7: simple\nFAIL\nFAIL\texample.com/lru/v2/simplelru\t0.01s\nok  \texample.com/lru/v2/expirable\t0.01s\n",
			[]string{"lru_test.go", "simplelru/lru_test.go"}},
		{"a nested module", "--- FAIL: TestGen (0.00s)\n    lru_test.go:1: x\nFAIL\texample.com/tools/gen\t0.01s\n", []string{"tools/gen/lru_test.go"}},
		{"a build header", "# example.com/lru/v2/simplelru [example.com/lru/v2/simplelru.test]\nlru_test.go:5:2: undefined: x\nFAIL\texample.com/lru/v2/simplelru [build failed]\n",
			[]string{"simplelru/lru_test.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := g.Trace(context.Background(), tt.text)
			var got []string
			for _, r := range rs {
				got = append(got, r.File)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("ResolveTrace files = %q, want %q", got, tt.want)
			}
		})
	}
	// the failing test's definition is taken from the package that failed
	for _, problem := range []string{
		tests[0].text,
		"--- FAIL: TestLRU (0.00s)\nFAIL\nFAIL\texample.com/lru/v2/simplelru\t0.010s\n", // no line named
	} {
		if d, ok := g.TestDefinition(context.Background(), FailingTest{Name: "TestLRU"}, problem); !ok || d.File != "simplelru/lru_test.go" || d.Line != 5 {
			t.Errorf("TestDefinition = %+v, %v; want simplelru/lru_test.go:5", d, ok)
		}
	}
}

// TestResolveTraceGoldens resolves a few golden traces against a project laid
// out like the machine that produced them.
func TestResolveTraceGoldens(t *testing.T) {
	root := resolveFixture(t)
	g := NewResolver(projfstest.Open(t, root, projfs.Options{}).Tree(projfs.TreeOptions{}))
	tests := []struct {
		trace string
		want  []string // resolved files in frame order ("" = unresolved)
	}{
		{"gopanic_2_goroutines", []string{"internal/hub/hub.go", "internal/hub/hub.go", "cmd/relay/main.go", "", ""}},
		{"node_2_esm", []string{"", "", ""}},
		{"tsc_1", []string{"src/components/Button.tsx", "src/components/Button.tsx"}},
		{"msvc_4_spaces", []string{"", "lib/util.c"}},
	}
	for _, tt := range tests {
		t.Run(tt.trace, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "traces", tt.trace+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			rs := g.Frames(context.Background(), Parse(string(b)))
			var got []string
			for _, r := range rs {
				got = append(got, r.File)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
