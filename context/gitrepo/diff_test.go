package gitrepo

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// TestGitDiffSection: the uncommitted changes of a real repository are sent,
// the files in play first, with secrets redacted, secret files and .fixplan left
// out, lock files summarised; a folder inside the repository sees its own
// changes with paths relative to it.
func TestGitDiffSection(t *testing.T) {
	repo := t.TempDir()
	var lock strings.Builder
	for i := range 300 {
		fmt.Fprintf(&lock, "  \"dep%d\": \"1.0.%d\",\n", i, i)
	}
	testtree.Commit(t, repo, map[string]string{
		"app/calc.py":           "def add(a, b):\n    return a + b\n",
		"app/util.py":           "TIMEOUT = 3\n",
		"docs/readme.md":        "docs\n",
		".env":                  "TOKEN=old\n",
		"config/secrets/db.txt": "user=old\n",
		".fixplan/project.json": "{}\n",
		"package-lock.json":     "{\n}\n",
		"staged.txt":            "one\n",
	})
	testtree.Write(t, repo, map[string]string{
		"app/util.py":           "TIMEOUT = 3\npassword = \"hunter2hunter2\"\n",
		"app/calc.py":           "def add(a, b):\n    return a - b\n",
		".env":                  "TOKEN=NEW-ENV-VALUE\n",
		"config/secrets/db.txt": "user=NEW-SECRET-FOLDER\n",
		".fixplan/project.json": "{\"NEW-FIXPLAN-STATE\": 1}\n",
		"package-lock.json":     "{\n" + lock.String() + "}\n",
		"staged.txt":            "two\n",
		"untracked.py":          "UNTRACKED = 1\n",
	})
	testtree.Git(t, repo, "add", "staged.txt")

	g := newGit(t, repo)
	c, ok := g.Changes(context.Background(), []string{"app/util.py"}, testChanges)
	if !ok {
		t.Fatal("no recent-changes section for a repository with changes")
	}
	body := c.Sec.Body
	if want := "Uncommitted changes (git diff HEAD, 4 files)"; c.Sec.Title != want {
		t.Errorf("title = %q, want %q", c.Sec.Title, want)
	}
	for _, want := range []string{"+    return a - b", "-one", "+two", "package-lock.json (lock file: +300 -0 lines, not shown)", "[REDACTED]"} {
		if !strings.Contains(body, want) {
			t.Errorf("section lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"hunter2hunter2", "NEW-ENV-VALUE", "NEW-SECRET-FOLDER", "NEW-FIXPLAN-STATE", "UNTRACKED", "dep12"} {
		if strings.Contains(body, bad) {
			t.Errorf("section shows %q:\n%s", bad, body)
		}
	}
	if strings.Index(body, "diff --git a/app/util.py") > strings.Index(body, "diff --git a/app/calc.py") {
		t.Errorf("the file in play (app/util.py) must come first:\n%s", body)
	}
	if c.Redactions == 0 {
		t.Error("redactions not counted")
	}

	sub := newGit(t, filepath.Join(repo, "app"))
	c, ok = sub.Changes(context.Background(), nil, testChanges)
	if !ok {
		t.Fatal("no section for a folder inside the repository")
	}
	if !strings.Contains(c.Sec.Body, "diff --git a/calc.py b/calc.py") || strings.Contains(c.Sec.Body, "staged.txt") {
		t.Errorf("a sub-folder must see its own changes, relative to it:\n%s", c.Sec.Body)
	}
}

// TestGitDiffLastCommit: with a clean working tree the last commit is offered
// instead; with no repository or no commit there is no section.
func TestGitDiffLastCommit(t *testing.T) {
	repo := t.TempDir()
	testtree.Commit(t, repo, map[string]string{"calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n"})
	testtree.Write(t, repo, map[string]string{"calc.go": "package calc\n\nfunc Add(a, b int) int { return a - b }\n"})
	testtree.Git(t, repo, "commit", "-qam", "speed up Add")
	g := newGit(t, repo)
	c, ok := g.Changes(context.Background(), nil, testChanges)
	if !ok {
		t.Fatal("no section for a clean tree with commits")
	}
	if !strings.HasPrefix(c.Sec.Title, "Last commit (the working tree is clean") {
		t.Errorf("title = %q", c.Sec.Title)
	}
	for _, want := range []string{"Subject: speed up Add", "-func Add(a, b int) int { return a + b }", "+func Add(a, b int) int { return a - b }"} {
		if !strings.Contains(c.Sec.Body, want) {
			t.Errorf("section lacks %q:\n%s", want, c.Sec.Body)
		}
	}

	unborn := t.TempDir()
	testtree.Write(t, unborn, map[string]string{"a.go": "package a\n"})
	testtree.Git(t, unborn, "init", "-q")
	if c, ok := newGit(t, unborn).Changes(context.Background(), nil, testChanges); ok {
		t.Errorf("a repository without commits gave a section: %+v", c.Sec)
	}
}

// TestGitDiffBudget: many changed files fill the section's own budget; the
// rest are named, not shown, and one huge file's diff is cut.
func TestGitDiffBudget(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("f%02d.txt", i)] = "old\n"
	}
	files["huge.txt"] = "x\n"
	testtree.Commit(t, repo, files)
	for i := range 40 {
		files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat(fmt.Sprintf("new line of file %d\n", i), 30)
	}
	files["huge.txt"] = strings.Repeat("a long line of the huge file\n", 2000)
	testtree.Write(t, repo, files)
	g := newGit(t, repo)
	c, ok := g.Changes(context.Background(), []string{"huge.txt"}, testChanges)
	if !ok {
		t.Fatal("no section")
	}
	if len(c.Sec.Body) > maxDiffBytes {
		t.Errorf("section is %d bytes, budget %d", len(c.Sec.Body), maxDiffBytes)
	}
	if !strings.Contains(c.Sec.Body, "diff --git a/huge.txt") || !strings.Contains(c.Sec.Body, "…[truncated") {
		t.Errorf("the huge file in play must come first, cut:\n%.600s", c.Sec.Body)
	}
	if !strings.Contains(c.Sec.Body, "more files not shown: ") {
		t.Errorf("files left out are not named:\n%s", c.Sec.Body[len(c.Sec.Body)-400:])
	}
}

