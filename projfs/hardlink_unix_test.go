//go:build unix

package projfs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/plan"
)

// TestHardLinkPolicy: a file with more than one hard link is read only when the
// Tracked policy says version control tracks it; the refusal says why not and
// what to do. (context's tests run the policy with git itself.)
func TestHardLinkPolicy(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(outside, []byte("MY-PRIVATE-SSH-KEY-MATERIAL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"ok.txt": "one link\n"})
	if err := os.Link(outside, filepath.Join(root, "notes.txt")); err != nil {
		t.Fatalf("cannot make a hard link in the temp folder: %v", err)
	}
	tests := []struct {
		name    string
		tracked func(string) (bool, string)
		want    string // in the refusal; "" = read
	}{
		{"no policy", nil, `file "notes.txt" is not read: it has 2 hard links and git does not track it, and a hard link`},
		{"not tracked, with why", func(string) (bool, string) { return false, "git is not installed" },
			"git does not track it (git is not installed)"},
		{"tracked", func(rel string) (bool, string) { return rel == "notes.txt", "" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := openRoot(t, root, Options{Tracked: tt.tracked})
			if _, err := r.ReadText("ok.txt"); err != nil {
				t.Fatalf("a file with one link was refused: %v", err)
			}
			// search makes the same decision, with both walkers: a refused
			// file is not even counted
			for _, portable := range []bool{false, true} {
				if portable {
					r.openTop = openRootTop
				}
				res, err := r.Search(context.Background(), "MY-PRIVATE", SearchOptions{})
				if err != nil || res.Total != map[bool]int{true: 0, false: 1}[tt.want != ""] {
					t.Errorf("search (portable walker %v) = %+v, %v", portable, res, err)
				}
			}
			r.openTop = openTopFunc
			text, err := r.ReadText("notes.txt")
			if tt.want == "" {
				if err != nil || len(text.Lines) != 1 {
					t.Fatalf("tracked hard link: %+v, %v", text, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "add it to git (git add)") {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if code := err.(*plan.Error).Code; code != plan.ErrPathOutsideRoot {
				t.Errorf("code %s, want %s", code, plan.ErrPathOutsideRoot)
			}
		})
	}
}
