package verify

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// memoryScratch returns /dev/shm when it is a writable tmpfs with room for a
// project of need bytes (see maxMemoryProject) and the machine has the memory
// available.
func memoryScratch(need int64) (string, bool) {
	const dir = "/dev/shm"
	if need > maxMemoryProject {
		return "", false
	}
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil || st.Type != unix.TMPFS_MAGIC || unix.Access(dir, unix.W_OK) != nil {
		return "", false
	}
	want := 8*need + memoryMargin
	if int64(st.Bavail)*int64(st.Bsize) < want || memAvailable() < want {
		return "", false
	}
	return dir, true
}

// memAvailable is MemAvailable from /proc/meminfo in bytes (0 when unknown).
func memAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
