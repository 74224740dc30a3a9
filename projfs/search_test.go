package projfs

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// searchFixture is a tree with .gitignore files (nested, negated, anchored),
// default-excluded folders, binaries, secrets, CRLF and unterminated lines.
func searchFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		".gitignore":                "*.log\nbuild-out/\n/rootonly.txt\n!keep.log\n",
		"a.txt":                     "needle one\nno\nneedle needle twice\r\nfunc (r *R) needle() {}\n",
		"keep.log":                  "needle kept by negation\n",
		"debug.log":                 "needle ignored\n",
		"rootonly.txt":              "needle anchored ignore\n",
		"sub/rootonly.txt":          "needle anchored only at root\n",
		"build-out/x.txt":           "needle in ignored dir\n",
		"sub/.gitignore":            "*.tmp\n!important.tmp\nsecretdir/\n",
		"sub/a.tmp":                 "needle tmp\n",
		"sub/important.tmp":         "needle important\n",
		"sub/deep/b.tmp":            "needle deep tmp\n",
		"sub/deep/c.go":             "package deep\n// needle TODO\nfunc (x) needle()\n",
		"sub/secretdir/x.txt":       "needle secretdir\n",
		"node_modules/pkg/index.js": "needle in node_modules\n",
		"vendor/v.go":               "needle vendored\n",
		"bin.dat":                   "needle\x00binary",
		"late.bin":                  "needle before a late NUL\n" + strings.Repeat("x", 20000) + "\x00",
		"utf8.txt":                  "naïve needle ä\nä\n",
		"noeol.txt":                 "first\nlast needle",
		".hidden/h.txt":             "needle hidden\n",
		".env":                      "needle=secret\n",
		"empty.txt":                 "",
		"dir with space/f.txt":      "needle spaced\n",
	})
	return root
}

// grepMatches computes the expected matches independently: git decides which
// files .gitignore leaves (git ls-files), folders fixplan always excludes and
// secret files are dropped by name, and grep -nHF -I finds the lines.
func grepMatches(t *testing.T, root, query string) []string {
	t.Helper()
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		parts := strings.Split(f, "/")
		if f == "" || slices.ContainsFunc(parts, func(p string) bool { return p == "node_modules" || p == "vendor" }) ||
			f == ".env" {
			continue
		}
		files = append(files, f)
	}
	args := append([]string{"-nHF", "-I", "--", query}, files...)
	cmd := exec.Command("grep", args...)
	cmd.Dir = root
	cmd.Env = []string{"LC_ALL=C"}
	out, err = cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("grep: %v", err)
	}
	var want []string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if l == "" {
			continue
		}
		p, rest, _ := strings.Cut(l, ":")
		n, _, _ := strings.Cut(rest, ":")
		want = append(want, p+":"+n)
	}
	slices.Sort(want)
	return want
}

func TestSearchMatchesGrep(t *testing.T) {
	root := searchFixture(t)
	queries := []string{"needle", "needle needle", "func (", "TODO", "ä", "e", "nothing-matches-this"}
	walkers := map[string]func(string) (Dir, error){"platform": openTopFunc, "os.Root": openRootTop}
	for wname, open := range walkers {
		for _, q := range queries {
			t.Run(fmt.Sprintf("%s/%q", wname, q), func(t *testing.T) {
				r := openRoot(t, root, Options{})
				r.openTop = open
				res, err := r.Search(context.Background(), q, SearchOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, m := range res.Matches {
					got = append(got, m.Path+":"+fmt.Sprint(m.Line))
				}
				slices.Sort(got)
				want := grepMatches(t, root, q)
				if !slices.Equal(got, want) {
					t.Errorf("search %q\ngot  %v\nwant %v", q, got, want)
				}
				if res.Total != len(want) {
					t.Errorf("Total = %d, want %d", res.Total, len(want))
				}
			})
		}
	}
}

func TestSearchOptions(t *testing.T) {
	root := searchFixture(t)
	r := openRoot(t, root, Options{})
	tests := []struct {
		name    string
		query   string
		o       SearchOptions
		want    []string // path:line, in order
		total   int
		wantErr string
	}{
		{"glob base name", "needle", SearchOptions{Glob: "*.go"}, []string{"sub/deep/c.go:2", "sub/deep/c.go:3"}, 2, ""},
		{"glob with dirs", "needle", SearchOptions{Glob: "sub/**/*.tmp"}, []string{"sub/important.tmp:1"}, 1, ""},
		{"glob braces", "needle", SearchOptions{Glob: "{a,utf8}.txt"}, []string{"a.txt:1", "a.txt:3", "a.txt:4", "utf8.txt:1"}, 4, ""},
		{"max bounds, total counts all", "needle", SearchOptions{Glob: "*.txt", Max: 2}, []string{".hidden/h.txt:1", "a.txt:1"}, 8, ""},
		{"NUL never matches (binaries skipped)", "\x00", SearchOptions{}, nil, 0, ""},
		{"case sensitive", "NEEDLE", SearchOptions{}, nil, 0, ""},
		{"empty query", "", SearchOptions{}, nil, 0, "empty"},
		{"multi-line query", "a\nb", SearchOptions{}, nil, 0, "spans lines"},
		{"bad glob", "x", SearchOptions{Glob: "[a"}, nil, 0, "invalid glob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Search(context.Background(), tt.query, tt.o)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Matches {
				got = append(got, m.Path+":"+fmt.Sprint(m.Line))
			}
			if !slices.Equal(got, tt.want) || res.Total != tt.total {
				t.Errorf("got %v (total %d), want %v (total %d)", got, res.Total, tt.want, tt.total)
			}
		})
	}
}

