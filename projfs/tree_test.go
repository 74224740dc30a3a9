package projfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fixplan/internal/testtree"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// walkers are the two ways a tree is read: the platform's (raw descriptors on
// Linux) and the portable os.Root one.
var walkers = map[string]func(string) (Dir, error){"platform": openTopFunc, "os.Root": openRootTop}

// TestTreeListsWhatWalkVisits: a tree's listing is the files Walk visits,
// made by one walk however many times it is read.
func TestTreeListsWhatWalkVisits(t *testing.T) {
	root := searchFixture(t)
	for wname, open := range walkers {
		t.Run(wname, func(t *testing.T) {
			r := openRoot(t, root, Options{})
			r.openTop = open
			var mu sync.Mutex
			var want []string
			if err := r.Walk(context.Background(), func(_ Dir, rel, _ string) {
				mu.Lock()
				want = append(want, rel)
				mu.Unlock()
			}); err != nil {
				t.Fatal(err)
			}
			slices.Sort(want)
			before := r.Walks()
			tree := r.Tree(TreeOptions{})
			for range 3 {
				var got []string
				for rel, name := range tree.Files(context.Background()) {
					if filepath.Base(rel) != name {
						t.Errorf("Files gave %q with name %q", rel, name)
					}
					got = append(got, rel)
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("tree lists %v\nwalk visits %v", got, want)
				}
			}
			if _, err := tree.Search(context.Background(), "needle", SearchOptions{}); err != nil {
				t.Fatal(err)
			}
			if n := r.Walks() - before; n != 1 {
				t.Errorf("the tree was walked %d times, want 1", n)
			}
		})
	}
}

// TestTreeSearchIsRootSearch: searching a tree's listing finds what a search
// of the root finds (grep's set, TestSearchMatchesGrep), options included,
// with both walkers (and, on Linux, without openat2:
// TestTreeSearchWithoutOpenat2).
func TestTreeSearchIsRootSearch(t *testing.T) {
	root := searchFixture(t)
	for wname, open := range walkers {
		t.Run(wname, func(t *testing.T) {
			r := openRoot(t, root, Options{})
			r.openTop = open
			treeSearchIsRootSearch(t, r)
		})
	}
	// errors are Search's
	if _, err := openRoot(t, root, Options{}).Tree(TreeOptions{}).Search(context.Background(), "a\nb", SearchOptions{}); err == nil {
		t.Error("a multi-line query was searched")
	}
}

// treeSearchIsRootSearch compares a tree's search with r's own, for several
// queries and options.
func treeSearchIsRootSearch(t *testing.T, r *Root) {
	t.Helper()
	queries := []string{"needle", "needle needle", "func (", "TODO", "ä", "e", "nothing-matches-this"}
	opts := []SearchOptions{{}, {Glob: "*.go"}, {Glob: "sub/**/*.tmp"}, {Glob: "*.txt", Max: 2},
		{Want: func(rel, _ string) bool { return strings.HasPrefix(rel, "sub/") }}}
	for _, q := range queries {
		for _, o := range opts {
			want, err := r.Search(context.Background(), q, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Tree(TreeOptions{}).Search(context.Background(), q, o)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("search %q %+v:\ntree %+v\nroot %+v", q, o.Glob, got, want)
			}
		}
	}
}

// TestTreeScan: Want picks the files read, MaxFileBytes skips bigger ones,
// Rank orders the folders, MaxReadBytes stops reading, and a folder replaced
// by a symlink leading out of the root after the listing is not read.
func TestTreeScan(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	files := map[string]string{"big.txt": strings.Repeat("x", 5000) + "\n"}
	for i := range 4 {
		files[fmt.Sprintf("d%d/a.go", i)] = fmt.Sprintf("package d%d\n", i)
		files[fmt.Sprintf("d%d/b.txt", i)] = "text\n"
	}
	testtree.Write(t, root, files)
	testtree.Write(t, filepath.Join(base, "outside"), map[string]string{"a.go": "OUTSIDE\n"})
	for wname, open := range walkers {
		t.Run(wname, func(t *testing.T) {
			r := openRoot(t, root, Options{})
			r.openTop = open
			tree := r.Tree(TreeOptions{})
			scan := func(o ScanOptions) []string {
				var mu sync.Mutex
				var got []string
				if err := tree.Scan(context.Background(), o, func(rel string, data []byte) {
					mu.Lock()
					got = append(got, rel+"="+strings.TrimSpace(string(data[:min(len(data), 12)])))
					mu.Unlock()
				}); err != nil {
					t.Fatal(err)
				}
				return got
			}
			goFiles := func(_, name string) bool { return strings.HasSuffix(name, ".go") }
			got := scan(ScanOptions{Want: goFiles})
			slices.Sort(got)
			if want := []string{"d0/a.go=package d0", "d1/a.go=package d1", "d2/a.go=package d2", "d3/a.go=package d3"}; !slices.Equal(got, want) {
				t.Errorf("Want: read %v", got)
			}
			if got := scan(ScanOptions{MaxFileBytes: 1000}); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "big.txt") }) || len(got) != 8 {
				t.Errorf("MaxFileBytes: read %v", got)
			}
			// one folder at a time, nearest d2 first: the bound stops after it
			runtimeProcs := scanWorkers
			scanWorkers = func(int) int { return 1 }
			defer func() { scanWorkers = runtimeProcs }()
			rank := func(dir string) int {
				if dir == "d2" {
					return 0
				}
				return 1
			}
			if got := scan(ScanOptions{Want: goFiles, Rank: rank, MaxReadBytes: 5}); !slices.Equal(got, []string{"d2/a.go=package d2"}) {
				t.Errorf("Rank and MaxReadBytes: read %v", got)
			}
			scanWorkers = runtimeProcs
			// d1 becomes a link to a folder outside the root after the listing
			if err := os.RemoveAll(filepath.Join(root, "d1")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "d1")); err != nil {
				t.Fatal(err)
			}
			defer func() {
				os.Remove(filepath.Join(root, "d1"))
				testtree.Write(t, root, map[string]string{"d1/a.go": "package d1\n", "d1/b.txt": "text\n"})
			}()
			got = scan(ScanOptions{Want: goFiles})
			slices.Sort(got)
			if want := []string{"d0/a.go=package d0", "d2/a.go=package d2", "d3/a.go=package d3"}; !slices.Equal(got, want) {
				t.Errorf("after d1 became a link out: read %v", got)
			}
		})
	}
}

