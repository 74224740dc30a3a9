package gitrepo

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/context/section"
	"fixplan/internal/testtree"
)

// pemDoc is a prose file holding an RSA private key of 20 base64 lines; line i
// of the key (0-based) is keyLine(i, tag).
func pemDoc(tag string) string {
	var b strings.Builder
	b.WriteString("Deploy notes\n\nThe deploy key is below; keep it safe.\n\n-----BEGIN RSA PRIVATE KEY-----\n")
	for i := range 20 {
		b.WriteString(keyLine(i, tag) + "\n")
	}
	b.WriteString("-----END RSA PRIVATE KEY-----\n\nRotate it every 90 days.\n")
	return b.String()
}

func keyLine(i int, tag string) string {
	line := fmt.Sprintf("KEYb64line%02d%sQWxhZGRpbjpvcGVuIHNlc2FtZQAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajD", i, tag)
	return line[:64]
}

// TestGitDiffRedactsFromWholeFiles: a change of one base64 line in the middle
// of a committed private key gives a hunk with no BEGIN or END line; the
// recent-changes section must still show none of the key's lines — neither the
// added, the removed nor the context ones — in the uncommitted diff and in the
// last commit, as reading the file would not.
func TestGitDiffRedactsFromWholeFiles(t *testing.T) {
	repo := t.TempDir()
	testtree.Commit(t, repo, map[string]string{"app/deploy.txt": pemDoc("orig"), "app/main.py": "print(1)\n"})
	changed := strings.Replace(pemDoc("orig"), keyLine(10, "orig"), keyLine(10, "CHNG"), 1)
	testtree.Write(t, repo, map[string]string{"app/deploy.txt": changed})

	check := func(what string, c section.Candidate) {
		t.Helper()
		if strings.Contains(c.Sec.Body, "KEYb64line") {
			t.Errorf("%s: key material in the section:\n%s", what, c.Sec.Body)
		}
		if !strings.Contains(c.Sec.Body, "[REDACTED]") || c.Redactions == 0 {
			t.Errorf("%s: the key lines are not shown as redacted (%d redactions):\n%s", what, c.Redactions, c.Sec.Body)
		}
		if !strings.Contains(c.Sec.Body, "diff --git a/app/deploy.txt b/app/deploy.txt") {
			t.Errorf("%s: the file's diff is missing:\n%s", what, c.Sec.Body)
		}
	}
	g := newGit(t, repo)
	c, ok := g.Changes(context.Background(), nil, testChanges)
	if !ok || !strings.HasPrefix(c.Sec.Title, ChangesTitle) {
		t.Fatalf("no uncommitted-changes section: %+v", c.Sec)
	}
	check("uncommitted", c)

	testtree.Git(t, repo, "commit", "-qam", "rotate a line")
	c, ok = g.Changes(context.Background(), nil, testChanges)
	if !ok || !strings.HasPrefix(c.Sec.Title, "Last commit") {
		t.Fatalf("no last-commit section: %+v", c.Sec)
	}
	check("last commit", c)

	// a file deleted in the working tree: its removed lines are redacted from HEAD's blob
	testtree.Git(t, repo, "rm", "-q", "app/deploy.txt")
	c, ok = g.Changes(context.Background(), nil, testChanges)
	if !ok {
		t.Fatal("no section for a deleted file")
	}
	if strings.Contains(c.Sec.Body, "KEYb64line") {
		t.Errorf("deleted file: key material in the section:\n%s", c.Sec.Body)
	}
}

// TestHunkStart: the hunk header's line numbers.
func TestHunkStart(t *testing.T) {
	for _, tc := range []struct {
		in     string
		o, n   int
		wantOK bool
	}{
		{"@@ -3,7 +3,7 @@ def f():\n", 3, 3, true},
		{"@@ -0,0 +1 @@\n", 0, 1, true},
		{"@@ -12 +14,2 @@\n", 12, 14, true},
		{" @@ -1 +1 @@\n", 0, 0, false},
		{"@@ -x +1 @@\n", 0, 0, false},
	} {
		o, n, ok := hunkStart(tc.in)
		if ok != tc.wantOK || (ok && (o != tc.o || n != tc.n)) {
			t.Errorf("hunkStart(%q) = %d, %d, %v", tc.in, o, n, ok)
		}
	}
}

// TestPrefetchBlobs: one git cat-file --batch returns the old versions of the
// changed files, also for a folder inside the repository (paths relative to it)
// and for a commit's both sides.
func TestPrefetchBlobs(t *testing.T) {
	repo := t.TempDir()
	testtree.Commit(t, repo, map[string]string{"sub/a.txt": "one\ntwo\n", "sub/b.txt": "three\n", "top.txt": "x\n"})
	testtree.Write(t, repo, map[string]string{"sub/a.txt": "one\nTWO\n", "sub/b.txt": "THREE\n"})
	g := newGit(t, filepath.Join(repo, "sub"))
	gitPath, _ := exec.LookPath("git")
	r, ok := findGitRepo(g.root, nil)
	if !ok {
		t.Fatal("no repository")
	}
	out, _, err := g.runGit(context.Background(), gitPath, r, "diff", "HEAD", "--relative", "--src-prefix=a/", "--dst-prefix=b/", "--", ".")
	if err != nil {
		t.Fatal(err)
	}
	_, files := splitDiff(out, false)
	got := g.prefetchBlobs(context.Background(), gitPath, r, files, diffSides{old: "HEAD"})
	want := map[string]string{"HEAD:./a.txt": "one\ntwo\n", "HEAD:./b.txt": "three\n"}
	if !maps.Equal(got, want) {
		t.Errorf("prefetchBlobs = %q, want %q", got, want)
	}
	testtree.Git(t, repo, "commit", "-qam", "change")
	hash := strings.TrimSpace(gitOut(t, repo, "rev-parse", "HEAD"))
	got = g.prefetchBlobs(context.Background(), gitPath, r, files, diffSides{old: hash + "^", new: hash})
	if got[hash+"^:./a.txt"] != "one\ntwo\n" || got[hash+":./a.txt"] != "one\nTWO\n" || len(got) != 4 {
		t.Errorf("prefetchBlobs of a commit = %q", got)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
