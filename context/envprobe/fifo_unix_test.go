//go:build unix

package envprobe

import (
	"path/filepath"
	"testing"

	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// TestNamedPipePyvenvCfg: a named pipe at a virtualenv's pyvenv.cfg is not
// waited on; the virtualenv is simply not described.
func TestNamedPipePyvenvCfg(t *testing.T) {
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_DEFAULT_ENV", "")
	root := t.TempDir()
	projfstest.Mkfifo(t, filepath.Join(root, ".venv", "pyvenv.cfg"))
	p := New(Options{Files: projfstest.Open(t, root, projfs.Options{})})
	var got string
	projfstest.NoHang(t, "virtualenv", func() { got = p.virtualenv() })
	if got != "none" {
		t.Errorf("virtualenv = %q, want none", got)
	}
}
