package projfs

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"fixplan/internal/testtree"
)

// openRoot opens a Root on root with o, failing the test on error.
func openRoot(t *testing.T, root string, o Options) *Root {
	t.Helper()
	r, err := OpenRoot(root, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

const outsideMarker = "OUTSIDE-THE-ROOT-7f3a"

// TestWalkNeverLeavesRoot checks search and the files a walk visits over a root
// full of outward symlinks, with both walkers: no text from outside the root or
// from .git comes back, and binaries are not searched.
func TestWalkNeverLeavesRoot(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	root := filepath.Join(base, "root")
	testtree.Write(t, outside, map[string]string{"secret.txt": outsideMarker + "\n", "dir/x.txt": outsideMarker + "\n"})
	testtree.Write(t, root, map[string]string{
		"src/main.go":           "package main\n\nfunc main() {}\n",
		".git/config":           "[core]\n" + outsideMarker + "\n",
		"bin.dat":               "\x00\x01\x02needle",
		"link_out":              "->" + filepath.Join(outside, "secret.txt"),
		"link_out_rel":          "->../outside/secret.txt",
		"dir_out":               "->" + outside,
		"abs_link":              "->/etc/passwd",
		"gitlink":               "->.git/config",
		"loop":                  "->loop",
		"sub/deeper/escape.txt": "->../../../outside/secret.txt",
	})
	walkers := map[string]func(string) (Dir, error){"platform": openTopFunc, "os.Root": openRootTop}
	for name, open := range walkers {
		t.Run(name, func(t *testing.T) {
			r := openRoot(t, root, Options{})
			r.openTop = open
			res, err := r.Search(context.Background(), outsideMarker[:10], SearchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != 0 {
				t.Errorf("search found text outside the root or in .git: %+v", res.Matches)
			}
			res, err = r.Search(context.Background(), "needle", SearchOptions{})
			if err != nil || res.Total != 0 {
				t.Errorf("search read a binary file: %+v %v", res.Matches, err)
			}
			var mu sync.Mutex
			var seen []string
			if err := r.Walk(context.Background(), func(_ Dir, rel, _ string) {
				mu.Lock()
				seen = append(seen, rel)
				mu.Unlock()
			}); err != nil {
				t.Fatal(err)
			}
			slices.Sort(seen)
			if want := []string{"bin.dat", "src/main.go"}; !slices.Equal(seen, want) {
				t.Errorf("walk visited %v, want %v (no links, nothing in .git)", seen, want)
			}
		})
	}
}

func TestCleanRel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a/b.go", "a/b.go"},
		{"./a//b.go", "a/b.go"},
		{`a\b.go`, "a/b.go"},
		{"a/./c/../b.go", ""}, // any .. is refused, even one that stays inside
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := CleanRel(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("CleanRel(%q) = %q, want refusal", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("CleanRel(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestIsSecretPath(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{".env", true}, {".env.production", true}, {"deploy/prod.env", true}, {"a/server.PEM", true},
		{"tls.key", true}, {"cert.p12", true}, {"id_rsa.pub", true}, {"id_ed25519", true},
		{"home/.aws/credentials", true}, {"credentials.json", true}, {".netrc", true}, {"secrets/x.yaml", true},
		{"config/secrets.yml", true}, {".ssh/config", true},
		{"src/env.go", false}, {"keyboard.go", false}, {"monkey.txt", false}, {"docs/credentials.md", false},
		{"environment.ts", false}, {"secret_santa.py", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := IsSecretPath(tt.path); got != tt.want {
				t.Errorf("IsSecretPath(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

func TestIsBinary(t *testing.T) {
	latin1 := strings.Repeat("caf\xe9 cr\xe8me ", 20)
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"empty", "", false},
		{"ascii", "hello\nworld\n", false},
		{"utf8", "naïve ☃ 日本語\n", false},
		{"nul", "ab\x00cd", true},
		{"late nul", strings.Repeat("a", 9000) + "\x00", true},
		{"mostly invalid utf-8", strings.Repeat("\xff\xfe\x80", 100), true},
		{"some latin-1 stays text", "hello world, this is a long enough text with " + latin1[:20], false},
		{"cut utf-8 at the end stays text", "abc\xe2\x98", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsBinary([]byte(tt.data)); got != tt.want {
				t.Errorf("IsBinary = %v, want %v", got, tt.want)
			}
		})
	}
}
