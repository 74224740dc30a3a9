package projfs

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestReadBoundedSmallFileSmallBuffer: reading a small file allocates about its
// size, not a whole read chunk (1 MiB) — every ReadText of a definition's or a
// rule's file took a chunk, ~280 MB of a gather's 328 MB on go-cmp.
func TestReadBoundedSmallFileSmallBuffer(t *testing.T) {
	p := filepath.Join(t.TempDir(), "small.go")
	want := bytes.Repeat([]byte("x = 1\n"), 20)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	const reads = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range reads {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadBounded(f, 1<<30, "small.go")
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("ReadBounded = %q, %v", got, err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / reads; per > 64<<10 {
		t.Fatalf("reading a %d-byte file allocated %d bytes a read, want about its size", len(want), per)
	}
}

// TestReadBoundedFileThatGrew: a file longer than its size said (it grew, or a
// reader that cannot say) is still read whole, within the limit.
func TestReadBoundedFileThatGrew(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789abcdef"), 200_000) // 3.2 MB: several chunks
	got, err := ReadBounded(bytes.NewReader(want), 1<<30, "big")
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadBounded of %d bytes = %d bytes, %v", len(want), len(got), err)
	}
	if _, err := ReadBounded(bytes.NewReader(want), 1<<20, "big"); !IsTooLong(err) {
		t.Fatalf("over the limit: %v, want the too-big refusal", err)
	}
}
