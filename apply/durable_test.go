package apply

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"fixplan/plan"
)

// journalDir is the folder of the only transaction in root.
func journalDir(t *testing.T, root string) string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(root, ".fixplan", "tx"))
	if err != nil || len(ents) != 1 {
		t.Fatalf("want one transaction folder, got %v (%v)", ents, err)
	}
	return filepath.Join(root, ".fixplan", "tx", ents[0].Name())
}

// The saved originals must hold the exact bytes the files had, whether they were
// kept as a hard link (a file with one link) or copied (a file with another link,
// whose other name must keep its bytes), and undo must put them back.
func TestOriginalsStayByteIdenticalAndUndoRestoresThem(t *testing.T) {
	origA := "package a\n\nfunc A() {}\n"
	origB := "package b\r\n// windows line ends\r\n"
	origS := "shared by two names\n"
	root := tree(t, map[string]string{"a.go": origA, "dir/b.go": origB, "shared.txt": origS})
	if err := os.Chmod(filepath.Join(root, "a.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := runtime.GOOS != "windows"
	if linked {
		if err := os.Link(filepath.Join(root, "shared.txt"), filepath.Join(root, "other-name.txt")); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, root)
	aInfo, err := os.Stat(filepath.Join(root, "a.go"))
	if err != nil {
		t.Fatal(err)
	}
	sInfo, _ := os.Stat(filepath.Join(root, "shared.txt"))
	e := open(t, root, nil)
	defer e.Close()
	rec := draft(t, e, planOf(
		act(plan.UpdateFile, "a.go", str("package a\n\nfunc A() int { return 1 }\n")),
		act(plan.DeleteFile, "dir/b.go", nil),
		act(plan.UpdateFile, "shared.txt", str("changed\n")),
	))
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatal(err)
	}
	dir := journalDir(t, root)
	want := map[string]string{"a.go": origA, "dir/b.go": origB, "shared.txt": origS}
	var j journal
	body, err := e.unseal("journal", filepath.Base(dir), mustRead(t, filepath.Join(dir, "journal.json")))
	if err != nil || json.Unmarshal(body, &j) != nil {
		t.Fatalf("journal unreadable: %v", err)
	}
	for _, en := range j.Entries {
		if en.Blob == "" {
			continue
		}
		blob := filepath.Join(dir, en.Blob)
		if got := string(mustRead(t, blob)); got != want[en.Path] {
			t.Errorf("saved original of %s = %q, want %q", en.Path, got, want[en.Path])
		}
		fi, _ := os.Stat(blob)
		switch {
		case en.Path == "a.go" && linked && !os.SameFile(fi, aInfo):
			t.Errorf("the original of a.go (one link) was copied, not kept as a link")
		case en.Path == "shared.txt" && os.SameFile(fi, sInfo):
			t.Errorf("the original of shared.txt (two links) was linked: another name could change it")
		}
		if en.Diff != "" {
			t.Errorf("the journal stores the diff of %s", en.Path)
		}
	}
	if linked && read(t, root, "other-name.txt") != origS {
		t.Errorf("the other name of shared.txt changed: %q", read(t, root, "other-name.txt"))
	}
	res, err := e.Undo(bg)
	if err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, root)
	delete(after, "other-name.txt")
	delete(before, "other-name.txt")
	if d := diffSnap(before, after); d != "" {
		t.Errorf("undo did not restore the files:\n%s", d)
	}
	for _, c := range res.Applied {
		if c.Path == "a.go" && !strings.Contains(c.Diff, "-func A() {}\n+func A() int { return 1 }\n") {
			t.Errorf("undo reports a.go's diff as %q", c.Diff)
		}
		if c.Path == "dir/b.go" && !strings.Contains(c.Diff, "+++ /dev/null") {
			t.Errorf("undo reports dir/b.go's diff as %q", c.Diff)
		}
	}
}

// Journals written before diffs were left out (indented, with a "diff" per entry,
// no state header) are still recovered and undone.
func TestOlderJournalFormatIsStillUndone(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n"})
	e := open(t, root, nil)
	defer e.Close()
	rec := draft(t, e, planOf(act(plan.UpdateFile, "a.go", str("package a\n\n// changed\n"))))
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatal(err)
	}
	dir := journalDir(t, root)
	id := filepath.Base(dir)
	j, err := e.loadJournal(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	j.Entries[0].Diff = "the diff an older fixplan stored\n"
	old, _ := json.MarshalIndent(j, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "journal.json"), e.seal("journal", id, old), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.headState(id); ok {
		t.Fatal("an older journal without a state header was read as having one")
	}
	if n, err := e.Recover(); err != nil || len(n) != 0 {
		t.Fatalf("recover of a committed older journal: %v %v", n, err)
	}
	res, err := e.Undo(bg)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, root, "a.go") != "package a\n" || len(res.Applied) != 1 || res.Applied[0].Diff != "the diff an older fixplan stored\n" {
		t.Errorf("undo of an older journal: a.go=%q result=%+v", read(t, root, "a.go"), res.Applied)
	}
}

