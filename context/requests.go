package codectx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"fixplan/context/section"
	"fixplan/plan"
	"fixplan/projfs"
	"fixplan/redact"
)

// searchContextLines is the number of lines shown around each search match.
const searchContextLines = 2

// Fulfil answers one context request; it never returns an error: a request that
// cannot be fulfilled gets OK=false and Error = a reason the model can read (path
// outside root, missing file, binary, too big, secret file, unknown type, ...).
// OK results carry the exact text the model receives, starting with a label line
// that repeats the request.
func (g *Gatherer) Fulfil(ctx context.Context, in plan.ProblemInput, req plan.ContextRequest) plan.ContextResult {
	res := plan.ContextResult{Request: req}
	var (
		text string
		seen []plan.SeenFile
		n    int // Redactions: files and logs are redacted whole before they are cut
		err  error
	)
	switch req.Type {
	case plan.ReqReadFile:
		text, seen, n, err = g.fulfilRead(req)
	case plan.ReqSearch:
		text, n, err = g.fulfilSearch(ctx, in, req)
	case plan.ReqLogs:
		text, n, err = g.fulfilLogs(in, req)
	case plan.ReqEnv:
		text, n = redact.Text("env\n" + g.Env(ctx))
	default:
		err = projfs.Refuse(plan.ErrInvalidInput, "unknown request type %q (use read_file, search, logs or env)", req.Type)
	}
	if err == nil && ctx.Err() != nil {
		err = projfs.Refuse(plan.ErrCancelled, "the request was cancelled")
	}
	if err != nil {
		res.Error = projfs.Reason(err)
		return res
	}
	res.OK = true
	res.Text = section.Cap(text, g.opts.MaxResultBytes)
	if res.Text != text { // the model sees only part of the file
		for i := range seen {
			seen[i].Whole = false
		}
	}
	res.Redactions = n
	res.Seen = seen
	return res
}

// Search finds the lines that contain query (literal, case-sensitive) in the
// project's text files (see projfs.Root.Search: .gitignore respected, excluded
// folders, binaries, files over MaxFileBytes, symlinks and secret files
// skipped). It fails on an empty or multi-line query, an invalid glob, or when
// ctx is done.
func (g *Gatherer) Search(ctx context.Context, query string, o projfs.SearchOptions) (projfs.SearchResult, error) {
	return g.files.Search(ctx, query, o)
}

// MayQuote reports whether lines of rel may be shown to the model (nil), or why
// not: the same checks as a read_file (confinement, .git/.hg/.fixplan, secret
// files unless allowed, hard links git does not track). The session uses it
// before sending a patch failure that quotes the file's lines back to the model.
func (g *Gatherer) MayQuote(rel string) error {
	f, err := g.files.Open(rel)
	if err != nil {
		return err
	}
	return f.Close()
}

// ReadRange reads lines [start,end] (1-based, inclusive; 0 = from the first / to
// the last line) of a confined text file and returns them numbered, with a label
// line. Ranges are clamped to the file. The file is redacted whole before the
// range is cut out of it; a range of a file over MaxFileBytes is streamed (and
// redacted with the key blocks it may start inside), a whole such file is
// refused. It fails (with a reason the model can read) on paths outside the root,
// .git/, secret files, unrelated hard links, missing or binary files and a start
// beyond the end of the file.
//
// The label and the SeenFile carry the path as asked (cleaned), also when it is a
// symlink to another file of the project: that is the path the model will edit.
func (g *Gatherer) ReadRange(path string, start, end int) (string, plan.SeenFile, error) {
	text, seen, _, err := g.readRange(path, start, end)
	return text, seen, err
}

