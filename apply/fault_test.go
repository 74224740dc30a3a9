package apply

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"fixplan/plan"
)

// faultFS fails the n-th operation (1-based) once and counts every operation.
type faultFS struct {
	mu     sync.Mutex
	failAt int
	ops    int
	log    []string
}

var errInjected = errors.New("injected failure")

func (f *faultFS) step(what string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ops++
	f.log = append(f.log, what)
	if f.ops == f.failAt {
		return errInjected
	}
	return nil
}

func (f *faultFS) WriteFile(r *os.Root, p string, data []byte, mode fs.FileMode) error {
	if err := f.step("write " + filepath.Base(p)); err != nil {
		return err
	}
	return OSFS{}.WriteFile(r, p, data, mode)
}

func (f *faultFS) Remove(r *os.Root, p string) error {
	if err := f.step("remove " + filepath.Base(p)); err != nil {
		return err
	}
	return OSFS{}.Remove(r, p)
}

func (f *faultFS) SyncDir(r *os.Root, p string) error {
	if err := f.step("sync " + filepath.Base(p)); err != nil {
		return err
	}
	return OSFS{}.SyncDir(r, p)
}

func (f *faultFS) Link(r *os.Root, oldname, newname string) error {
	if err := f.step("link " + filepath.Base(newname)); err != nil {
		return err
	}
	return OSFS{}.Link(r, oldname, newname)
}

func (f *faultFS) CanStage() bool { return true }

func (f *faultFS) WriteTemp(r *os.Root, p string, data []byte, mode fs.FileMode) error {
	if err := f.step("stage " + filepath.Base(p)); err != nil {
		return err
	}
	return OSFS{}.WriteTemp(r, p, data, mode)
}

func (f *faultFS) SyncFile(r *os.Root, p string) error {
	if err := f.step("fsync " + filepath.Base(p)); err != nil {
		return err
	}
	return OSFS{}.SyncFile(r, p)
}

func (f *faultFS) Rename(r *os.Root, oldname, newname string) error {
	if err := f.step("rename " + filepath.Base(newname)); err != nil {
		return err
	}
	return OSFS{}.Rename(r, oldname, newname)
}

func (f *faultFS) Mkdir(r *os.Root, p string, mode fs.FileMode) error {
	if err := f.step("mkdir " + filepath.Base(p)); err != nil {
		return err
	}
	return OSFS{}.Mkdir(r, p, mode)
}

func multiFilePlan() plan.Plan {
	return planOf(
		act(plan.UpdateFile, "a.go", str("package a\n\n// changed\n")),
		act(plan.UpdateFile, "dir/b.go", str("package b\n\n// changed\n")),
		act(plan.CreateFile, "new/deep/c.go", str("package c\n")),
		act(plan.DeleteFile, "gone.txt", nil),
		act(plan.CreateDir, "assets", nil),
		act(plan.DeleteDir, "empty", nil),
	)
}

func faultTree(t *testing.T) string {
	root := tree(t, map[string]string{"a.go": "package a\n", "dir/b.go": "package b\r\n", "gone.txt": "bye", "empty/": ""})
	os.Chmod(filepath.Join(root, "a.go"), 0o600)
	return root
}

