//go:build unix

package projfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// TestReadersRefuseNamedPipes: a named pipe where a file is expected is refused
// by every reader, at once and with the reason, instead of blocking in open(2);
// the walk (search) skips it and still finds the other files.
func TestReadersRefuseNamedPipes(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"ok.txt": "needle\n"})
	projfstest.Mkfifo(t, filepath.Join(root, "pipe.txt"))
	projfstest.Mkfifo(t, filepath.Join(root, ".fixplan", "project.json"))
	r := projfstest.Open(t, root, projfs.Options{})
	const why = `is a named pipe (FIFO), not a regular file; fixplan reads only regular files`
	readers := map[string]func() error{
		"Open":     func() error { f, err := r.Open("pipe.txt"); closeIf(f); return err },
		"ReadText": func() error { _, err := r.ReadText("pipe.txt"); return err },
		"ReadRaw":  func() error { _, err := r.ReadRaw("pipe.txt"); return err },
		"ReadHead": func() error { _, err := r.ReadHead("pipe.txt", 100); return err },
		"OpenRooted": func() error {
			f, _, err := r.OpenRooted(".fixplan/project.json", "the memory file")
			if f != nil {
				f.Close()
			}
			return err
		},
		"OpenPath": func() error {
			f, _, err := projfs.OpenPath(filepath.Join(root, "pipe.txt"), "the attached log")
			if f != nil {
				f.Close()
			}
			return err
		},
	}
	for name, read := range readers {
		t.Run(name, func(t *testing.T) {
			var err error
			projfstest.NoHang(t, name, func() { err = read() })
			if err == nil || !strings.Contains(projfs.Reason(err), why) {
				t.Fatalf("%s of a named pipe: %v, want a refusal saying it %s", name, err, why)
			}
		})
	}
	t.Run("Search", func(t *testing.T) {
		var res projfs.SearchResult
		var err error
		projfstest.NoHang(t, "Search", func() { res, err = r.Search(context.Background(), "needle", projfs.SearchOptions{}) })
		if err != nil || res.Total != 1 || res.Matches[0].Path != "ok.txt" {
			t.Fatalf("search past a named pipe = %+v, %v; want the one match in ok.txt", res, err)
		}
	})
}

// TestReadBoundedCaps: the one reader stops at its limit, whatever the file's
// length, and says so.
func TestReadBoundedCaps(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil { // 1 TiB, nothing on disk
		t.Fatal(err)
	}
	f.Close()
	g, _, err := projfs.OpenPath(p, "the sparse file")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	data, err := projfs.ReadBounded(g, 1<<20, "the sparse file")
	if !projfs.IsTooLong(err) || data != nil || !strings.Contains(projfs.Reason(err), "the sparse file is too big (over 1048576 bytes)") {
		t.Fatalf("ReadBounded of 1 TiB with a 1 MiB limit = %d bytes, %v", len(data), err)
	}
}

func closeIf(f *projfs.File) {
	if f != nil {
		f.Close()
	}
}
