package apply

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// moduleDir downloads module@version through the Go module proxy and returns its
// folder in the module cache.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v (the Go module proxy must be reachable)", mod, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %s %v", mod, info.Error, err)
	}
	return info.Dir
}

// copyTree copies src to dst with writable modes, prefixing every file with header.
func copyTree(t *testing.T, src, dst, header string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, append([]byte(header), b...), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func files(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	for p, st := range snapshot(t, root) {
		if !st.dir {
			out[p] = st.data
		}
	}
	return out
}

// releaseDiff copies the releases oldDir and newDir to work/old and work/new
// and returns the git diff from one to the other, with a/ and b/ paths
// relative to the release.
func releaseDiff(t *testing.T, oldDir, newDir, work string) string {
	t.Helper()
	copyTree(t, oldDir, filepath.Join(work, "old"), "")
	copyTree(t, newDir, filepath.Join(work, "new"), "")
	cmd := exec.Command("git", "diff", "--no-index", "--no-renames", "old", "new")
	cmd.Dir = work
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("git diff: %v", err)
	}
	diff := strings.NewReplacer("a/old/", "a/", "b/new/", "b/").Replace(string(out))
	if !strings.Contains(diff, "@@") {
		t.Fatalf("%s → %s: empty diff", oldDir, newDir)
	}
	return diff
}

// TestRealReleasePatches diffs two tagged releases of a real Go module with git,
// applies the diff with ApplyPatch and compares byte-exact with the newer release;
// then again with 5 lines inserted at the top of every file (offset placement).
func TestRealReleasePatches(t *testing.T) {
	long(t, "applying the git diffs between two releases of two Go modules (fetched through the module proxy) and undoing them")
	pairs := [][2]string{
		{"github.com/google/uuid@v1.5.0", "github.com/google/uuid@v1.6.0"},
		{"github.com/bmatcuk/doublestar/v4@v4.9.0", "github.com/bmatcuk/doublestar/v4@v4.10.4"},
	}
	const header = "// header line 1\n// header line 2\n// header line 3\n// header line 4\n// header line 5\n"
	for _, pair := range pairs {
		oldDir, newDir := moduleDir(t, pair[0]), moduleDir(t, pair[1])
		work := t.TempDir()
		diff := releaseDiff(t, oldDir, newDir, work)
		for _, offset := range []bool{false, true} {
			name := pair[0] + "→" + pair[1]
			if offset {
				name += " with 5 lines on top"
			}
			t.Run(name, func(t *testing.T) {
				root := t.TempDir()
				h := ""
				if offset {
					h = header
				}
				copyTree(t, oldDir, root, h)
				oldFiles := files(t, root)
				e := open(t, root, nil)
				res, cs, err := e.ApplyPatch(bg, diff, false)
				if err != nil {
					t.Fatalf("ApplyPatch: %v", err)
				}
				got := files(t, root)
				want := map[string]string{}
				for p, c := range files(t, filepath.Join(work, "new")) {
					if _, existed := oldFiles[p]; existed && offset {
						c = header + c
					}
					want[p] = c
				}
				for p, c := range want {
					if got[p] != c {
						t.Errorf("%s differs from the newer release", p)
					}
				}
				for p := range got {
					if _, ok := want[p]; !ok {
						t.Errorf("%s should not exist", p)
					}
				}
				placed := 0
				for _, c := range cs {
					for _, pl := range c.Placement {
						placed++
						if offset && c.Op == "update" && !strings.HasPrefix(pl, "offset +5") {
							t.Errorf("%s placed %q, want offset +5", c.Path, pl)
						}
					}
				}
				t.Logf("%d files, %d hunks, transaction %s", len(cs), placed, res.Transaction)
				if _, err := e.Undo(bg); err != nil {
					t.Fatal(err)
				}
				if d := diffSnap(snapshotOf(oldFiles), snapshotOf(files(t, root))); d != "" {
					t.Fatalf("undo differs:\n%s", d)
				}
			})
		}
	}
}

func snapshotOf(m map[string]string) map[string]fileState {
	out := map[string]fileState{}
	for k, v := range m {
		out[k] = fileState{data: v}
	}
	return out
}

// TestRealReleasePatchesShifted applies the git diff between two releases of
// real Go modules to the older release with N lines inserted at the top of
// every file, as a licence header added to a whole tree would be, and wants
// the newer release with the same N lines on top, byte for byte: a uniform
// shift must not keep a release diff from applying, nor move a hunk. Files the
// diff deletes are not shifted (a diff deletes a file only with all of its
// lines). Every hunk of a changed file must be placed at its stated line + N.
func TestRealReleasePatchesShifted(t *testing.T) {
	long(t, "applying the git diffs between releases of four Go modules (fetched through the module proxy) to trees with lines inserted at the top of every file")
	pairs := [][2]string{
		{"github.com/google/uuid@v1.5.0", "github.com/google/uuid@v1.6.0"},
		{"github.com/bmatcuk/doublestar/v4@v4.9.0", "github.com/bmatcuk/doublestar/v4@v4.10.4"},
		{"github.com/bluekeyes/go-gitdiff@v0.8.0", "github.com/bluekeyes/go-gitdiff@v0.9.0"},
		{"github.com/spf13/cobra@v1.7.0", "github.com/spf13/cobra@v1.8.0"},
	}
	for _, pair := range pairs {
		work := t.TempDir()
		diff := releaseDiff(t, moduleDir(t, pair[0]), moduleDir(t, pair[1]), work)
		oldFiles, newFiles := files(t, filepath.Join(work, "old")), files(t, filepath.Join(work, "new"))
		for _, n := range []int{1, 5, 23} {
			t.Run(fmt.Sprintf("%s→%s with %d lines on top", pair[0], pair[1], n), func(t *testing.T) {
				var header strings.Builder
				for i := 1; i <= n; i++ {
					fmt.Fprintf(&header, "// inserted header line %d of %d\n", i, n)
				}
				h := header.String()
				before, want := map[string]string{}, map[string]string{}
				for p, c := range oldFiles {
					if _, kept := newFiles[p]; kept {
						c = h + c
					}
					before[p] = c
				}
				for p, c := range newFiles {
					if _, existed := oldFiles[p]; existed {
						c = h + c
					}
					want[p] = c
				}
				root := tree(t, before)
				e := open(t, root, nil)
				defer e.Close()
				_, cs, err := e.ApplyPatch(bg, diff, false)
				if err != nil {
					t.Fatalf("ApplyPatch: %v", err)
				}
				got := files(t, root)
				for p, c := range want {
					if got[p] != c {
						t.Errorf("%s differs from the newer release with %d lines on top", p, n)
					}
				}
				for p := range got {
					if _, ok := want[p]; !ok {
						t.Errorf("%s should not exist", p)
					}
				}
				hunks := 0
				for _, c := range cs {
					if c.Op != plan.OpUpdate {
						continue
					}
					for _, pl := range c.Placement {
						hunks++
						if pl != fmt.Sprintf("offset +%d", n) {
							t.Errorf("%s: a hunk placed %q, want offset +%d", c.Path, pl, n)
						}
					}
				}
				t.Logf("%d changes, %d hunks of updated files placed at offset +%d", len(cs), hunks, n)
			})
		}
	}
}
