package apply

import (
	"strings"
	"testing"

	"fixplan/plan"
)

const codexApp = `import os


class Handler:
    def get(self, key):
        value = os.environ.get(key)
        return value

    def put(self, key, value):
        os.environ[key] = value
`

// TestCodexPatch applies Begin Patch envelopes as Codex-trained models write them
// (update with context and an anchor, add, delete, move, pure additions, CRLF) and
// checks the files they produce.
func TestCodexPatch(t *testing.T) {
	root := tree(t, map[string]string{
		"app/handler.py": codexApp,
		"README.md":      "# demo\r\nold line\r\n",
		"old.txt":        "bye\n",
		"notes.txt":      "a\nb",
	})
	e := open(t, root, nil)
	patch := "Here is the fix:\n```\n*** Begin Patch\n" +
		"*** Update File: app/handler.py\n" +
		"@@ class Handler:\n" +
		"     def get(self, key):\n" +
		"-        value = os.environ.get(key)\n" +
		"+        value = os.environ.get(key, \"\")\n" +
		"         return value\n" +
		"@@     def put(self, key, value):\n" +
		"+        if not key:\n" +
		"+            raise ValueError(\"empty key\")\n" +
		"*** Update File: README.md\n" +
		"*** Move to: docs/README.md\n" +
		"@@\n" +
		"-old line\n" +
		"+new line\n" +
		"*** Add File: app/__init__.py\n" +
		"+from .handler import Handler\n" +
		"*** Delete File: old.txt\n" +
		"*** Update File: notes.txt\n" +
		"+c\n" +
		"*** End of File\n" +
		"*** End Patch\n```\n"
	p := plan.Plan{Patch: &patch}
	cs, err := e.Changes(&p)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Change{}
	for _, c := range cs {
		got[c.Path] = c
	}
	wantPy := strings.Replace(strings.Replace(codexApp, `os.environ.get(key)`, `os.environ.get(key, "")`, 1),
		"    def put(self, key, value):\n", "    def put(self, key, value):\n        if not key:\n            raise ValueError(\"empty key\")\n", 1)
	checks := []struct {
		path  string
		op    plan.Op
		after string
	}{
		{"app/handler.py", plan.OpUpdate, wantPy},
		{"README.md", plan.OpDelete, ""},
		{"docs/README.md", plan.OpCreate, "# demo\r\nnew line\r\n"},
		{"app/__init__.py", plan.OpCreate, "from .handler import Handler\n"},
		{"old.txt", plan.OpDelete, ""},
		{"notes.txt", plan.OpUpdate, "a\nb\nc"},
	}
	if len(cs) != len(checks) {
		t.Errorf("%d changes, want %d: %+v", len(cs), len(checks), cs)
	}
	for _, c := range checks {
		g, ok := got[c.path]
		if !ok {
			t.Errorf("no change for %s", c.path)
			continue
		}
		if g.Op != c.op || string(g.After) != c.after {
			t.Errorf("%s: %s %q, want %s %q", c.path, g.Op, g.After, c.op, c.after)
		}
	}
}

// TestCodexPatchRefusals: envelopes the engine refuses — a file that is not
// there, a path outside the root, two sections for one file — with a message
// saying why, and nothing changed. Malformed envelopes and chunks that do not
// match are data cases of package edit (edit/testdata/cases/beginpatch-*.txtar).
func TestCodexPatchRefusals(t *testing.T) {
	root := tree(t, map[string]string{"app/handler.py": codexApp})
	e := open(t, root, nil)
	tests := []struct {
		name, patch string
		code        plan.Code
		says        string
	}{
		{"update of a missing file", "*** Begin Patch\n*** Update File: app/nope.py\n@@\n-a\n+b\n*** End Patch\n", plan.ErrNotFound, "does not exist"},
		{"outside the root", "*** Begin Patch\n*** Add File: ../evil.py\n+x\n*** End Patch\n", plan.ErrPathOutsideRoot, ""},
		{"two sections for one file", "*** Begin Patch\n*** Update File: app/handler.py\n@@\n-import os\n+import sys\n*** Update File: app/handler.py\n@@\n-class Handler:\n+class H:\n*** End Patch\n", plan.ErrActionConflict, "two separate sections"},
	}
	before := snapshot(t, root)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plan.Plan{Patch: &tt.patch}
			_, err := e.Changes(&p)
			if plan.CodeOf(err) != tt.code || !strings.Contains(errString(err), tt.says) {
				t.Fatalf("err = %v, want %s saying %q", err, tt.code, tt.says)
			}
		})
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Fatalf("refusals changed files:\n%s", d)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestCodexPatchMoveOntoItself: a `*** Move to:` naming the file's own path is
// no move — the chunks update the file in place (it used to be refused as "is
// changed twice (the patch and the patch)").
func TestCodexPatchMoveOntoItself(t *testing.T) {
	root := tree(t, map[string]string{"app/handler.py": codexApp})
	e := open(t, root, nil)
	patch := "*** Begin Patch\n*** Update File: app/handler.py\n*** Move to: ./app/handler.py\n@@\n-        return value\n+        return value or None\n*** End Patch\n"
	cs, err := e.Changes(&plan.Plan{Patch: &patch})
	if err != nil {
		t.Fatalf("move onto itself: %v", err)
	}
	want := strings.Replace(codexApp, "        return value\n", "        return value or None\n", 1)
	if len(cs) != 1 || cs[0].Path != "app/handler.py" || cs[0].Op != plan.OpUpdate || string(cs[0].After) != want {
		t.Fatalf("changes = %+v, want one update of app/handler.py", cs)
	}
}
