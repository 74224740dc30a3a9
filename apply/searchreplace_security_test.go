package apply

import (
	"os"
	"path/filepath"
	"testing"

	"fixplan/plan"
)

// TestEditsStayInsideTheProject: EDIT_FILE actions and Begin Patch envelopes
// are held to the same path rules as every other change — nothing outside the
// root, through a link, in .git or .fixplan, or in a secret file is read or written.
func TestEditsStayInsideTheProject(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("token = 1\n"), 0o644)
	root := tree(t, map[string]string{"a.go": "package a\n", ".git/config": "[core]\n", ".env": "TOKEN=1\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal("create a symlink for the test:", err)
	}
	os.Symlink(outside, filepath.Join(root, "outdir"))
	edit := func(path string) plan.Plan {
		return planOf(plan.Action{Kind: plan.EditFile, Path: path, Edits: []plan.Edit{{Search: "token = 1", Replace: "token = 2"}}})
	}
	envelope := func(body string) plan.Plan {
		p := "*** Begin Patch\n" + body + "*** End Patch\n"
		return plan.Plan{Patch: &p}
	}
	tests := []struct {
		name string
		p    plan.Plan
		code plan.Code
	}{
		{"edit ..", edit("../x/secret.txt"), plan.ErrPathOutsideRoot},
		{"edit through a linked file", edit("link.txt"), plan.ErrPathOutsideRoot},
		{"edit through a linked folder", edit("outdir/secret.txt"), plan.ErrPathOutsideRoot},
		{"edit .git", edit(".git/config"), plan.ErrProtectedPath},
		{"edit a secret file", edit(".env"), plan.ErrSecretPath},
		{"envelope update ..", envelope("*** Update File: ../secret.txt\n@@\n-token = 1\n+token = 2\n"), plan.ErrPathOutsideRoot},
		{"envelope update through a link", envelope("*** Update File: link.txt\n@@\n-token = 1\n+token = 2\n"), plan.ErrPathOutsideRoot},
		{"envelope add into .git", envelope("*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n"), plan.ErrProtectedPath},
		{"envelope move out of the root", envelope("*** Update File: a.go\n*** Move to: ../moved.go\n@@\n-package a\n+package b\n"), plan.ErrPathOutsideRoot},
		{"envelope move into .fixplan", envelope("*** Update File: a.go\n*** Move to: .fixplan/plans/x.json\n@@\n-package a\n+package b\n"), plan.ErrProtectedPath},
		{"envelope delete through a linked folder", envelope("*** Delete File: outdir/secret.txt\n"), plan.ErrPathOutsideRoot},
	}
	before := snapshot(t, root)
	e := open(t, root, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := e.Changes(&tc.p); plan.CodeOf(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
		})
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("refusals changed files:\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "token = 1\n" {
		t.Fatal("a file outside the root changed")
	}
}