// readRange is ReadRange that also returns the number of redactions in the range.
func (g *Gatherer) readRange(path string, start, end int) (string, plan.SeenFile, int, error) {
	f, err := g.files.Open(path)
	if err != nil {
		return "", plan.SeenFile{}, 0, err
	}
	defer f.Close()
	clean, real, size := f.Clean, f.Real, f.Size
	if size > g.opts.MaxFileBytes {
		if start < 1 && end < 1 {
			return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrInvalidInput, "file %q is too big to read whole (%d bytes, limit %d): ask for a line range (start_line, end_line) or search it", clean, size, g.opts.MaxFileBytes)
		}
		return g.readStreamed(f, clean, real, start, end)
	}
	ft, err := g.files.TextOf(f)
	if err != nil {
		return "", plan.SeenFile{}, 0, err
	}
	lines := ft.Lines
	total := len(lines)
	if start < 1 {
		start = 1
	}
	if end < 1 || end > total {
		end = total
	}
	if start > total {
		return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrInvalidInput, "file %q has only %d lines; start_line %d is past its end", clean, total, start)
	}
	if start > end {
		return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrInvalidInput, "start_line %d is after end_line %d", start, end)
	}
	label := fmt.Sprintf("read_file %s lines %d-%d of %d\n", clean, start, end, total)
	return label + section.Numbered(lines, start, end), plan.SeenFile{Path: clean, Whole: start == 1 && end == total}, ft.Red.In(start, end), nil
}

// readStreamed is readRange for a file over MaxFileBytes (f is open, clean is
// the path as asked, real the file's root-relative path).
func (g *Gatherer) readStreamed(f io.Reader, clean, real string, start, end int) (string, plan.SeenFile, int, error) {
	if start > 0 && end > 0 && start > end {
		return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrInvalidInput, "start_line %d is after end_line %d", start, end)
	}
	// the bytes read are bounded whatever the range: a sparse file terabytes
	// long would otherwise be read to its end to count its lines
	scan := projfs.NewScan(f, g.opts.MaxScanBytes)
	sr, err := redact.ReadRange(scan, real, start, end, g.opts.MaxFileBytes)
	stopped := ""
	switch {
	case scan.Cut:
		stopped = fmt.Sprintf("only its first %d bytes were read: fixplan reads at most that much of a file per request", g.opts.MaxScanBytes)
	case scan.Slow:
		stopped = fmt.Sprintf("reading it was stopped after %s", projfs.MaxReadTime)
	}
	switch {
	case errors.Is(err, redact.ErrBinary):
		return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrBinaryContent, "file %q is binary, not text", clean)
	case errors.Is(err, redact.ErrPastEnd) && stopped != "":
		return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrInvalidInput, "file %q: start_line %d is past the %d lines that could be read (%s); search it, or ask for an earlier range", clean, start, sr.Total, stopped)
	case errors.Is(err, redact.ErrPastEnd):
		return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrInvalidInput, "file %q has only %d lines; start_line %d is past its end", clean, sr.Total, start)
	case err != nil:
		return "", plan.SeenFile{}, 0, projfs.Refuse(plan.ErrIO, "cannot read %q: %s", clean, projfs.PathErrReason(err))
	}
	label := fmt.Sprintf("read_file %s lines %d-%d of %d\n", clean, sr.Start, sr.End, sr.Total)
	if stopped != "" {
		// the count of lines stops where the reading stopped; the last line read may be partial
		if sr.Cut {
			stopped = fmt.Sprintf("the range was cut at %d bytes; ask for the lines after %d. Of the file, %s", g.opts.MaxFileBytes, sr.End, stopped)
		}
		label = fmt.Sprintf("read_file %s lines %d-%d of at least %d (%s; the last line counted may be partial)\n", clean, sr.Start, sr.End, sr.Total, stopped)
		return label + sr.Text, plan.SeenFile{Path: clean}, sr.Redactions, nil
	}
	if sr.Cut {
		label = fmt.Sprintf("read_file %s lines %d-%d of %d (the range was cut at %d bytes; ask for the lines after %d)\n",
			clean, sr.Start, sr.End, sr.Total, g.opts.MaxFileBytes, sr.End)
	}
	return label + sr.Text, plan.SeenFile{Path: clean, Whole: sr.Start == 1 && sr.End == sr.Total}, sr.Redactions, nil
}

func (g *Gatherer) fulfilRead(req plan.ContextRequest) (string, []plan.SeenFile, int, error) {
	if req.Path == nil || *req.Path == "" {
		return "", nil, 0, projfs.Refuse(plan.ErrInvalidInput, "read_file needs a path relative to the project root")
	}
	start, end := 0, 0
	if req.StartLine != nil {
		start = *req.StartLine
	}
	if req.EndLine != nil {
		end = *req.EndLine
	}
	text, seen, n, err := g.readRange(*req.Path, start, end)
	if err != nil {
		return "", nil, 0, err
	}
	return text, []plan.SeenFile{seen}, n, nil
}

