package session

import (
	"strings"
	"testing"

	"fixplan/plan"
)

func TestDropPatchFiles(t *testing.T) {
	git := "diff --git a/a.go b/a.go\nindex 1..2 100644\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-a\n+A\n" +
		"diff --git a/b.go b/b.go\n--- a/b.go\n+++ b/b.go\n@@ -1 +1 @@\n-b\n+B\n"
	plain := "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-a\n+A\n--- b.go\n+++ b.go\n@@ -1 +1 @@\n-b\n+B\n@@ -5 +5 @@\n-x\n+y\n"
	created := "--- /dev/null\n+++ b/new.go\n@@ -0,0 +1 @@\n+n\n--- a/b.go\n+++ b/b.go\n@@ -1 +1 @@\n-b\n+B\n"
	tests := []struct {
		name, patch, drop, keep, gone string
	}{
		{"git headers", git, "b.go", "+A", "+B"},
		{"git headers, first file", git, "a.go", "+B", "+A"},
		{"plain headers, two hunks in the dropped file", plain, "b.go", "+A", "+y"},
		{"created file kept", created, "b.go", "+n", "+B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := dropPatchFiles(tc.patch, map[string]bool{tc.drop: true})
			if !strings.Contains(got, tc.keep) || strings.Contains(got, tc.gone) {
				t.Fatalf("got:\n%s", got)
			}
		})
	}
}

func TestUnseen(t *testing.T) {
	r := &run{seen: map[string]bool{}}
	r.see([]plan.SeenFile{{Path: "a.go", Whole: true}, {Path: "./b.go", Whole: false}})
	changes := []plan.FileChange{
		{Path: "a.go", Op: plan.OpUpdate},
		{Path: "b.go", Op: plan.OpUpdate},                               // whole-file rewrite of a window: blind
		{Path: "b.go", Op: plan.OpUpdate, Placement: []string{"exact"}}, // a patch needs only the window
		{Path: "c.go", Op: plan.OpUpdate, Placement: []string{"exact"}}, // never seen
		{Path: "d.go", Op: plan.OpCreate},
	}
	if got := strings.Join(r.unseen(changes), ","); got != "b.go,c.go" {
		t.Fatalf("unseen = %s", got)
	}
}
