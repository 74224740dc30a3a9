package projfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"fixplan/plan"
)

// The one reader. Every file fixplan reads from a project folder (the files
// shown to the model, the rules files, a virtualenv's pyvenv.cfg, the project
// memory, a configured or attached log, git's own files) is opened by OpenIn or
// OpenPath and read by ReadBounded:
//
//   - the open never blocks: it is non-blocking (O_NONBLOCK on Unix), so a named
//     pipe or a device in a file's place cannot hang it;
//   - the type is checked on the open descriptor (fstat), not on the name, so a
//     file swapped after a check is still seen for what it is: anything but a
//     regular file is refused with the reason;
//   - the read is bounded in bytes (the caller's limit) and in time
//     (MaxReadTime, checked between chunks).

// MaxReadTime bounds the time ReadBounded spends reading one file (a slow or
// hung network file system): past it the read stops with a refusal.
const MaxReadTime = 10 * time.Second

// readChunk is how much ReadBounded reads between two looks at the clock.
const readChunk = 1 << 20

// OpenIn opens name (an os.Root path) for reading through fsys, without
// blocking, and returns the file when it is a regular file. shown is the name
// used in the refusal ("the configured log \"app.log\"").
func OpenIn(fsys *os.Root, name, shown string) (*os.File, fs.FileInfo, error) {
	f, err := fsys.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, Refuse(IOCode(err), "cannot open %s: %s", shown, PathErrReason(err))
	}
	return regularOnly(f, shown)
}

// OpenPath is OpenIn for a path outside any project (a log the user attached).
func OpenPath(path, shown string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, Refuse(IOCode(err), "cannot open %s: %s", shown, PathErrReason(err))
	}
	return regularOnly(f, shown)
}

// regularOnly stats the open f and keeps it only when it is a regular file.
func regularOnly(f *os.File, shown string) (*os.File, fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, Refuse(plan.ErrIO, "cannot stat %s: %s", shown, PathErrReason(err))
	}
	if err := NotRegular(shown, st.Mode()); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// NotRegular refuses a file whose mode m is not a regular file's, saying what
// it is; nil for a regular file.
func NotRegular(shown string, m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	return Refuse(plan.ErrInvalidInput, "%s is %s, not a regular file; fixplan reads only regular files", shown, KindOf(m))
}

// KindOf words the type of a file mode ("a named pipe (FIFO)", "a directory").
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// errTooLong is ReadBounded's refusal of a file longer than its limit.
var errTooLong = errors.New("longer than the limit")

// ReadBounded reads r (a file OpenIn or OpenPath opened) to its end: at most
// limit bytes (more is a refusal wrapping errTooLong, IsTooLong) and for at
// most MaxReadTime. shown names the file in the refusals.
func ReadBounded(r io.Reader, limit int64, shown string) ([]byte, error) {
	start := time.Now()
	var buf []byte
	// A file says its size: the buffer starts at that size (plus one byte to see the
	// end), so reading a small file does not cost a whole chunk. A file that grew
	// since its size was taken is read on in chunks.
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() >= 0 {
			buf = make([]byte, 0, int(min(fi.Size()+1, limit+1, int64(readChunk))))
		}
	}
	for {
		if int64(len(buf)) > limit {
			return nil, &plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("%s is too big (over %d bytes)", shown, limit),
				Hint: hintFor(plan.ErrInvalidInput), Err: errTooLong}
		}
		if time.Since(start) > MaxReadTime {
			return nil, Refuse(plan.ErrIO, "reading %s took over %s; it was stopped (a slow or stalled file system?)", shown, MaxReadTime)
		}
		n := min(int64(readChunk), limit+1-int64(len(buf)))
		if room := int64(cap(buf) - len(buf)); room > 0 && room < n {
			n = room
		}
		if len(buf)+int(n) > cap(buf) {
			nb := make([]byte, len(buf), max(2*cap(buf), len(buf)+int(n)))
			copy(nb, buf)
			buf = nb
		}
		m, err := io.ReadFull(r, buf[len(buf):len(buf)+int(n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return buf, nil
		}
		if err != nil {
			return nil, Refuse(plan.ErrIO, "cannot read %s: %s", shown, PathErrReason(err))
		}
	}
}

// IsTooLong reports whether err is ReadBounded's refusal of a file over its limit.
func IsTooLong(err error) bool { return errors.Is(err, errTooLong) }

// MaxScanBytes bounds the bytes one request reads from a file too big to hold
// (a line range of a log of gigabytes, or of a sparse file terabytes long
// that holds 4 KiB on disk): past it the file is not read further, whatever
// the range asked.
const MaxScanBytes = 256 << 20

// Scan reads at most a cap of bytes from a file, for at most MaxReadTime, then
// reports the end of the file: Cut (the cap) or Slow (the time) says that
// the file went on.
type Scan struct {
	r     io.Reader
	left  int64
	start time.Time
	Cut   bool // stopped at the cap: the rest of the file was not read
	Slow  bool // stopped at MaxReadTime
}

// NewScan reads r up to max bytes.
func NewScan(r io.Reader, max int64) *Scan { return &Scan{r: r, left: max, start: time.Now()} }

func (s *Scan) Read(p []byte) (int, error) {
	if s.left <= 0 {
		s.Cut = true
		return 0, io.EOF
	}
	if time.Since(s.start) > MaxReadTime {
		s.Slow = true
		return 0, io.EOF
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.r.Read(p)
	s.left -= int64(n)
	return n, err
}
