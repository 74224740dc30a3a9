//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fixplan/llm/llmtest"
)

// draftTwoHunkPlan makes a draft plan of twoHunkPlan in a fresh project.
func draftTwoHunkPlan(t *testing.T) string {
	t.Helper()
	root := cliProject(t)
	if err := os.WriteFile(filepath.Join(root, "calc.py"), []byte(longCalc("", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.Reply{Content: twoHunkPlan(t)})
	if code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json"); code != 0 {
		t.Fatalf("plan exit %d: %s", code, errOut)
	}
	return root
}

// TestApplyEditRefusesSpecialAndHugeFiles: --edit reads only a regular file and
// only up to the size apply accepts (/dev/zero grew to 24 GB before); a FIFO is
// refused before it is opened (opening it would block).
func TestApplyEditRefusesSpecialAndHugeFiles(t *testing.T) {
	root := draftTwoHunkPlan(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.py")
	if err := os.WriteFile(huge, []byte(strings.Repeat("x = 1\n", 1<<20)), 0o644); err != nil { // 6 MiB
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{"/dev/zero", "is a device, not a regular file"},
		{fifo, "is a named pipe (FIFO), not a regular file"},
		{dir, "is a folder, not a regular file"},
		{huge, "at most 4194304 are accepted"},
	} {
		code, out, errOut := runEnv(t, nil, "", "--root", root, "apply", "--dry-run", "--edit", "calc.py="+tc.file)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("--edit calc.py=%s: exit %d, want a refusal containing %q\nstdout: %s\nstderr: %s", tc.file, code, tc.want, out, errOut)
		}
	}
	b, _ := os.ReadFile(filepath.Join(root, "calc.py"))
	if string(b) != longCalc("", "") {
		t.Error("calc.py was changed")
	}
}

// TestApplyDryRunRefusesLikeApply: a dry run whose --edit writes the [REDACTED]
// mark over a secret is refused as the real apply is, not shown as a clean diff.
func TestApplyDryRunRefusesLikeApply(t *testing.T) {
	root := draftTwoHunkPlan(t)
	mine := filepath.Join(t.TempDir(), "calc.py")
	if err := os.WriteFile(mine, []byte(longCalc("    API_KEY = \"[REDACTED]\"\n", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "would write the [REDACTED] mark over a secret: calc.py"
	code, out, errOut := runEnv(t, nil, "", "--root", root, "apply", "--yes", "--edit", "calc.py="+mine)
	if code == 0 || !strings.Contains(errOut, want) {
		t.Fatalf("apply: exit %d, want %q\nstdout: %s\nstderr: %s", code, want, out, errOut)
	}
	code, out, errOut = runEnv(t, nil, "", "--root", root, "apply", "--dry-run", "--edit", "calc.py="+mine)
	if code == 0 || !strings.Contains(errOut, want) || strings.Contains(out, "dry run: nothing written") {
		t.Fatalf("apply --dry-run: exit %d, want the same refusal %q\nstdout: %s\nstderr: %s", code, want, out, errOut)
	}
}