// A journal whose state header was copied from another transaction, or whose
// header MAC is not this user's, is not taken as finished: start-up loads it
// whole and sets it aside.
func TestForgedJournalHeaderIsNotTrusted(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n"})
	e := open(t, root, nil)
	defer e.Close()
	other := &Engine{opt: Options{Key: []byte("someone-else's-key-0123456789abcd")}}
	folder := "20260101-120000.000000-abcdef"
	body := hostileBody(folder, `[]`)
	shipJournal(t, root, folder, nil, nil, nil)
	if err := os.WriteFile(filepath.Join(root, ".fixplan", "tx", folder, "journal.json"), other.sealJournal(folder, stateCommitted, body), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, ok := e.headState(folder); ok {
		t.Fatalf("a header sealed with another key was trusted (state %s)", st)
	}
	ns, err := e.Recover()
	if err != nil || len(ns) != 1 || ns[0].Kind != NoticeQuarantined {
		t.Fatalf("want the forged journal quarantined, got %+v %v", ns, err)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The "large change" flag counts changed lines without computing a diff where
// it can; the count must agree with the diff's whenever it matters.
func TestLargeChangeCountAgreesWithTheDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	text := func(n int) []byte {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "line %d %d\n", i, rng.IntN(3))
		}
		return []byte(b.String())
	}
	edit := func(src []byte, k int) []byte {
		ls := strings.SplitAfter(string(src), "\n")
		for i := 0; i < k && len(ls) > 1; i++ {
			j := rng.IntN(len(ls))
			switch rng.IntN(3) {
			case 0:
				ls = append(ls[:j], ls[j+1:]...)
			case 1:
				ls[j] = "changed\n"
			default:
				ls = append(ls[:j], append([]string{"inserted\n"}, ls[j:]...)...)
			}
		}
		out := strings.Join(ls, "")
		if rng.IntN(4) == 0 {
			out = strings.TrimSuffix(out, "\n") // no final newline
		}
		return []byte(out)
	}
	for i := 0; i < 300; i++ {
		n := []int{0, 3, 40}[i%3]
		before := text(rng.IntN(120))
		c := Change{Path: "f.txt", Op: plan.OpUpdate, Before: before, After: edit(before, rng.IntN(30))}
		switch i % 10 {
		case 8:
			c.Op, c.Before = plan.OpCreate, nil
		case 9:
			c.Op, c.After = plan.OpDelete, nil
		}
		want := changedLines(c.preview().Diff)
		got := c.changedLinesOver(n)
		if (got > n) != (want > n) || got > n && got != want {
			t.Fatalf("case %d (%s, n=%d): counted %d, the diff has %d\nbefore %q\nafter %q", i, c.Op, n, got, want, c.Before, c.After)
		}
	}
}

// fixplan apply without --plan takes the newest draft of this user: applied
// plans are passed over (without loading them) and so are shipped ones.
func TestLatestDraftIsTheNewestOwnDraft(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n"})
	e := open(t, root, nil)
	defer e.Close()
	at := func(min int) time.Time { return time.Date(2026, 1, 1, 12, min, 0, 0, time.UTC) }
	save := func(id string, min int, st plan.State) {
		if err := e.SavePlan(&plan.Record{ID: id, CreatedAt: at(min), State: st, Plan: planOf()}); err != nil {
			t.Fatal(err)
		}
	}
	save("old-draft", 1, plan.StateDraft)
	save("new-draft", 2, plan.StateDraft)
	save("applied", 3, plan.StateApplied)
	foreign := &Engine{opt: Options{Key: []byte("someone-else's-key-0123456789abcd")}}
	body, _ := json.Marshal(&plan.Record{ID: "shipped", CreatedAt: at(4), State: plan.StateDraft, Plan: planOf()})
	if err := os.WriteFile(filepath.Join(root, ".fixplan", "plans", "shipped.json"), foreign.seal("plan", "shipped", body), 0o644); err != nil {
		t.Fatal(err)
	}
	if st := e.peekPlanState("applied"); st != plan.StateApplied {
		t.Errorf("peeked state of an applied plan = %q", st)
	}
	got, err := e.LatestDraft()
	if err != nil || got.ID != "new-draft" {
		t.Fatalf("LatestDraft = %v, %v; want new-draft", got, err)
	}
}