// TestFaultAtEveryOperation fails each operation of a multi-file transaction in
// turn: every time the tree must be byte-identical to before (bytes, modes, no
// stray files) and the plan still a draft.
func TestFaultAtEveryOperation(t *testing.T) {
	long(t, "failing each write of a multi-file apply in turn")
	// Count the operations of a clean run first.
	counter := &faultFS{}
	root := faultTree(t)
	e := open(t, root, counter)
	rec := draft(t, e, multiFilePlan())
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatal(err)
	}
	total := counter.ops
	if total < 10 {
		t.Fatalf("only %d operations: %v", total, counter.log)
	}
	for k := 1; k <= total; k++ {
		t.Run(counter.log[k-1], func(t *testing.T) {
			root := faultTree(t)
			before := snapshot(t, root)
			ffs := &faultFS{failAt: k}
			e := open(t, root, ffs)
			rec := draft(t, e, multiFilePlan())
			_, err := e.ApplyPlan(bg, rec.ID, Selection{})
			last := k == total // failing the final commit write
			if err == nil {
				t.Fatalf("op %d (%s) failed but ApplyPlan succeeded", k, counter.log[k-1])
			}
			if d := diffSnap(before, snapshot(t, root)); d != "" {
				t.Fatalf("after failing op %d (%s) the tree differs:\n%s", k, counter.log[k-1], d)
			}
			if r, _ := e.LoadPlan(rec.ID); r.State != plan.StateDraft {
				t.Errorf("plan state = %s", r.State)
			}
			if strays := strayTemps(t, root); strays != "" {
				t.Errorf("stray temp files: %s", strays)
			}
			// The engine still works afterwards, and recovery finds nothing half-done.
			if rs, err := e.Recover(); err != nil || len(rs) != 0 {
				t.Errorf("recover after a clean rollback: %v %+v (last=%v)", err, rs, last)
			}
			if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
				t.Fatalf("apply after the failure: %v", err)
			}
		})
	}
}

// tempName matches the temp files of a replacement: renameio's ("." + the
// target's name + random digits), fsutil's (".name.fixplan-<hex>.tmp") and a
// staged transaction's (".fixplan-<tx id>-NNNN.tmp").
var tempName = regexp.MustCompile(`^\..+[0-9]{6,}$|^\..*fixplan-.*\.tmp$`)

func strayTemps(t *testing.T, root string) string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && tempName.MatchString(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	return strings.Join(out, ", ")
}

// TestFaultAtEveryUndoOperation fails each operation of an undo in turn: the
// undo either changes nothing (and a later undo works) or, when only marking
// the journal failed, is finished by the next start — never half done, never a
// stray temp file.
func TestFaultAtEveryUndoOperation(t *testing.T) {
	long(t, "failing each write of an undo in turn")
	counter := &faultFS{}
	{
		root := faultTree(t)
		e := open(t, root, counter)
		rec := draft(t, e, multiFilePlan())
		if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
			t.Fatal(err)
		}
		counter.ops, counter.log = 0, nil
		if _, err := e.Undo(bg); err != nil {
			t.Fatal(err)
		}
	}
	total, log := counter.ops, counter.log
	if total < 8 {
		t.Fatalf("only %d undo operations: %v", total, log)
	}
	for k := 1; k <= total; k++ {
		t.Run(log[k-1], func(t *testing.T) {
			root := faultTree(t)
			before := snapshot(t, root)
			ffs := &faultFS{}
			e := open(t, root, ffs)
			rec := draft(t, e, multiFilePlan())
			if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
				t.Fatal(err)
			}
			applied := snapshot(t, root)
			ffs.ops, ffs.failAt = 0, k
			if _, err := e.Undo(bg); err == nil {
				t.Fatalf("op %d (%s) failed but Undo succeeded", k, log[k-1])
			}
			if strays := strayTemps(t, root); strays != "" {
				t.Errorf("stray temp files: %s", strays)
			}
			if _, err := e.Recover(); err != nil {
				t.Fatal(err)
			}
			switch now := snapshot(t, root); {
			case diffSnap(before, now) == "":
				// only marking the journal undone failed; the start-up finished it
			case diffSnap(applied, now) == "":
				if _, err := e.Undo(bg); err != nil {
					t.Fatalf("undo after the failure: %v", err)
				}
				if d := diffSnap(before, snapshot(t, root)); d != "" {
					t.Fatalf("undo after the failure differs:\n%s", d)
				}
			default:
				t.Fatalf("after failing op %d (%s) the tree is half undone:\n%s", k, log[k-1], diffSnap(applied, now))
			}
		})
	}
}
