package codectx

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
)

// Match is one line that contains the query.
type Match struct {
	Path string `json:"path"` // root-relative, slash-separated
	Line int    `json:"line"` // 1-based
	Text string `json:"text"` // the whole line, without its line ending
}

// SearchOptions tune Search.
type SearchOptions struct {
	// Glob restricts the files searched (doublestar; without a slash it matches
	// base names at any depth); empty = every file.
	Glob string
	// Max bounds the matches returned (the first ones by path, then line); 0 = all.
	Max int
}

// SearchResult is the outcome of a search. Total and Files count every match,
// also those beyond Max.
type SearchResult struct {
	Matches []Match
	Total   int
	Files   int
}

// Search finds the lines that contain query (literal, case-sensitive) in the
// project's text files, in parallel: .gitignore files are respected, the
// DefaultExcludes folders, binary files (any NUL byte), files over MaxFileBytes,
// symlinks and (unless allowed) secret files are skipped. It fails on an empty or
// multi-line query, an invalid glob, or when ctx is done.
func (g *Gatherer) Search(ctx context.Context, query string, o SearchOptions) (SearchResult, error) {
	if query == "" {
		return SearchResult{}, refusal("empty search query")
	}
	if strings.ContainsAny(query, "\r\n") {
		return SearchResult{}, refusal("the search query spans lines: search for one line at a time")
	}
	match, err := globMatcher(o.Glob)
	if err != nil {
		return SearchResult{}, err
	}
	q := []byte(query)
	pool := sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}
	var (
		mu    sync.Mutex
		all   []Match
		files int
	)
	err = g.walk(ctx, func(dir *os.Root, rel, name string) {
		if !match(rel, name) {
			return
		}
		bp := pool.Get().(*[]byte)
		defer pool.Put(bp)
		data, ok := readPooled(dir, name, bp, g.opts.MaxFileBytes)
		if !ok || bytes.IndexByte(data, 0) >= 0 {
			return
		}
		ms := scanFile(data, q, rel)
		if len(ms) == 0 {
			return
		}
		mu.Lock()
		all = append(all, ms...)
		files++
		mu.Unlock()
	})
	if err != nil {
		return SearchResult{}, fmt.Errorf("search project: %w", err)
	}
	slices.SortFunc(all, func(a, b Match) int {
		if c := cmp.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
	res := SearchResult{Matches: all, Total: len(all), Files: files}
	if o.Max > 0 && len(all) > o.Max {
		res.Matches = all[:o.Max:o.Max]
	}
	return res, nil
}

// readPooled reads a whole file into *bp (grown when needed). It reports false
// for files it cannot open or that exceed limit.
func readPooled(dir *os.Root, name string, bp *[]byte, limit int64) ([]byte, bool) {
	f, err := dir.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > limit {
		return nil, false
	}
	need := int(st.Size()) + 1 // +1 so that EOF is seen without growing
	if cap(*bp) < need {
		*bp = make([]byte, 0, need+need/4)
	}
	buf := (*bp)[:cap(*bp)]
	n := 0
	for {
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF || m == 0 && err == nil {
			break
		}
		if err != nil {
			return nil, false
		}
		if n == len(buf) { // the file grew since Stat
			if int64(n) > limit {
				return nil, false
			}
			nb := make([]byte, 2*len(buf))
			copy(nb, buf[:n])
			buf = nb
			*bp = nb[:0]
		}
	}
	return buf[:n], true
}

// scanFile returns one Match per line of data that contains q.
func scanFile(data, q []byte, rel string) []Match {
	var out []Match
	line, counted, pos := 1, 0, 0
	for pos <= len(data) {
		i := bytes.Index(data[pos:], q)
		if i < 0 {
			break
		}
		i += pos
		line += bytes.Count(data[counted:i], []byte{'\n'})
		ls := bytes.LastIndexByte(data[:i], '\n') + 1
		le := bytes.IndexByte(data[i:], '\n')
		if le < 0 {
			le = len(data)
		} else {
			le += i
		}
		text := data[ls:le]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
		out = append(out, Match{Path: rel, Line: line, Text: string(text)})
		counted = le
		pos = le + 1
	}
	return out
}
