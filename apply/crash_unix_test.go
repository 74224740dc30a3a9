//go:build !windows

package apply

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"fixplan/plan"
)

// pauseFS lets the child run until its k-th operation, then reports READY and
// hangs, so the parent can SIGKILL it exactly there.
type pauseFS struct {
	at, ops int
}

func (p *pauseFS) step() {
	p.ops++
	if p.ops == p.at {
		fmt.Println("READY")
		time.Sleep(time.Hour)
	}
}
func (p *pauseFS) WriteFile(r *os.Root, path string, d []byte, m fs.FileMode) error {
	p.step()
	return OSFS{}.WriteFile(r, path, d, m)
}
func (p *pauseFS) Remove(r *os.Root, path string) error { p.step(); return OSFS{}.Remove(r, path) }
func (p *pauseFS) Link(r *os.Root, oldname, newname string) error {
	p.step()
	return OSFS{}.Link(r, oldname, newname)
}
func (p *pauseFS) CanStage() bool { return true }
func (p *pauseFS) WriteTemp(r *os.Root, name string, d []byte, m fs.FileMode) error {
	p.step()
	return OSFS{}.WriteTemp(r, name, d, m)
}
func (p *pauseFS) SyncFile(r *os.Root, name string) error { p.step(); return OSFS{}.SyncFile(r, name) }
func (p *pauseFS) Rename(r *os.Root, oldname, newname string) error {
	p.step()
	return OSFS{}.Rename(r, oldname, newname)
}
func (p *pauseFS) SyncDir(r *os.Root, path string) error { p.step(); return OSFS{}.SyncDir(r, path) }
func (p *pauseFS) Mkdir(r *os.Root, path string, m fs.FileMode) error {
	p.step()
	return OSFS{}.Mkdir(r, path, m)
}

// TestMain runs the package's tests, or — when started by TestCrashRecovery with
// FIXPLAN_CRASH_ROOT set — the child process that applies a plan until it is killed.
func TestMain(m *testing.M) {
	if root := os.Getenv("FIXPLAN_CRASH_ROOT"); root != "" {
		os.Exit(crashChild(root))
	}
	os.Exit(m.Run())
}

func crashChild(root string) int {
	at, _ := strconv.Atoi(os.Getenv("FIXPLAN_CRASH_AT"))
	e, err := Open(root, Options{FS: &pauseFS{at: at}, Key: testKey})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("STARTED")
	var err2 error
	switch os.Getenv("FIXPLAN_CRASH_OP") {
	case "undo":
		_, err2 = e.Undo(bg)
	case "recover":
		_, err2 = e.Recover()
	default:
		_, err2 = e.ApplyPlan(bg, os.Getenv("FIXPLAN_CRASH_PLAN"), Selection{})
	}
	if err2 != nil {
		fmt.Fprintln(os.Stderr, err2)
		return 1
	}
	fmt.Println("DONE")
	return 0
}

func crashTree(t *testing.T, n int) (string, plan.Plan) {
	files := map[string]string{}
	var acts []plan.Action
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("pkg%d/file%03d.go", i%7, i)
		files[p] = fmt.Sprintf("package pkg%d\n\n// original %d\n", i%7, i)
		switch i % 4 {
		case 0, 1:
			acts = append(acts, act(plan.UpdateFile, p, str(fmt.Sprintf("package pkg%d\n\n// updated %d\n", i%7, i))))
		case 2:
			acts = append(acts, act(plan.DeleteFile, p, nil))
		}
		if i%5 == 0 {
			acts = append(acts, act(plan.CreateFile, fmt.Sprintf("gen/g%d/new%03d.go", i%3, i), str("package gen\n")))
		}
	}
	return tree(t, files), planOf(acts...)
}

// TestCrashRecovery kills a child applying a large plan at many points (exactly
// before its k-th write, and at random times), then runs recovery: the tree must
// be byte-identical to before, or fully applied and then undoable to before.
func TestCrashRecovery(t *testing.T) {
	long(t, "killing a child that applies a 60-file plan at about 30 points, and the recovery after each")
	_, p := crashTree(t, 60)
	probe := &faultFS{}
	{
		root, _ := crashTree(t, 60)
		e := open(t, root, probe)
		rec := draft(t, e, p)
		if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
			t.Fatal(err)
		}
	}
	total := probe.ops
	var points []int
	for k := 1; k <= total; k += 1 + total/25 {
		points = append(points, k)
	}
	points = append(points, total, 0, -1, -2) // 0: never pause; negative: kill after a random delay
	sawBefore, sawAfter := 0, 0
	for _, k := range points {
		root, _ := crashTree(t, 60)
		e := open(t, root, nil)
		rec := draft(t, e, p)
		before := snapshot(t, root)
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "FIXPLAN_CRASH_ROOT="+root, "FIXPLAN_CRASH_PLAN="+rec.ID, "FIXPLAN_CRASH_AT="+strconv.Itoa(max(k, 0)))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		switch {
		case k > 0:
			for sc.Scan() && sc.Text() != "READY" {
			}
		case k < 0:
			for sc.Scan() && sc.Text() != "STARTED" {
			}
			time.Sleep(time.Duration(-k) * 700 * time.Microsecond)
		default:
			for sc.Scan() {
			}
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		e2 := open(t, root, nil)
		if _, err := e2.Recover(); err != nil {
			t.Fatalf("k=%d: recover: %v", k, err)
		}
		now := snapshot(t, root)
		if d := diffSnap(before, now); d == "" {
			sawBefore++
			if r, _ := e2.LoadPlan(rec.ID); r.State != plan.StateDraft {
				t.Errorf("k=%d: rolled back but the plan is %s", k, r.State)
			}
			continue
		}
		// Otherwise it must be fully applied, and Undo must give the original bytes.
		r, _ := e2.LoadPlan(rec.ID)
		if r.State != plan.StateApplied {
			t.Fatalf("k=%d: tree changed but plan is %s (half-applied?)", k, r.State)
		}
		for _, c := range r.Changes {
			if c.Op == plan.OpUpdate || c.Op == plan.OpCreate {
				if _, err := os.Stat(filepath.Join(root, c.Path)); err != nil {
					t.Fatalf("k=%d: %s missing in an applied tree", k, c.Path)
				}
			}
		}
		if _, err := e2.Undo(bg); err != nil {
			t.Fatalf("k=%d: undo: %v", k, err)
		}
		if d := diffSnap(before, snapshot(t, root)); d != "" {
			t.Fatalf("k=%d: undo after a crash differs:\n%s", k, d)
		}
		sawAfter++
	}
	if sawBefore == 0 || sawAfter == 0 {
		t.Errorf("kill points did not cover both outcomes: rolled back %d, applied %d", sawBefore, sawAfter)
	}
	t.Logf("%d operations; %d kills rolled back, %d completed", total, sawBefore, sawAfter)
}

