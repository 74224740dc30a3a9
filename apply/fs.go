package apply

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"

	"fixplan/internal/fsutil"
)

// FS performs every write of a transaction (project files and the journal), so
// tests can fail the k-th operation and check the rollback. Names are relative to
// the project's os.Root, which refuses anything that leads outside it. Writes,
// removals and new folders become durable when their folder is synced: a
// transaction syncs each folder it touched once, before it records the next state.
type FS interface {
	// WriteFile atomically replaces name with data and mode (content fsynced).
	WriteFile(r *os.Root, name string, data []byte, mode fs.FileMode) error
	// Remove removes a file or an empty folder.
	Remove(r *os.Root, name string) error
	// Mkdir creates one folder.
	Mkdir(r *os.Root, name string, mode fs.FileMode) error
	// SyncDir makes the entries of a folder durable.
	SyncDir(r *os.Root, name string) error
}

// Linker is an FS that can also make a hard link (oldname and newname inside
// the root). A transaction keeps the originals of single-link files as links
// when its FS is a Linker, and copies them otherwise.
type Linker interface {
	Link(r *os.Root, oldname, newname string) error
}

// Stager is an FS that can also replace files in three steps, so that a
// transaction writes every new file first, then syncs them all (on a journaling
// filesystem the first sync commits them together and the others find nothing
// left to do), and only then renames each over its target. A transaction whose
// FS is not a Stager, or says it cannot stage, replaces files one by one.
type Stager interface {
	// CanStage reports whether the three steps are available.
	CanStage() bool
	// WriteTemp creates tmp (it must not exist) with data and mode; not synced.
	WriteTemp(r *os.Root, tmp string, data []byte, mode fs.FileMode) error
	// SyncFile fsyncs the content of the file name.
	SyncFile(r *os.Root, name string) error
	// Rename renames oldname over newname.
	Rename(r *os.Root, oldname, newname string) error
}

// OSFS is the real filesystem, confined to the root.
type OSFS struct{}

var (
	_ Linker = OSFS{}
	_ Stager = OSFS{}
)

// CanStage is false on Windows, where files are replaced one by one
// (fsutil's atomic replacement).
func (OSFS) CanStage() bool { return runtime.GOOS != "windows" }

// WriteTemp creates tmp exclusively (never through an existing name or link),
// writes data and sets mode exactly (ignoring the umask).
func (OSFS) WriteTemp(r *os.Root, tmp string, data []byte, mode fs.FileMode) error {
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noPoll, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode.Perm())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = r.Remove(tmp)
	}
	return err
}

// SyncFile fsyncs the file name.
func (OSFS) SyncFile(r *os.Root, name string) error {
	f, err := r.OpenFile(name, os.O_RDONLY|noPoll, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Rename renames oldname over newname.
func (OSFS) Rename(r *os.Root, oldname, newname string) error { return r.Rename(oldname, newname) }

// Link makes newname a hard link to oldname. It is refused on Windows, where
// originals are always copied.
func (OSFS) Link(r *os.Root, oldname, newname string) error {
	if runtime.GOOS == "windows" {
		return errors.ErrUnsupported
	}
	return r.Link(oldname, newname)
}

// WriteFile replaces name atomically (fsutil.ReplaceFileIn).
func (OSFS) WriteFile(r *os.Root, name string, data []byte, mode fs.FileMode) error {
	return fsutil.ReplaceFileIn(r, name, data, mode)
}

// Remove removes name.
func (OSFS) Remove(r *os.Root, name string) error { return r.Remove(name) }

// Mkdir creates name.
func (OSFS) Mkdir(r *os.Root, name string, mode fs.FileMode) error { return r.Mkdir(name, mode) }

// SyncDir fsyncs the folder name.
func (OSFS) SyncDir(r *os.Root, name string) error { return fsutil.SyncDirIn(r, name) }

// readIn reads the file name in the root, like os.Root.ReadFile but opened with
// noPoll (five system calls less per file read).
// MaxFileBytes is the largest file the engine reads to change, preview or
// restore: 64 MiB, sixteen times the largest content a model or a hand edit may
// write (4 MiB).
const MaxFileBytes = 64 << 20

// errTooBig is readIn's refusal of a file over MaxFileBytes.
var errTooBig = errors.New("file too large")

func readIn(r *os.Root, name string) ([]byte, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|noPoll, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The type and size are taken from the open descriptor: a path swapped for a
	// named pipe or device since it was checked, or a sparse file terabytes long
	// that holds 4 KiB on disk, is refused instead of read (or allocated) whole.
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", name, fi.Mode().Type())
	}
	if fi.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s is %d bytes, over the %d MiB fixplan changes or restores: %w", name, fi.Size(), MaxFileBytes>>20, errTooBig)
	}
	b := make([]byte, 0, int(fi.Size())+1) // one byte more, to see the end in the first read
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) > MaxFileBytes {
			return nil, fmt.Errorf("%s grew past the %d MiB fixplan changes or restores while it was read: %w", name, MaxFileBytes>>20, errTooBig)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
	}
}
