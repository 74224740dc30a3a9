package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPatchCommand(t *testing.T) {
	root := cliProject(t)
	diff := "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,4 @@\n def divide(a, b):\n+    if b == 0:\n+        return None\n     return a / b\n"
	code, out, errOut := runEnv(t, nil, diff, "--root", root, "patch", "--check")
	if code != 0 || !strings.Contains(out, "update calc.py (hunks: exact)") || !strings.Contains(out, "nothing written") {
		t.Fatalf("check: exit %d %s %s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); strings.Contains(string(b), "None") {
		t.Fatal("--check wrote")
	}
	code, out, errOut = runEnv(t, nil, diff, "--root", root, "patch", "--json")
	if code != 0 || !strings.Contains(out, `"transaction"`) {
		t.Fatalf("patch: exit %d %s %s", code, out, errOut)
	}
	code, _, errOut = runEnv(t, nil, "--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-def nothing():\n+def x():\n", "--root", root, "patch")
	if code != 1 || !strings.Contains(errOut, "fixplan patch: ERR_PATCH_APPLY_FAILED: hunk 1 of calc.py (@@ -1,1 +1,1 @@) does not apply") ||
		!strings.Contains(errOut, "\n    expected lines:\n      def nothing():\n") || !strings.Contains(errOut, "re-plan") {
		t.Errorf("bad patch: exit %d\n%s", code, errOut)
	}
}
