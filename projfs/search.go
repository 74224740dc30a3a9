package projfs

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"fixplan/plan"
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
	// Want restricts the files searched further (rel root-relative, name its
	// base name); nil = no further restriction.
	Want func(rel, name string) bool
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
func (r *Root) Search(ctx context.Context, query string, o SearchOptions) (SearchResult, error) {
	s, err := newSearch(query, o)
	if err != nil {
		return SearchResult{}, err
	}
	pool := sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}
	err = r.Walk(ctx, func(dir Dir, rel, name string) {
		if !s.want(rel, name) {
			return
		}
		bp := pool.Get().(*[]byte)
		defer pool.Put(bp)
		if data, ok := dir.ReadFile(name, bp, r.opts.MaxFileBytes); ok {
			s.file(rel, data)
		}
	})
	if err != nil {
		return SearchResult{}, fmt.Errorf("search project: %w", err)
	}
	return s.result(o.Max), nil
}

// Search is Root.Search over the files of the listing: the tree is not
// walked again.
func (t *Tree) Search(ctx context.Context, query string, o SearchOptions) (SearchResult, error) {
	s, err := newSearch(query, o)
	if err != nil {
		return SearchResult{}, err
	}
	if err := t.Scan(ctx, ScanOptions{Want: s.want}, s.file); err != nil {
		return SearchResult{}, fmt.Errorf("search project: %w", err)
	}
	return s.result(o.Max), nil
}

// search is one Search: the files it reads and the matches found so far.
type search struct {
	q       finder
	want    func(rel, name string) bool
	mu      sync.Mutex
	perFile [][]Match
	total   int
}

func newSearch(query string, o SearchOptions) (*search, error) {
	if query == "" {
		return nil, Refuse(plan.ErrInvalidInput, "empty search query")
	}
	if strings.ContainsAny(query, "\r\n") {
		return nil, Refuse(plan.ErrInvalidInput, "the search query spans lines: search for one line at a time")
	}
	match, err := globMatcher(o.Glob)
	if err != nil {
		return nil, err
	}
	want := match
	if o.Want != nil {
		want = func(rel, name string) bool { return match(rel, name) && o.Want(rel, name) }
	}
	return &search{q: newFinder([]byte(query)), want: want}, nil
}

// file searches one file's bytes (a binary file, with a NUL byte, is skipped).
func (s *search) file(rel string, data []byte) {
	if bytes.IndexByte(data, 0) >= 0 {
		return
	}
	ms := scanFile(data, s.q, rel)
	if len(ms) == 0 {
		return
	}
	s.mu.Lock()
	s.perFile = append(s.perFile, ms)
	s.total += len(ms)
	s.mu.Unlock()
}

// result is every match, by path then line, at most max of them (0: all).
func (s *search) result(max int) SearchResult {
	// each file's matches are in line order already: sort the files by path
	slices.SortFunc(s.perFile, func(a, b []Match) int { return cmp.Compare(a[0].Path, b[0].Path) })
	all := make([]Match, 0, s.total)
	for _, ms := range s.perFile {
		all = append(all, ms...)
	}
	res := SearchResult{Matches: all, Total: s.total, Files: len(s.perFile)}
	if max > 0 && len(all) > max {
		res.Matches = all[:max:max]
	}
	return res
}

// Literals finds several literals at once in a file's bytes, line by line, as
// Search finds its one (literal, case-sensitive, CR of a CRLF line dropped).
type Literals []finder

// NewLiterals prepares the non-empty literals qs (in order; an empty one
// never matches).
func NewLiterals(qs []string) Literals {
	l := make(Literals, len(qs))
	for i, q := range qs {
		if q != "" {
			l[i] = newFinder([]byte(q))
		}
	}
	return l
}

// Lines returns, for each literal i, the lines of data that hold it (in line
// order, each a Match with path rel), nil when data holds none.
func (l Literals) Lines(rel string, data []byte) [][]Match {
	var out [][]Match
	for i, f := range l {
		if len(f.q) == 0 {
			continue
		}
		if ms := scanFile(data, f, rel); len(ms) > 0 {
			if out == nil {
				out = make([][]Match, len(l))
			}
			out[i] = ms
		}
	}
	return out
}

// finder finds a literal by scanning (memchr-style, SIMD) for its rarest byte,
// then comparing the whole literal; for common first bytes that is several times
// faster than bytes.Index.
type finder struct {
	q    []byte
	rare int  // offset of the rarest byte in q
	rb   byte // q[rare]
}

func newFinder(q []byte) finder {
	f := finder{q: q}
	best := 256
	for i, c := range q {
		if r := byteRank(c); r < best {
			best, f.rare = r, i
		}
	}
	f.rb = q[f.rare]
	return f
}

// index returns the offset of the first occurrence of f.q in data, or -1.
func (f finder) index(data []byte) int {
	n := len(f.q)
	if n == 1 {
		return bytes.IndexByte(data, f.rb)
	}
	pos, fails := 0, 0
	for pos+n <= len(data) {
		i := bytes.IndexByte(data[pos+f.rare:len(data)-n+f.rare+1], f.rb)
		if i < 0 {
			return -1
		}
		start := pos + i
		if bytes.Equal(data[start:start+n], f.q) {
			return start
		}
		pos = start + 1
		// the "rare" byte is common here (over one false candidate per 32
		// bytes): bytes.Index's own algorithm does better on such data
		if fails++; fails > 8 && fails*32 > pos {
			if j := bytes.Index(data[pos:], f.q); j >= 0 {
				return pos + j
			}
			return -1
		}
	}
	return -1
}

// byteOrder lists ASCII bytes from the most to the least common in source code
// and logs (measured on Go's tree, with '_', ';' and '-' moved up for other
// languages and hex-heavy 'x' moved down).
const byteOrder = " et\trn\naisolc0,fud.p()/m_g1h=;2\":bySv{}-ATR46\\OEI3CPkxMwXDV8LFN[]5B97U*G!&+W<z%'>|qQKYj`$ZJ#^?@~\r"

// byteRank ranks how common a byte is (higher = more common); the finder scans
// for the lowest-ranked byte of the query.
func byteRank(c byte) int {
	if i := strings.IndexByte(byteOrder, c); i >= 0 {
		return 255 - i
	}
	if c >= 0x80 {
		return 40 // UTF-8 text outside ASCII
	}
	return 0 // control bytes
}

// scanFile returns one Match per line of data that contains q.
func scanFile(data []byte, q finder, rel string) []Match {
	var out []Match
	line, counted, pos := 1, 0, 0
	for pos <= len(data) {
		i := q.index(data[pos:])
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