func (g *Gatherer) fulfilSearch(ctx context.Context, in plan.ProblemInput, req plan.ContextRequest) (string, int, error) {
	if req.Query == nil || *req.Query == "" {
		return "", 0, projfs.Refuse(plan.ErrInvalidInput, "search needs a non-empty query")
	}
	glob := ""
	if req.Glob != nil {
		glob = *req.Glob
	}
	o := projfs.SearchOptions{Glob: glob, Max: g.opts.MaxSearchResults}
	var res projfs.SearchResult
	var err error
	if t := g.listingFor(in); t != nil {
		res, err = t.Search(ctx, *req.Query, o) // the plan's listing: no walk of its own
	} else {
		res, err = g.Search(ctx, *req.Query, o)
	}
	if err != nil {
		return "", 0, err
	}
	text, n := g.formatSearch(*req.Query, glob, res)
	return text, n, nil
}

// FormatSearch renders a search result as the model receives it: a label line with
// the counts, then grep-style groups (`path:line: text` for matches, `path-line-
// text` for the 2 context lines around them, `--` between groups). Lines come
// from the files redacted whole; a match whose query is no longer there (it was
// part of a secret) is not shown, and a file that cannot be read any more
// (changed since the scan into one read_file refuses) shows only why, with no
// count of its matches. Files read_file refuses are not searched at all (the
// walk makes the same decision).
func (g *Gatherer) FormatSearch(query, glob string, res projfs.SearchResult) string {
	text, _ := g.formatSearch(query, glob, res)
	return text
}

// formatSearch is FormatSearch that also returns the number of redactions shown.
func (g *Gatherer) formatSearch(query, glob string, res projfs.SearchResult) (string, int) {
	byFile := map[string][]int{}
	var order []string
	for _, m := range res.Matches {
		if _, ok := byFile[m.Path]; !ok {
			order = append(order, m.Path)
		}
		byFile[m.Path] = append(byFile[m.Path], m.Line)
	}
	var b strings.Builder
	first := true
	group := func() {
		if !first {
			b.WriteString("--\n")
		}
		first = false
	}
	hidden, redactions := 0, 0
	for _, p := range order {
		ft, err := g.files.ReadText(p)
		if err != nil { // changed since the scan, or refused
			group()
			fmt.Fprintf(&b, "%s: not shown: %s\n", p, projfs.Reason(err)) // no count: it would tell of the content
			continue
		}
		isHit := map[int]bool{}
		var hits []int
		for _, h := range byFile[p] {
			if h >= 1 && h <= len(ft.Lines) && strings.Contains(ft.Lines[h-1], query) {
				isHit[h] = true
				hits = append(hits, h)
			} else {
				hidden++
			}
		}
		for _, r := range windows(hits, searchContextLines, len(ft.Lines)) {
			group()
			redactions += ft.Red.In(r.From, r.To)
			for i := r.From; i <= r.To; i++ {
				sep := "-"
				if isHit[i] {
					sep = ":"
				}
				fmt.Fprintf(&b, "%s%s%d%s %s\n", p, sep, i, sep, ft.Lines[i-1])
			}
		}
	}
	var l strings.Builder
	fmt.Fprintf(&l, "search %q", query)
	if glob != "" {
		fmt.Fprintf(&l, " glob %q", glob)
	}
	fmt.Fprintf(&l, ": %d matches in %d files", res.Total, res.Files)
	if len(res.Matches) < res.Total {
		fmt.Fprintf(&l, " (showing the first %d; narrow the query or the glob for more)", len(res.Matches))
	}
	if hidden > 0 {
		fmt.Fprintf(&l, " (%d of them inside redacted secrets, not shown)", hidden)
	}
	l.WriteString("\n")
	return l.String() + b.String(), redactions
}

func (g *Gatherer) fulfilLogs(in plan.ProblemInput, req plan.ContextRequest) (string, int, error) {
	if req.Source == nil || strings.TrimSpace(*req.Source) == "" {
		return "", 0, projfs.Refuse(plan.ErrInvalidInput, "logs needs a source (%s)", strings.Join(g.logSources(in), ", "))
	}
	n := g.opts.LogLastN
	if req.LastN != nil && *req.LastN > 0 {
		n = min(*req.LastN, 10000)
	}
	return g.logs(in, *req.Source, n)
}
