package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/apply"
	"fixplan/edit"
	"fixplan/llm/llmtest"
	"fixplan/plan"
)

const dbSecret = "hunter2hunter2xyz"

// secretProject writes a project whose files hold a database password in lines
// a plan's diffs show as context, removed or moved lines.
func secretProject(t *testing.T) (string, map[string]string) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"config.py": "import os\n\nHOST = \"db.internal\"\nPORT = 5432\nDB_PASSWORD = \"" + dbSecret + "\"\nUSER = \"app\"\nTIMEOUT = 5\nRETRIES = 3\n" +
			strings.Repeat("# filler\n", 12) + "DEBUG = False\n",
		"legacy.py": "# old settings\nDB_PASSWORD = \"" + dbSecret + "\"\n",
		"db.py":     "import config\n\nDB_PASSWORD = \"" + dbSecret + "\"\n\ndef connect():\n    return config.HOST\n",
	}
	for rel, content := range files {
		writeProjectFile(t, root, rel, content)
	}
	return root, files
}

func editAction(path string, edits ...[2]string) map[string]any {
	list := []any{}
	for _, e := range edits {
		list = append(list, map[string]any{"search": e[0], "replace": e[1]})
	}
	return map[string]any{"kind": "EDIT_FILE", "path": path, "content": nil, "edits": list}
}

