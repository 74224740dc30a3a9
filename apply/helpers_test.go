package apply

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"fixplan/plan"
)

// tree writes files (path → content; a trailing "/" makes a folder) under a new root.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(abs, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

type fileState struct {
	data string
	mode fs.FileMode
	dir  bool
}

// snapshot records every file and folder outside .fixplan (bytes and modes).
func snapshot(t testing.TB, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == ".fixplan" {
			return filepath.SkipDir
		}
		if rel == "." {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fileState{mode: fi.Mode(), dir: d.IsDir()}
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st.data = string(b)
		}
		out[rel] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnap(a, b map[string]fileState) string {
	var keys []string
	seen := map[string]bool{}
	for k := range a {
		keys, seen[k] = append(keys, k), true
	}
	for k := range b {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		x, okx := a[k]
		y, oky := b[k]
		if okx != oky || x != y {
			out = append(out, fmt.Sprintf("%s: %v/%+v vs %v/%+v", k, okx, x, oky, y))
		}
	}
	return strings.Join(out, "\n")
}

func str(s string) *string { return &s }

func act(kind plan.ActionKind, path string, content *string) plan.Action {
	return plan.Action{Kind: kind, Path: path, Content: content}
}

func planOf(actions ...plan.Action) plan.Plan {
	return plan.Plan{Mode: plan.ModeFixPlan, Summary: "test", ProposedChanges: &plan.ProposedChanges{Actions: actions}}
}

func patchPlan(patch string) plan.Plan {
	return plan.Plan{Mode: plan.ModeApply, Summary: "test", Patch: &patch}
}

// draft previews p and saves it as a draft record, like the session does.
func draft(t testing.TB, e *Engine, p plan.Plan) *plan.Record {
	t.Helper()
	cs, err := e.Changes(&p)
	if err != nil {
		t.Fatalf("Changes: %v", err)
	}
	rec := &plan.Record{ID: NewID(), CreatedAt: time.Now(), State: plan.StateDraft, Plan: p}
	for _, c := range cs {
		rec.Changes = append(rec.Changes, c.Preview())
	}
	if err := e.SavePlan(rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func open(t testing.TB, root string, fsys FS) *Engine {
	t.Helper()
	e, err := Open(root, Options{FS: fsys, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var bg = context.Background()

// testKey is the per-user state key of the tests' "user".
var testKey = []byte("fixplan-test-key-0123456789abcdef")

func read(t testing.TB, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// long skips t under -short, so that `go test -short ./...` takes seconds; what
// says what the full run covers.
func long(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short skips " + what + "; go test without -short runs it")
	}
}
