package apply

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/edit"
)

// lines builds "l1\nl2\n…ln\n" with the given line replaced (1-based → text).
func lines(n int, repl map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if r, ok := repl[i]; ok {
			b.WriteString(r)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

// The hunks a user selects are numbered exactly as the preview diff shows them.
func TestHunkNumbersMatchPreview(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": lines(40, nil)})
	e := open(t, root, nil)
	after := lines(40, map[int]string{3: "x\n", 15: "y\n", 16: "z\n", 30: "", 40: "end\nmore\n"})
	rec := draft(t, e, planOf(act("UPDATE_FILE", "a.txt", str(after))))
	diff := rec.Changes[0].Diff
	shown := strings.Count(diff, "\n@@ ")
	hs, err := edit.ParseHunks(diff)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != shown || len(edit.HunksOf([]byte(lines(40, nil)), []byte(after))) != shown || shown != 4 {
		t.Fatalf("preview shows %d hunks, ParseHunks %d, HunksOf %d:\n%s", shown, len(hs), len(edit.HunksOf([]byte(lines(40, nil)), []byte(after))), diff)
	}
	for i, h := range hs {
		if !strings.Contains(diff, h.Text) || !strings.HasPrefix(h.Text, "@@ ") || h.N != i+1 {
			t.Errorf("hunk %d text %q not the preview's", i+1, h.Text)
		}
	}
}
