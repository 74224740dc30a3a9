package apply

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// TestHugeSparseFileIsRefusedNotAllocated: a project file terabytes long that holds
// a few KiB on disk, named by a plan's UPDATE_FILE, EDIT_FILE or DELETE_FILE, is
// refused with its size — the engine allocated its whole length to preview it (the
// process was killed) before it read files through their descriptor's size.
func TestHugeSparseFileIsRefusedNotAllocated(t *testing.T) {
	root := tree(t, map[string]string{"ok.txt": "a\n"})
	f, err := os.Create(filepath.Join(root, "huge.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		// a file system without sparse files: just over the cap, written out
		if err := f.Truncate(MaxFileBytes + 1<<20); err != nil {
			f.Close()
			t.Fatal(err)
		}
	}
	f.Close()
	e := open(t, root, nil)
	for _, a := range []plan.Action{
		act(plan.UpdateFile, "huge.log", str("new\n")),
		{Kind: plan.EditFile, Path: "huge.log", Edits: []plan.Edit{{Search: "a", Replace: "b"}}},
		act(plan.DeleteFile, "huge.log", nil),
	} {
		p := planOf(a)
		_, err := e.Changes(&p)
		if err == nil || !strings.Contains(err.Error(), "huge.log") || !strings.Contains(errText(err), "MiB") ||
			plan.CodeOf(err) != plan.ErrInvalidInput || !hintHas(err, "by hand") {
			t.Fatalf("%s of a file over the cap: %v, want a refusal naming its size", a.Kind, err)
		}
	}
}

// errText is an error with the errors it wraps, as the CLI shows them.
func errText(err error) string {
	var b strings.Builder
	for ; err != nil; err = errors.Unwrap(err) {
		b.WriteString(err.Error())
		b.WriteString("\n")
	}
	return b.String()
}

func hintHas(err error, want string) bool {
	var pe *plan.Error
	return errors.As(err, &pe) && strings.Contains(pe.Hint, want)
}