func TestSearchText(t *testing.T) {
	root := searchFixture(t)
	r := openRoot(t, root, Options{})
	res, err := r.Search(context.Background(), "twice", SearchOptions{})
	if err != nil || len(res.Matches) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if m := res.Matches[0]; m.Text != "needle needle twice" || m.Line != 3 {
		t.Errorf("match = %+v (CR must be stripped)", m)
	}
	res, _ = r.Search(context.Background(), "last needle", SearchOptions{})
	if len(res.Matches) != 1 || res.Matches[0].Text != "last needle" || res.Matches[0].Line != 2 {
		t.Errorf("unterminated last line: %+v", res.Matches)
	}
}

func TestFinder(t *testing.T) {
	tests := []struct{ data, q string }{
		{"", "a"}, {"a", "a"}, {"xxab", "ab"}, {"ab", "abc"}, {"err != nil", "!="}, {"aaaa!b", "a!b"},
		{"!x!y!z", "!z"}, {"zzzz", "zz"}, {"needle", "needle"}, {"  != ", "!= "},
	}
	for _, tt := range tests {
		t.Run(tt.q+"/"+tt.data, func(t *testing.T) {
			got := newFinder([]byte(tt.q)).index([]byte(tt.data))
			if want := bytes.Index([]byte(tt.data), []byte(tt.q)); got != want {
				t.Errorf("index = %d, want %d", got, want)
			}
		})
	}
}

func FuzzFinder(f *testing.F) {
	f.Add("err != nil { return err }", "!= nil")
	f.Fuzz(func(t *testing.T, data, q string) {
		if q == "" {
			return
		}
		if got, want := newFinder([]byte(q)).index([]byte(data)), strings.Index(data, q); got != want {
			t.Fatalf("index(%q, %q) = %d, want %d", data, q, got, want)
		}
	})
}

// BenchmarkSearchGoroot searches Go's own source tree (the bench/search script
// compares the CLI with ripgrep on it).
func BenchmarkSearchGoroot(b *testing.B) {
	r := gorootSrc(b)
	for _, q := range []string{"sigprofNonGoPC", "return nil", "err != nil"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				if _, err := r.Search(context.Background(), q, SearchOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLiterals: several literals found at once give, for each, the lines
// Search's matcher gives it alone; an empty literal and an absent one give none.
func TestLiterals(t *testing.T) {
	data := []byte("needle one\r\nno\nneedle needle twice\nfunc (r *R) needle() {}\nlast needle")
	qs := []string{"needle", "", "func (", "absent", "needle needle"}
	got := NewLiterals(qs).Lines("a.txt", data)
	if len(got) != len(qs) {
		t.Fatalf("Lines gave %d lists for %d literals", len(got), len(qs))
	}
	for i, q := range qs {
		var want []Match
		if q != "" {
			want = scanFile(data, newFinder([]byte(q)), "a.txt")
		}
		if fmt.Sprint(got[i]) != fmt.Sprint(want) {
			t.Errorf("%q: %+v, want %+v", q, got[i], want)
		}
	}
	if got[0][0].Text != "needle one" || got[0][3].Line != 5 {
		t.Errorf("lines: %+v", got[0])
	}
	if NewLiterals([]string{"absent"}).Lines("a.txt", data) != nil {
		t.Error("no literal found should give nil")
	}
}

// gorootSrc opens Go's own source tree ($(go env GOROOT)/src) for a
// benchmark, closed at its end.
func gorootSrc(b *testing.B) *Root {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatal("go env GOROOT:", err)
	}
	r, err := OpenRoot(filepath.Join(strings.TrimSpace(string(out)), "src"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return r
}
