package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
