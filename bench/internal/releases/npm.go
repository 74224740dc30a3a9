package releases

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// NpmPairs are npm package releases (older, newer) for benchmarks that need
// languages other than Go: real JavaScript/TypeScript release diffs, and Python
// ones (node-gyp ships gyp, which is written in Python).
var NpmPairs = [][2]string{
	{"semver@7.5.4", "semver@7.6.0"},
	{"commander@11.0.0", "commander@11.1.0"},
	{"node-gyp@10.0.1", "node-gyp@10.1.0"},
}

// NpmDir fetches the npm package spec ("name@version") with `npm pack` into a
// cache folder (once) and returns the folder of its files. It needs npm on PATH
// and the registry reachable.
func NpmDir(spec string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dst := filepath.Join(cache, "fixplan-bench", "npm", strings.NewReplacer("/", "_", "@", "_").Replace(spec))
	if fi, err := os.Stat(filepath.Join(dst, "package")); err == nil && fi.IsDir() {
		return filepath.Join(dst, "package"), nil
	}
	tmp, err := os.MkdirTemp("", "npm-pack-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("npm", "pack", spec, "--silent", "--pack-destination", tmp)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s: %w (install npm; is the registry reachable?)", spec, err)
	}
	lines := strings.Fields(strings.TrimSpace(string(out)))
	if len(lines) == 0 {
		return "", fmt.Errorf("npm pack %s printed no tarball name", spec)
	}
	tgz := filepath.Join(tmp, lines[len(lines)-1])
	part := dst + ".part"
	os.RemoveAll(part)
	if err := untgz(tgz, part); err != nil {
		return "", fmt.Errorf("unpack %s: %w", spec, err)
	}
	os.RemoveAll(dst)
	if err := os.Rename(part, dst); err != nil {
		return "", err
	}
	return filepath.Join(dst, "package"), nil
}

// untgz extracts the regular files of a .tgz into dst; names that would leave
// dst are refused.
func untgz(tgz, dst string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if !filepath.IsLocal(h.Name) {
			return fmt.Errorf("the archive names %q, outside its folder", h.Name)
		}
		p := filepath.Join(dst, filepath.FromSlash(h.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		b, err := io.ReadAll(io.LimitReader(tr, 64<<20))
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
}