// savedPlanBytes is the record file as it is on disk (sealed, not encrypted).
func savedPlanBytes(t *testing.T, root, id string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".fixplan", "plans", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readProject(t *testing.T, root, rel string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// A plan that edits next to a password, deletes a file holding it and moves
// another: the saved record keeps no password (context, removed and moved lines
// are redacted like the context sent to the model), while the review still shows
// the model's own lines, and Apply and Undo write the exact bytes.
func TestSavedPlanHoldsNoSecretOfTheProject(t *testing.T) {
	root, files := secretProject(t)
	envelope := "*** Begin Patch\n*** Update File: db.py\n*** Move to: database/db.py\n@@\n def connect():\n-    return config.HOST\n+    return config.HOST.strip()\n*** End Patch\n"
	srv := llmtest.NewServer(t,
		reply(t, requests(map[string]any{"type": "read_file", "path": "config.py"}, map[string]any{"type": "read_file", "path": "legacy.py"},
			map[string]any{"type": "read_file", "path": "db.py"})),
		reply(t, func(m map[string]any) {
			m["proposed_changes"] = map[string]any{"patch": envelope, "commands_to_run": []any{}, "actions": []any{
				editAction("config.py", [2]string{"TIMEOUT = 5\n", "TIMEOUT = 30\n"}),
				map[string]any{"kind": "DELETE_FILE", "path": "legacy.py", "content": nil, "edits": nil},
			}}
		}))
	s := openWith(t, root, srv, nil)
	rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: "the database connection times out"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Changes) != 4 {
		t.Fatalf("changes = %+v, want config.py, legacy.py, db.py and database/db.py", rec.Changes)
	}
	saved := savedPlanBytes(t, root, rec.ID)
	if strings.Contains(saved, "hunter2") {
		t.Fatalf("the saved plan holds the password:\n%s", saved)
	}
	diffs := map[string]string{}
	for _, c := range rec.Changes {
		diffs[c.Path] = c.Diff
		if strings.Contains(c.Diff, "hunter2") {
			t.Errorf("%s: the returned preview shows the password:\n%s", c.Path, c.Diff)
		}
	}
	for path, want := range map[string][]string{
		"config.py":      {"-TIMEOUT = 5\n", "+TIMEOUT = 30\n", " DB_PASSWORD = \"[REDACTED]\"\n"},
		"legacy.py":      {"-DB_PASSWORD = \"[REDACTED]\"\n", "-# old settings\n"},
		"db.py":          {"-DB_PASSWORD = \"[REDACTED]\"\n"},
		"database/db.py": {"+DB_PASSWORD = \"[REDACTED]\"\n", "+    return config.HOST.strip()\n"},
	} {
		for _, w := range want {
			if !strings.Contains(diffs[path], w) {
				t.Errorf("%s: preview lacks %q:\n%s", path, w, diffs[path])
			}
		}
	}

	if _, err := s.ApplySelection(context.Background(), rec.ID, nil, nil, nil); err != nil {
		t.Fatalf("apply: %v", err)
	}
	wantAfter := map[string]string{
		"config.py":      strings.Replace(files["config.py"], "TIMEOUT = 5\n", "TIMEOUT = 30\n", 1),
		"database/db.py": strings.Replace(files["db.py"], "    return config.HOST\n", "    return config.HOST.strip()\n", 1),
	}
	for rel, want := range wantAfter {
		if got, _ := readProject(t, root, rel); got != want {
			t.Errorf("after apply %s = %q, want %q", rel, got, want)
		}
	}
	for _, rel := range []string{"legacy.py", "db.py"} {
		if _, ok := readProject(t, root, rel); ok {
			t.Errorf("after apply %s still exists", rel)
		}
	}
	if saved := savedPlanBytes(t, root, rec.ID); strings.Contains(saved, "hunter2") || !strings.Contains(saved, `"state":"applied"`) {
		t.Errorf("the applied plan's record holds the password or is not marked applied")
	}

	if _, err := s.Undo(context.Background()); err != nil {
		t.Fatalf("undo: %v", err)
	}
	for rel, want := range files {
		if got, _ := readProject(t, root, rel); got != want {
			t.Errorf("after undo %s = %q, want %q", rel, got, want)
		}
	}
	if _, ok := readProject(t, root, "database/db.py"); ok {
		t.Errorf("after undo database/db.py still exists")
	}
}

// Per-hunk review and hand edits work on the real bytes although the stored
// diffs are redacted: one of two hunks next to the password is applied, a hand
// edit that keeps the password is written as typed, and the record's review
// (the edit's diff) holds no password.
func TestReviewedPlanWithSecretsAppliesExactly(t *testing.T) {
	root, files := secretProject(t)
	srv := llmtest.NewServer(t,
		reply(t, requests(map[string]any{"type": "read_file", "path": "config.py"}, map[string]any{"type": "read_file", "path": "db.py"})),
		reply(t, func(m map[string]any) {
			m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
				editAction("config.py", [2]string{"PORT = 5432\n", "PORT = 6432\n"}, [2]string{"DEBUG = False\n", "DEBUG = True\n"}),
				editAction("db.py", [2]string{"    return config.HOST\n", "    return config.HOST.lower()\n"}),
			}}
		}))
	s := openWith(t, root, srv, nil)
	rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: "the database connection times out"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Changes {
		if c.Path == "config.py" {
			if hs, err := edit.ParseHunks(c.Diff); err != nil || len(hs) != 2 {
				t.Fatalf("config.py hunks = %d (%v), want 2:\n%s", len(hs), err, c.Diff)
			}
		}
	}
	mine := strings.Replace(files["db.py"], "    return config.HOST\n", "    return config.HOST  # checked by hand\n", 1)
	choices := []apply.FileChoice{{Path: "config.py", Hunks: []int{1}}, {Path: "db.py", Content: &mine}}
	pv, err := s.PreviewSelection(rec.ID, nil, choices)
	if err != nil {
		t.Fatalf("preview selection: %v", err)
	}
	for _, c := range pv {
		if strings.Contains(c.Diff, "hunter2") {
			t.Errorf("%s: the selection's preview shows the password:\n%s", c.Path, c.Diff)
		}
	}
	if _, err := s.ApplySelection(context.Background(), rec.ID, nil, nil, choices); err != nil {
		t.Fatalf("apply: %v", err)
	}
	if got, _ := readProject(t, root, "config.py"); got != strings.Replace(files["config.py"], "PORT = 5432\n", "PORT = 6432\n", 1) {
		t.Errorf("config.py after applying hunk 1 = %q", got)
	}
	if got, _ := readProject(t, root, "db.py"); got != mine {
		t.Errorf("db.py after the hand edit = %q, want %q", got, mine)
	}
	saved := savedPlanBytes(t, root, rec.ID)
	if strings.Contains(saved, "hunter2") {
		t.Fatalf("the reviewed plan's record holds the password:\n%s", saved)
	}
	if !strings.Contains(saved, "checked by hand") {
		t.Errorf("the record's review lacks the hand edit:\n%s", saved)
	}
	if _, err := s.Undo(context.Background()); err != nil {
		t.Fatalf("undo: %v", err)
	}
	for rel, want := range files {
		if got, _ := readProject(t, root, rel); got != want {
			t.Errorf("after undo %s = %q, want %q", rel, got, want)
		}
	}
}
