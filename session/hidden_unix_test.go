//go:build unix

package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/apply"
	"fixplan/plan"
)

// TestRefusedFilesAreQuotedByNoOtherRoute: the model may not read an untracked
// hard link to a file outside, nor a secret file. A DELETE_FILE of either (a
// deletion previews the content) quotes none of it: the secret file is refused
// by the write guard (the read guard's list), the link's preview shows no line
// of it; so neither the saved plan nor the re-plan's OPERATOR REVIEW of the
// rejected deletion holds a byte of either.
func TestRefusedFilesAreQuotedByNoOtherRoute(t *testing.T) {
	const linked = "MY-PRIVATE-SSH-KEY-MATERIAL"
	first := reply(t, func(m map[string]any) {
		m["proposed_changes"].(map[string]any)["actions"] = []any{
			map[string]any{"kind": "DELETE_FILE", "path": "notes.txt"},
			map[string]any{"kind": "UPDATE_FILE", "path": "calc.py", "content": "def divide(a, b):\n    return a / b if b else None\n"},
		}
	})
	f := newFixture(t, nil, first, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	outside := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(outside, []byte(linked+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(f.root, "notes.txt")); err != nil {
		t.Fatalf("cannot make a hard link in the temp folder: %v", err)
	}
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range rec.Changes {
		paths = append(paths, c.Path)
		if strings.Contains(c.Diff, linked) {
			t.Errorf("the preview of %s quotes the file:\n%s", c.Path, c.Diff)
		}
	}
	if strings.Join(paths, ",") != "notes.txt,calc.py" {
		t.Errorf("changes = %v, want the deletion of notes.txt and calc.py", paths)
	}
	saved, _ := os.ReadFile(filepath.Join(f.root, ".fixplan", "plans", rec.ID+".json"))
	if len(saved) == 0 || strings.Contains(string(saved), linked) || strings.Contains(string(saved), "hunter2") {
		t.Errorf("the saved plan (%d bytes) holds a refused file's content", len(saved))
	}
	// the operator rejects the deletion; the re-plan tells the model
	rv, err := f.s.ReviewOf(rec.ID, []string{"calc.py"}, []apply.FileChoice{})
	if err != nil || rv == nil {
		t.Fatalf("review = %+v, %v", rv, err)
	}
	if _, err := f.s.Plan(context.Background(), plan.ProblemInput{Problem: "again", Previous: rec.ID, Review: rv}); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.srv.Requests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, linked) || strings.Contains(m.Content, "hunter2") {
				t.Fatalf("a refused file's content reached the model:\n%s", m.Content)
			}
		}
	}
	reqs := f.srv.Requests()
	if user := reqs[len(reqs)-1].LastUser(); !strings.Contains(user, "notes.txt: the operator rejected your whole change to this file") {
		t.Errorf("the review does not tell of the rejected deletion:\n%s", user)
	}
}

// TestSecretFileDeletionIsRefused: the write guard refuses a change to a file
// of the read guard's list (.pgpass was missing from its own), so no preview of
// it is made, saved or quoted.
func TestSecretFileDeletionIsRefused(t *testing.T) {
	const secret = "db.example.com:5432:app:admin:hunter2-PGPASS"
	first := reply(t, func(m map[string]any) {
		m["proposed_changes"].(map[string]any)["actions"] = []any{map[string]any{"kind": "DELETE_FILE", "path": ".pgpass"}}
	})
	f := newFixture(t, nil, first, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	if err := os.WriteFile(filepath.Join(f.root, ".pgpass"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Changes) != 0 || !strings.Contains(strings.Join(rec.Warnings, "\n"), ".pgpass looks like a secrets file; fixplan does not write secrets") {
		t.Errorf("changes %+v, warnings %q", rec.Changes, rec.Warnings)
	}
	saved, _ := os.ReadFile(filepath.Join(f.root, ".fixplan", "plans", rec.ID+".json"))
	if len(saved) == 0 || strings.Contains(string(saved), "hunter2") {
		t.Errorf("the saved plan (%d bytes) holds the secret file's content", len(saved))
	}
	for _, r := range f.srv.Requests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "hunter2") {
				t.Fatalf("the secret file's content reached the model:\n%s", m.Content)
			}
		}
	}
}
