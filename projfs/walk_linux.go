//go:build linux

package projfs

import (
	"errors"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// openTopFunc opens the root for a walk; on Linux it uses raw directory file
// descriptors (openat with O_NOFOLLOW, one component at a time), which is what
// makes search as fast as ripgrep.
func openTopFunc(root string) (Dir, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, err
	}
	return fdDir(fd), nil
}

// fdDir is an open directory file descriptor.
type fdDir int

// retry repeats a system call interrupted by a signal (Go's preemption sends them).
func retry(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if !errors.Is(err, syscall.EINTR) {
			return n, err
		}
	}
}

func (d fdDir) list() ([]dirent, error) {
	var out []dirent
	buf := make([]byte, 32<<10)
	for {
		n, err := retry(func() (int, error) { return syscall.ReadDirent(int(d), buf) })
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		b := buf[:n]
		for len(b) >= 19 {
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ := b[18]
			name := b[19:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			b = b[reclen:]
			s := string(name)
			if s == "." || s == ".." {
				continue
			}
			e := dirent{name: s}
			switch typ {
			case syscall.DT_DIR:
				e.dir = true
			case syscall.DT_REG:
				e.file = true
			case syscall.DT_UNKNOWN:
				if st, ok := d.lstat(s); ok {
					e.dir = st.Mode&syscall.S_IFMT == syscall.S_IFDIR
					e.file = st.Mode&syscall.S_IFMT == syscall.S_IFREG
				}
			}
			out = append(out, e)
		}
	}
}

func (d fdDir) sub(name string) (Dir, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Openat(int(d), name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, err
	}
	return fdDir(fd), nil
}

// noOpenat2 is set once openat2 has failed as unsupported (a kernel before
// 5.6, or a sandbox that filters it); subPath then opens one component at a
// time.
var noOpenat2 atomic.Bool

// subPath opens the folder rel (slash-separated, below d) with one openat2
// that resolves it beneath d and refuses every symlink on the way, as the
// walk's one-component-at-a-time opens do.
func (d fdDir) subPath(rel string) (Dir, error) {
	if !noOpenat2.Load() {
		how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
		fd, err := retry(func() (int, error) { return unix.Openat2(int(d), rel, &how) })
		if err == nil {
			return fdDir(fd), nil
		}
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return nil, err
		}
		noOpenat2.Store(true)
	}
	return subPathByComponent(d, rel)
}

// ReadFile reads name when it has one hard link (no policy here to ask).
func (d fdDir) ReadFile(name string, bp *[]byte, limit int64) ([]byte, bool) {
	data, links, ok := d.read(name, bp, limit)
	return data, ok && links <= 1
}

func (d fdDir) read(name string, bp *[]byte, limit int64) ([]byte, uint64, bool) {
	fd, err := retry(func() (int, error) {
		return syscall.Openat(int(d), name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, 0, false
	}
	defer syscall.Close(fd)
	// the type and size seen on the descriptor, not on the listing: a file
	// swapped for a FIFO or a device since is not read
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > limit {
		return nil, 0, false
	}
	if cap(*bp) < 64<<10 {
		*bp = make([]byte, 0, 64<<10)
	}
	buf := (*bp)[:cap(*bp)]
	n := 0
	for {
		m, err := retry(func() (int, error) { return syscall.Read(fd, buf[n:]) })
		if err != nil { // EISDIR, EAGAIN (a FIFO), EIO...
			return nil, 0, false
		}
		if m == 0 {
			break
		}
		n += m
		if int64(n) > limit {
			return nil, 0, false
		}
		if n == len(buf) {
			nb := make([]byte, 2*len(buf))
			copy(nb, buf[:n])
			buf = nb
			*bp = nb[:0]
		}
	}
	return buf[:n], uint64(st.Nlink), true
}

// ModTime stats name without following a symlink (fstatat opens nothing, so a
// FIFO or a device is not touched).
func (d fdDir) ModTime(name string) (time.Time, bool) {
	var st unix.Stat_t
	if unix.Fstatat(int(d), name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return time.Time{}, false
	}
	return time.Unix(st.Mtim.Unix()), true
}

// lstat stats name without following a symlink (a symlink reports its own
// type). The O_PATH descriptor only names the file: nothing is opened for
// reading, so a FIFO or a device is not touched.
func (d fdDir) lstat(name string) (syscall.Stat_t, bool) {
	var st syscall.Stat_t
	fd, err := retry(func() (int, error) {
		return syscall.Openat(int(d), name, unix.O_PATH|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return st, false
	}
	defer syscall.Close(fd)
	return st, syscall.Fstat(fd, &st) == nil
}

func (d fdDir) close() { syscall.Close(int(d)) }
