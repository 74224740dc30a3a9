package apply

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fixplan/plan"
)

func TestApplyAndUndoRestoreExactBytes(t *testing.T) {
	root := tree(t, map[string]string{
		"calc.py": "def divide(a, b):\n    return a / b\n", "old.txt": "bye\n", "empty/": "", "keep.md": "same\n",
	})
	os.Chmod(filepath.Join(root, "calc.py"), 0o755)
	before := snapshot(t, root)
	e := open(t, root, nil)
	rec := draft(t, e, planOf(
		act(plan.UpdateFile, "calc.py", str("def divide(a, b):\n    if b == 0:\n        raise ValueError\n    return a / b\n")),
		act(plan.CreateFile, "pkg/sub/new.py", str("x = 1\n")),
		act(plan.DeleteFile, "old.txt", nil),
		act(plan.DeleteDir, "empty", nil),
		act(plan.CreateDir, "docs", nil),
	))
	if len(rec.Changes) != 5 {
		t.Fatalf("changes = %+v", rec.Changes)
	}
	res, err := e.ApplyPlan(bg, rec.ID, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 5 || res.Transaction == "" {
		t.Fatalf("result = %+v", res)
	}
	if got := read(t, root, "calc.py"); !strings.Contains(got, "ValueError") {
		t.Errorf("calc.py = %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(root, "calc.py")); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o755 {
		t.Errorf("mode lost: %v", fi.Mode())
	}
	if read(t, root, "pkg/sub/new.py") != "x = 1\n" {
		t.Error("new file missing")
	}
	if _, err := os.Stat(filepath.Join(root, "old.txt")); !os.IsNotExist(err) {
		t.Error("old.txt not deleted")
	}
	stored, _ := e.LoadPlan(rec.ID)
	if stored.State != plan.StateApplied || stored.Transaction != res.Transaction {
		t.Errorf("record = %s %s", stored.State, stored.Transaction)
	}
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); plan.CodeOf(err) != plan.ErrAlreadyApplied {
		t.Fatalf("second apply: %v", err)
	}
	undo, err := e.Undo(bg)
	if err != nil {
		t.Fatal(err)
	}
	if undo.Transaction != res.Transaction {
		t.Errorf("undid %s, want %s", undo.Transaction, res.Transaction)
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("undo is not byte-identical:\n%s", d)
	}
	if stored, _ := e.LoadPlan(rec.ID); stored.State != plan.StateUndone {
		t.Errorf("state after undo = %s", stored.State)
	}
	if _, err := e.Undo(bg); plan.CodeOf(err) != plan.ErrNothingToUndo {
		t.Errorf("second undo: %v", err)
	}
}

func TestApplyOnlySelectedFiles(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "a.go", str("package a // A\n")), act(plan.UpdateFile, "b.go", str("package b // B\n"))))
	res, err := e.ApplyPlan(bg, rec.ID, Selection{Paths: []string{"b.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if read(t, root, "a.go") != "package a\n" || read(t, root, "b.go") != "package b // B\n" || len(res.Applied) != 1 {
		t.Fatalf("a=%q b=%q applied=%d", read(t, root, "a.go"), read(t, root, "b.go"), len(res.Applied))
	}
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{Paths: []string{"nope.go"}}); err == nil {
		t.Error("apply of an unknown path succeeded")
	}
}

func TestStalePreviewWritesNothing(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "a.go", str("package a // A\n")), act(plan.UpdateFile, "b.go", str("package b // B\n"))))
	os.WriteFile(filepath.Join(root, "b.go"), []byte("package b // edited by the user\n"), 0o644)
	before := snapshot(t, root)
	_, err := e.ApplyPlan(bg, rec.ID, Selection{})
	pe, ok := err.(*plan.Error)
	if !ok || pe.Code != plan.ErrBaseMismatch || len(pe.Paths) != 1 || pe.Paths[0] != "b.go" {
		t.Fatalf("err = %v", err)
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("files changed:\n%s", d)
	}
	if r, _ := e.LoadPlan(rec.ID); r.State != plan.StateDraft {
		t.Errorf("state = %s", r.State)
	}
}

func TestUndoRefusesFilesEditedSince(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n"})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "a.go", str("package a // A\n")), act(plan.CreateFile, "n.go", str("package n\n"))))
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "n.go"), []byte("package n // mine\n"), 0o644)
	_, err := e.Undo(bg)
	pe, ok := err.(*plan.Error)
	if !ok || pe.Code != plan.ErrUndoEditedSince || strings.Join(pe.Paths, ",") != "n.go" {
		t.Fatalf("err = %v", err)
	}
	if read(t, root, "a.go") != "package a // A\n" {
		t.Error("undo restored a file although it refused")
	}
}

