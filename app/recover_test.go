package app

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixplan/apply"
	"fixplan/internal/config"
	"fixplan/plan"
)

// crashFS stops the process-like flow after n writes by panicking, leaving the
// journal in the applying state as a crash would.
type crashFS struct{ n int }

func (c *crashFS) step() {
	c.n--
	if c.n < 0 {
		panic("crash")
	}
}
func (c *crashFS) WriteFile(r *os.Root, p string, d []byte, m fs.FileMode) error {
	c.step()
	return apply.OSFS{}.WriteFile(r, p, d, m)
}
func (c *crashFS) Remove(r *os.Root, p string) error  { c.step(); return apply.OSFS{}.Remove(r, p) }
func (c *crashFS) SyncDir(r *os.Root, p string) error { return apply.OSFS{}.SyncDir(r, p) }
func (c *crashFS) Mkdir(r *os.Root, p string, m fs.FileMode) error {
	c.step()
	return apply.OSFS{}.Mkdir(r, p, m)
}

func TestStartUpRollsBackACrashedApply(t *testing.T) {
	a, _, root, _ := newApp(t)
	original := "def divide(a, b):\n    return a / b\n"
	key, err := apply.LoadKey(config.StateKeyFile(a.d.ConfigDir))
	if err != nil {
		t.Fatal(err)
	}
	e, err := apply.Open(root, apply.Options{FS: &crashFS{n: 6}, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	content := "def divide(a, b):\n    return None\n"
	p := plan.Plan{Summary: "x", ProposedChanges: &plan.ProposedChanges{Actions: []plan.Action{
		{Kind: plan.UpdateFile, Path: "calc.py", Content: &content}, {Kind: plan.CreateFile, Path: "a/b/new.py", Content: &content},
	}}}
	cs, err := e.Changes(&p)
	if err != nil {
		t.Fatal(err)
	}
	rec := &plan.Record{ID: apply.NewID(), CreatedAt: time.Now(), State: plan.StateDraft, Plan: p}
	for _, c := range cs {
		rec.Changes = append(rec.Changes, c.Preview())
	}
	if err := e.SavePlan(rec); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { _ = recover() }()
		_, _ = e.ApplyPlan(context.Background(), rec.ID, apply.Selection{})
	}()
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) == original {
		if _, err := os.Stat(filepath.Join(root, "a")); err != nil {
			t.Fatal("the simulated crash happened before any change; raise n")
		}
	}
	info, err := a.OpenProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Recovered) != 1 || !strings.Contains(info.Recovered[0], rec.ID) || !strings.Contains(info.Recovered[0], "rolled back") {
		t.Fatalf("recovered = %q", info.Recovered)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != original {
		t.Errorf("calc.py = %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "a")); !os.IsNotExist(err) {
		t.Error("folders created by the crashed apply are still there")
	}
}