// TestTreeModTimes: the files' modification times, recorded as they are
// listed or stat-ed afterwards, are the same.
func TestTreeModTimes(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n", "sub/c.txt": "c\n"})
	when := map[string]time.Time{
		"a.txt":     time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
		"sub/b.txt": time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC),
		"sub/c.txt": time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for rel, mt := range when {
		if err := os.Chtimes(filepath.Join(root, rel), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	for wname, open := range walkers {
		for _, listed := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/listed=%v", wname, listed), func(t *testing.T) {
				r := openRoot(t, root, Options{})
				r.openTop = open
				got := map[string]time.Time{}
				for rel, mt := range r.Tree(TreeOptions{ModTimes: listed}).ModTimes(context.Background()) {
					got[rel] = mt
				}
				if len(got) != len(when) {
					t.Fatalf("ModTimes gave %v", got)
				}
				for rel, mt := range when {
					if !got[rel].Equal(mt) {
						t.Errorf("%s: %v, want %v", rel, got[rel], mt)
					}
				}
			})
		}
	}
}

// TestIgnoreQuickTest: the quick test a .gitignore line of one name gets
// skips only patterns that cannot match: every path is ignored or not as
// go-git's patterns alone decide.
func TestIgnoreQuickTest(t *testing.T) {
	lines := []string{"node_modules/", "*.log", "!keep.log", "build", "/rootonly", "docs/*.md", "a?c", "[ab].txt", "**/gen",
		"trail  ", `sp\ `, "!", "*.min.js", `\#x`, "x*y", "sub/", "*"}
	comps := []string{"node_modules", "a.log", "keep.log", "build", "rootonly", "docs", "x.md", "abc", "a.txt", "gen", "trail",
		"sp ", "x.min.js", "#x", "xzy", "sub", "src", "lib"}
	// each line alone, then all of them (the last that matches decides)
	sets := [][]string{lines}
	for _, l := range lines {
		sets = append(sets, []string{l})
	}
	for _, set := range sets {
		for _, domain := range [][]string{nil, {"src"}} {
			checkIgnored(t, set, domain, comps)
		}
	}
}

// checkIgnored compares ignored, with the quick tests, with go-git's
// patterns alone for lines in domain over every path of three of comps.
func checkIgnored(t *testing.T, lines []string, domain []string, comps []string) {
	t.Helper()
	var ps []ignorePattern
	for _, l := range lines {
		ps = append(ps, newIgnorePattern(l, domain))
	}
	for _, a := range comps {
		for _, b := range comps {
			dir := []string{a, b}
			anc := make([]bool, len(ps))
			for i, q := range ps {
				anc[i] = !q.quick || slices.ContainsFunc(dir, q.nameMay)
			}
			for _, c := range comps {
				for _, isDir := range []bool{false, true} {
					want := false
					for i := len(ps) - 1; i >= 0; i-- {
						if m := ps[i].p.Match([]string{a, b, c}, isDir); m != gitignore.NoMatch {
							want = m == gitignore.Exclude
							break
						}
					}
					if got := ignored(ps, anc, dir, c, isDir); got != want {
						t.Fatalf("%q in %v: %s/%s/%s dir=%v: ignored %v, go-git says %v", lines, domain, a, b, c, isDir, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkTreeGoroot lists Go's own source tree and searches the listing
// (what one base context does: one walk, then its readers), next to
// BenchmarkSearchGoroot's walk that reads as it lists.
func BenchmarkTreeGoroot(b *testing.B) {
	r := gorootSrc(b)
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			r.Tree(TreeOptions{}).Len(context.Background())
		}
	})
	b.Run("list and search", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.Tree(TreeOptions{}).Search(context.Background(), "sigprofNonGoPC", SearchOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