func TestSplitDiff(t *testing.T) {
	out := "commit abc\nSubject: x\n\n" +
		"diff --git a/my file.go b/my file.go\nindex 1..2 100644\n--- a/my file.go\n+++ b/my file.go\n@@ -1 +1,2 @@\n--- a/.env\n+x\n+y\n" +
		"diff --git a/old.go b/new.go\nsimilarity index 90%\nrename from old.go\nrename to new.go\n" +
		"diff --git \"a/caf\\303\\251.go\" \"b/caf\\303\\251.go\"\n--- \"a/caf\\303\\251.go\"\n+++ \"b/caf\\303\\251.go\"\n@@ -1 +1 @@\n-a\n+b\n" +
		"diff --git a/gone.go b/gone.go\ndeleted file mode 100644\n--- a/gone.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
	head, files := splitDiff(out, false)
	if head != "commit abc\nSubject: x\n\n" {
		t.Errorf("head = %q", head)
	}
	want := []struct {
		path  string
		paths string
		add   int
		gone  int
	}{
		{"my file.go", "my file.go", 2, 1}, // "--- a/.env" inside a hunk is a removed line, not a header
		{"new.go", "old.go new.go", 0, 0},
		{"café.go", "café.go", 1, 1},
		{"gone.go", "gone.go", 0, 1},
	}
	if len(files) != len(want) {
		t.Fatalf("got %d files: %+v", len(files), files)
	}
	for i, w := range want {
		f := files[i]
		if f.path != w.path || strings.Join(f.paths, " ") != w.paths || f.added != w.add || f.gone != w.gone {
			t.Errorf("file %d = {%q %q +%d -%d}, want %+v", i, f.path, f.paths, f.added, f.gone, w)
		}
	}
	if _, files := splitDiff(out, true); len(files) != 3 {
		t.Errorf("a cut diff must drop its last (partial) file, got %d files", len(files))
	}
}

// A last commit that adds 5,000 files (500 with -short): git diffs only
// maxPatchFiles of them (the file in play first), the section names how many
// more were left out, and a secret file among those left out is not named.
func TestGitDiffHugeCommit(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 500
	}
	repo := t.TempDir()
	testtree.Commit(t, repo, map[string]string{"main.go": "package main\n"})
	files := map[string]string{".env": "TOKEN=x\n"}
	for i := range n {
		files[fmt.Sprintf("gen/f%04d.txt", i)] = fmt.Sprintf("generated %d\n", i)
	}
	files["zz/app.go"] = "package zz\n\nfunc Broken() {}\n"
	testtree.Commit(t, repo, files)
	g := newGit(t, repo)
	c, ok := g.Changes(context.Background(), []string{"zz/app.go"}, testChanges)
	if !ok {
		t.Fatal("no section")
	}
	body := c.Sec.Body
	if !strings.Contains(body, "diff --git a/zz/app.go") {
		t.Errorf("the file in play (last in git's order) is not diffed:\n%.600s", body)
	}
	if !strings.Contains(body, "more files not shown: ") || !strings.Contains(c.Sec.Title, fmt.Sprintf("%d files", n+1)) {
		t.Errorf("the files left out are not named or counted; title %q, end:\n%s", c.Sec.Title, body[max(0, len(body)-400):])
	}
	if strings.Contains(body, ".env") {
		t.Errorf("a secret file is named:\n%s", body)
	}
	if len(body) > maxDiffBytes {
		t.Errorf("section is %d bytes, budget %d", len(body), maxDiffBytes)
	}
	if _, skipped := patchScope(strings.Join(slices.Sorted(maps.Keys(files)), "\x00"), false, nil); len(skipped) != len(files)-maxPatchFiles {
		t.Errorf("%d files left out of the diff of %d, want all but %d", len(skipped), len(files), maxPatchFiles)
	}
}
