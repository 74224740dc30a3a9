package session

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPatchFailureNeverQuotesUnreadableFiles: when a patch does not apply, the
// repair request quotes the file's closest lines — but never for a file the model
// may not read (here a hard link, untracked by git, to a key outside the project).
func TestPatchFailureNeverQuotesUnreadableFiles(t *testing.T) {
	patch := "--- a/creds.txt\n+++ b/creds.txt\n@@ -1,2 +1,2 @@\n-HARDLINK_CANARY line one\n-something else\n+x\n+y\n"
	bad := reply(t, func(m map[string]any) {
		m["proposed_changes"] = map[string]any{"patch": patch, "commands_to_run": []any{}, "actions": []any{}}
	})
	f := newFixture(t, nil, bad, reply(t, nil))
	outside := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(outside, []byte("HARDLINK_CANARY line one\npassword_is_hunter2\n"), 0o600)
	if err := os.Link(outside, filepath.Join(f.root, "creds.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.plan(t); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.srv.Requests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "password_is_hunter2") {
				t.Fatalf("a line of a hard-linked file reached the model in a %s message", m.Role)
			}
		}
	}
}

// TestCommandThatLeavesADaemon: a check that starts a background process (in its
// group, or detached with setsid) ends when it ends; fixplan does not wait for
// the daemon's pipes, and the daemon in its group is killed.
func TestCommandThatLeavesADaemon(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Fatal("setsid is needed (util-linux)")
	}
	dir := t.TempDir()
	start := time.Now()
	res, err := RunCommand(context.Background(), dir, "sleep 30 & setsid sleep 30 & echo started", 20*time.Second, nil)
	if err != nil || res.ExitCode != 0 || !strings.Contains(res.Output, "started") {
		t.Fatalf("res = %+v, %v", res, err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("RunCommand waited %s for the background processes", d)
	}
}