// killChild runs op (apply/undo/recover) in a child process on root and SIGKILLs
// it right before its k-th write (k = 0: let it finish).
func killChild(t *testing.T, root, planID, op string, k int) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "FIXPLAN_CRASH_ROOT="+root, "FIXPLAN_CRASH_PLAN="+planID, "FIXPLAN_CRASH_OP="+op, "FIXPLAN_CRASH_AT="+strconv.Itoa(k))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if k > 0 {
		for sc.Scan() && sc.Text() != "READY" {
		}
	} else {
		for sc.Scan() {
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

// opsOf counts the writes op makes on a fresh copy of the crash tree.
func opsOf(t *testing.T, p plan.Plan, op string) int {
	root, _ := crashTree(t, 40)
	probe := &faultFS{}
	e := open(t, root, probe)
	rec := draft(t, e, p)
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatal(err)
	}
	if op == "undo" {
		probe.mu.Lock()
		probe.ops = 0
		probe.mu.Unlock()
		if _, err := e.Undo(bg); err != nil {
			t.Fatal(err)
		}
	}
	return probe.ops
}

// TestCrashDuringUndo kills a child undoing a large transaction before each of
// many writes: after the next start the tree is either fully undone (the
// interrupted undo was finished and reported as an undo) or still as applied
// (the undo had not begun), and never locked.
func TestCrashDuringUndo(t *testing.T) {
	long(t, "killing a child that undoes a 40-file transaction at about 13 points, and the recovery after each")
	_, p := crashTree(t, 40)
	total := opsOf(t, p, "undo")
	finished, notStarted := 0, 0
	for k := 1; k <= total; k += 1 + total/12 {
		root, _ := crashTree(t, 40)
		before := snapshot(t, root)
		e := open(t, root, nil)
		rec := draft(t, e, p)
		if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
			t.Fatal(err)
		}
		applied := snapshot(t, root)
		killChild(t, root, rec.ID, "undo", k)
		e2 := open(t, root, nil)
		ns, err := e2.Recover()
		if err != nil {
			t.Fatalf("k=%d: recover: %v", k, err)
		}
		now := snapshot(t, root)
		switch {
		case diffSnap(before, now) == "":
			finished++
			if r, _ := e2.LoadPlan(rec.ID); r.State != plan.StateUndone {
				t.Errorf("k=%d: undone tree but plan %s", k, r.State)
			}
			if len(ns) == 1 && ns[0].Kind != NoticeUndone {
				t.Errorf("k=%d: reported as %s, not as an undo", k, ns[0].Kind)
			}
		case diffSnap(applied, now) == "":
			notStarted++
			if _, err := e2.Undo(bg); err != nil {
				t.Fatalf("k=%d: undo after the crash: %v", k, err)
			}
			if d := diffSnap(before, snapshot(t, root)); d != "" {
				t.Fatalf("k=%d: undo after the crash differs:\n%s", k, d)
			}
		default:
			t.Fatalf("k=%d: half-undone tree after recovery:\n%s", k, diffSnap(before, now))
		}
	}
	if finished == 0 {
		t.Error("no kill point landed inside the undo")
	}
	t.Logf("%d undo writes; %d finished by recovery, %d not started", total, finished, notStarted)
}

// TestCrashDuringRecovery kills an apply mid-way, then kills the recovery of it
// mid-way too: the next start still brings the tree back to exactly before.
func TestCrashDuringRecovery(t *testing.T) {
	long(t, "killing an apply at 3 points and the recovery of each at 7, then recovering again")
	_, p := crashTree(t, 40)
	applyOps := opsOf(t, p, "apply")
	for _, k := range []int{applyOps / 3, applyOps / 2, applyOps - 3} {
		for m := 1; m <= 25; m += 4 {
			root, _ := crashTree(t, 40)
			before := snapshot(t, root)
			e := open(t, root, nil)
			rec := draft(t, e, p)
			killChild(t, root, rec.ID, "apply", k)
			killChild(t, root, rec.ID, "recover", m)
			e2 := open(t, root, nil)
			if _, err := e2.Recover(); err != nil {
				t.Fatalf("k=%d m=%d: recover: %v", k, m, err)
			}
			if d := diffSnap(before, snapshot(t, root)); d != "" {
				t.Fatalf("k=%d m=%d: tree differs after a crashed recovery:\n%s", k, m, d)
			}
			if r, _ := e2.LoadPlan(rec.ID); r.State != plan.StateDraft {
				t.Errorf("k=%d m=%d: plan is %s", k, m, r.State)
			}
		}
	}
}
