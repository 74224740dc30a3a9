//go:build unix

package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixplan/editor"
	"fixplan/internal/testtree"
)

// TestOpenInEditor starts the command of Settings (a real fake editor that
// writes its arguments and environment) without the provider key variables.
func TestOpenInEditor(t *testing.T) {
	root, tools := t.TempDir(), t.TempDir()
	testtree.Write(t, root, map[string]string{"src/calc.py": "x\n"})
	out := filepath.Join(tools, "out")
	testtree.Scripts(t, tools, map[string]string{"ed": `{ printf '%s\n' "$@"; env; } > "` + out + `.tmp" && mv "` + out + `.tmp" "` + out + "\"\n"})
	t.Setenv("OPENAI_API_KEY", "sk-test-secret-in-env")
	t.Setenv("FIXPLAN_API_KEY", "fp-test-secret-in-env")
	t.Setenv("FIXPLAN_EDITOR_TEST", "kept")
	st := DefaultSettings()
	st.OpenWith = filepath.Join(tools, "ed") + " {file}:{line}"
	o, err := OpenInEditor(st, editor.Request{Root: root, Path: "src/calc.py", Line: 2})
	if err != nil {
		t.Fatal(err)
	}
	if o.Summary() != "Opened src/calc.py at line 2 with ed (Settings)." {
		t.Errorf("summary %q", o.Summary())
	}
	var got string
	for i := 0; i < 500 && got == ""; i++ {
		b, _ := os.ReadFile(out)
		got = string(b)
		time.Sleep(20 * time.Millisecond)
	}
	real, _ := filepath.EvalSymlinks(root)
	if first, _, _ := strings.Cut(got, "\n"); first != filepath.Join(real, "src", "calc.py")+":2" {
		t.Fatalf("the editor got %q", first)
	}
	if strings.Contains(got, "secret-in-env") || !strings.Contains(got, "FIXPLAN_EDITOR_TEST=kept") {
		t.Fatalf("the editor's environment:\n%s", got)
	}
}