func TestLineEndingsAndFinalNewline(t *testing.T) {
	tests := []struct {
		name, before, content, want string
	}{
		{"CRLF file keeps CRLF", "a\r\nb\r\n", "a\nB\nc\n", "a\r\nB\r\nc\r\n"},
		{"no final newline stays without", "a\nb", "a\nB\n", "a\nB"},
		{"final newline kept", "a\nb\n", "a\nB", "a\nB\n"},
		{"CRLF without final newline", "a\r\nb", "x\ny\n", "x\r\ny"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, map[string]string{"f.txt": tc.before})
			e := open(t, root, nil)
			rec := draft(t, e, planOf(act(plan.UpdateFile, "f.txt", str(tc.content))))
			if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
				t.Fatal(err)
			}
			if got := read(t, root, "f.txt"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside\n"), 0o644)
	root := tree(t, map[string]string{"a.go": "package a\n", "bin.dat": "x\x00y", "latin1.txt": "caf\xe9\n", "full/x.txt": "x\n", ".git/config": "[core]\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal("create a symlink for the test:", err)
	}
	os.Symlink(outside, filepath.Join(root, "outdir"))
	tests := []struct {
		name string
		p    plan.Plan
		code plan.Code
	}{
		{"dotdot", planOf(act(plan.CreateFile, "../x.go", str("x"))), plan.ErrPathOutsideRoot},
		{"absolute", planOf(act(plan.CreateFile, "/tmp/x.go", str("x"))), plan.ErrPathOutsideRoot},
		{"symlinked file outside", planOf(act(plan.UpdateFile, "link.txt", str("pwned\n"))), plan.ErrPathOutsideRoot},
		{"symlinked parent outside", planOf(act(plan.CreateFile, "outdir/new.txt", str("pwned\n"))), plan.ErrPathOutsideRoot},
		{"git dir", planOf(act(plan.UpdateFile, ".git/config", str("x"))), plan.ErrProtectedPath},
		{"fixplan dir", planOf(act(plan.CreateFile, ".fixplan/project.json", str("{}"))), plan.ErrProtectedPath},
		{"secret", planOf(act(plan.CreateFile, "config/.env", str("K=1\n"))), plan.ErrSecretPath},
		{"conflict", planOf(act(plan.UpdateFile, "a.go", str("package a\n// 1\n")), act(plan.DeleteFile, "./a.go", nil)), plan.ErrActionConflict},
		{"binary content", planOf(act(plan.CreateFile, "b.go", str("a\x00b"))), plan.ErrBinaryContent},
		{"binary target", planOf(act(plan.UpdateFile, "bin.dat", str("text\n"))), plan.ErrBinaryContent},
		{"non-UTF-8 target", planOf(act(plan.UpdateFile, "latin1.txt", str("cafe\n"))), plan.ErrNonUTF8File},
		{"update missing", planOf(act(plan.UpdateFile, "nope.go", str("x\n"))), plan.ErrNotFound},
		{"create existing", planOf(act(plan.CreateFile, "a.go", str("package other\n"))), plan.ErrAlreadyExists},
		{"delete non-empty dir", planOf(act(plan.DeleteDir, "full", nil)), plan.ErrDirNotEmpty},
		{"patch vs action conflict", func() plan.Plan {
			p := planOf(act(plan.UpdateFile, "a.go", str("package a\n// 1\n")))
			p.Patch = str("--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-package a\n+package b\n")
			return p
		}(), plan.ErrActionConflict},
	}
	before := snapshot(t, root)
	e := open(t, root, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Changes(&tc.p)
			if plan.CodeOf(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
		})
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("refusals changed files:\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "outside\n" {
		t.Fatal("a file outside the root changed")
	}
}

func TestDeleteDirWithListedContents(t *testing.T) {
	root := tree(t, map[string]string{"old/a.txt": "a\n", "old/b.txt": "b\n"})
	e := open(t, root, nil)
	before := snapshot(t, root)
	rec := draft(t, e, planOf(act(plan.DeleteDir, "old", nil), act(plan.DeleteFile, "old/a.txt", nil), act(plan.DeleteFile, "old/b.txt", nil)))
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "old")); !os.IsNotExist(err) {
		t.Fatal("folder still there")
	}
	if _, err := e.Undo(bg); err != nil {
		t.Fatal(err)
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("undo differs:\n%s", d)
	}
}

func TestProjectMemoryInTheTransaction(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n"})
	e := open(t, root, nil)
	rec := draft(t, e, planOf(act(plan.UpdateFile, "a.go", str("package a // A\n"))))
	mem := []byte("{\n  \"project.default_test_command\": \"go test ./...\"\n}\n")
	res, err := e.ApplyPlan(bg, rec.ID, Selection{ProjectMemory: mem, MemoryKeys: []string{plan.KeyDefaultTestCommand}})
	if err != nil {
		t.Fatal(err)
	}
	if read(t, root, ".fixplan/project.json") != string(mem) || len(res.Memory) != 1 {
		t.Fatalf("memory not written: %+v", res)
	}
	if _, err := e.Undo(bg); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".fixplan/project.json")); !os.IsNotExist(err) {
		t.Error("undo kept the memory file")
	}
}

func TestPreviewIsAGitDiff(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "gone.txt": "bye\n"})
	e := open(t, root, nil)
	p := planOf(act(plan.UpdateFile, "a.go", str("package a\n\nfunc A() int { return 1 }\n")), act(plan.CreateFile, "n.txt", str("hi\n")), act(plan.DeleteFile, "gone.txt", nil))
	cs, err := e.Changes(&p)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, c := range cs {
		pv := c.Preview()
		all.WriteString(pv.Diff)
		switch c.Path {
		case "a.go":
			if !strings.Contains(pv.Diff, "--- a/a.go\n+++ b/a.go\n") || !strings.Contains(pv.Diff, "-func A() {}\n+func A() int { return 1 }\n") || pv.BaseSHA256 == "" {
				t.Errorf("a.go preview = %q", pv.Diff)
			}
		case "n.txt":
			if !strings.Contains(pv.Diff, "--- /dev/null\n+++ b/n.txt\n") || pv.BaseSHA256 != "" {
				t.Errorf("n.txt preview = %q", pv.Diff)
			}
		case "gone.txt":
			if !strings.Contains(pv.Diff, "+++ /dev/null") {
				t.Errorf("gone.txt preview = %q", pv.Diff)
			}
		}
	}
	gitApplyCheck(t, root, all.String())
}
