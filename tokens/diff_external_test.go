//go:build tokensdiff

// The differential checks that need what a CI machine does not have — a
// folder of git repositories (-mirrors) or OpenAI's own tokenizer (-oracle):
// go test -tags tokensdiff -run 'TestCountMirrors|TestCountOracle' ./tokens/ -args -mirrors DIR -oracle CMD

package tokens

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var (
	mirrors   = flag.String("mirrors", "", "a folder of bare git repositories whose files TestCountMirrors counts with both tokenizers and the library's")
	mirrorCap = flag.Int("mirror-bytes", 64<<20, "at most this many bytes of the mirrors' files")
)

// With -mirrors, every file at HEAD of every bare repository in the folder (up
// to -mirror-bytes, shared out over the repositories) counts as the library
// counts it.
func TestCountMirrors(t *testing.T) {
	if *mirrors == "" {
		t.Fatal("name a folder of bare git repositories with -mirrors DIR")
	}
	// a bare repository is the folder itself or its repo/ (owner+name/repo)
	var repos []string
	dirs, _ := filepath.Glob(filepath.Join(*mirrors, "*"))
	for _, d := range dirs {
		for _, p := range []string{d, filepath.Join(d, "repo")} {
			if _, err := os.Stat(filepath.Join(p, "HEAD")); err == nil {
				repos = append(repos, p)
			}
		}
	}
	if len(repos) == 0 {
		t.Fatalf("no bare repositories in %s", *mirrors)
	}
	total, files, bad := 0, 0, 0
	for k, repo := range repos {
		budget := (*mirrorCap - total) / (len(repos) - k)
		texts := repoFiles(t, repo, budget)
		n := 0
		for _, s := range texts {
			n += len(s)
			for _, e := range encodings() {
				if msg := e.mismatch(s); msg != "" {
					bad++
					if bad <= 20 {
						t.Errorf("%s: a file of %d bytes: %s", repoName(repo), len(s), msg)
					}
				}
			}
		}
		total += n
		files += len(texts)
		t.Logf("%s: %d files, %d bytes", repoName(repo), len(texts), n)
	}
	t.Logf("%d repositories, %d files, %d bytes, %d mismatches", len(repos), files, total, bad)
}

// repoFiles are the contents of a bare repository's files at HEAD, smallest
// first, up to budget bytes (files over 2 MB left out).
func repoFiles(t *testing.T, repo string, budget int) []string {
	out, err := exec.Command("git", "-C", repo, "ls-tree", "-r", "-l", "HEAD").Output()
	if err != nil {
		t.Logf("%s: %v", repo, err)
		return nil
	}
	type blob struct {
		id   string
		size int
	}
	var blobs []blob
	for line := range strings.Lines(string(out)) {
		meta, _, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" {
			continue
		}
		size, err := strconv.Atoi(f[3])
		if err != nil || size == 0 || size > 2<<20 {
			continue
		}
		blobs = append(blobs, blob{f[2], size})
	}
	// a spread of sizes: every other file by size, from the smallest, until the budget
	slices.SortFunc(blobs, func(a, b blob) int { return a.size - b.size })
	var ids []string
	sum := 0
	for i := 0; i < len(blobs); i++ {
		b := blobs[(i*7919)%len(blobs)] // a stride through the sizes, not only the small ones
		if sum+b.size > budget {
			continue
		}
		sum += b.size
		ids = append(ids, b.id)
	}
	cmd := exec.Command("git", "-C", repo, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: cat-file: %v", repo, err)
	}
	var texts []string
	r := bufio.NewReader(bytes.NewReader(data))
	for range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: cat-file: %v", repo, err)
		}
		f := strings.Fields(header)
		size, _ := strconv.Atoi(f[len(f)-1])
		body := make([]byte, size+1)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("%s: cat-file: %v", repo, err)
		}
		texts = append(texts, string(body[:size]))
	}
	return texts
}

var oracle = flag.String("oracle", "", "a command that reads lines of JSON {enc, b64} and writes each text's count by OpenAI's own tokenizer (TestCountOracle)")

// With -oracle, the counts of the adversarial and random texts (valid UTF-8)
// are compared with OpenAI's tokenizer's, and so are the library's: where
// the two differ, which one is the model's.
func TestCountOracle(t *testing.T) {
	if *oracle == "" {
		t.Fatal("name the command that runs OpenAI's tokenizer with -oracle CMD")
	}
	texts := adversarialTexts(5)
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		texts = append(texts, randomText(rng, 1+rng.IntN(64)))
	}
	texts = slices.DeleteFunc(texts, func(s string) bool { return !utf8.ValidString(s) })
	for _, e := range encodings() {
		var in strings.Builder
		for _, s := range texts {
			fmt.Fprintf(&in, "{\"enc\":%q,\"b64\":%q}\n", e.name, base64.StdEncoding.EncodeToString([]byte(s)))
		}
		cmd := exec.Command("sh", "-c", *oracle)
		cmd.Stdin = strings.NewReader(in.String())
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		counts := strings.Fields(string(out))
		if len(counts) != len(texts) {
			t.Fatalf("%d counts for %d texts", len(counts), len(texts))
		}
		oursOff, libOff, oursLow := 0, 0, 0
		for i, s := range texts {
			want, _ := strconv.Atoi(counts[i])
			got := e.counter.Count(s)
			lib, _ := e.lib.Count(s)
			if got != want {
				oursOff++
				if got < want {
					oursLow++
				}
				if oursOff <= 10 {
					t.Errorf("%s %q: %d tokens, OpenAI's %d, the library's %d", e.name, clipQ(s), got, want, lib)
				}
			}
			if lib != want {
				libOff++
			}
		}
		t.Logf("%s: %d texts; ours differs from OpenAI's on %d (%d lower), the library's on %d", e.name, len(texts), oursOff, oursLow, libOff)
	}
}

func repoName(p string) string {
	if filepath.Base(p) == "repo" {
		p = filepath.Dir(p)
	}
	return filepath.Base(p)
}
