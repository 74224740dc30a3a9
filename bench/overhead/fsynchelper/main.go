// Command fsynchelper makes what `git apply` wrote as durable as fixplan makes a
// transaction, so the overhead benchmark compares like with like: it reads a
// unified diff and fsyncs, inside DIR, every file the diff leaves in place and,
// once each, every folder holding a touched path. Usage:
// fsynchelper -C DIR PATCH
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	dir := flag.String("C", ".", "the folder the patch was applied in")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fsynchelper -C DIR PATCH")
		os.Exit(2)
	}
	files, err := touched(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fsynchelper:", err)
		os.Exit(1)
	}
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[path.Dir(f)] = true
		if err := syncPath(filepath.Join(*dir, filepath.FromSlash(f))); err != nil && !os.IsNotExist(err) {
			fmt.Fprintln(os.Stderr, "fsynchelper:", err)
			os.Exit(1)
		}
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if err := syncPath(filepath.Join(*dir, filepath.FromSlash(d))); err != nil && !os.IsNotExist(err) {
			fmt.Fprintln(os.Stderr, "fsynchelper:", err)
			os.Exit(1)
		}
	}
}

// touched lists the paths named by the patch's "+++ b/…" and "--- a/…" lines.
func touched(patch string) ([]string, error) {
	f, err := os.Open(patch)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		var p string
		switch {
		case strings.HasPrefix(l, "+++ b/"):
			p = l[len("+++ b/"):]
		case strings.HasPrefix(l, "--- a/"):
			p = l[len("--- a/"):]
		default:
			continue
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, sc.Err()
}

func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
