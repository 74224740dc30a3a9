package codectx

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"fixplan/plan"
)

// searchContextLines is the number of lines shown around each search match.
const searchContextLines = 2

// ReadRange reads lines [start,end] (1-based, inclusive; 0 = from the first / to
// the last line) of a confined text file and returns them numbered, with a label
// line. Ranges are clamped to the file. It fails (with a reason the model can
// read) on paths outside the root, .git/, secret files, missing, binary or
// oversized files and a start beyond the end of the file.
//
// The label and the SeenFile carry the path as asked (cleaned), also when it is a
// symlink to another file of the project: that is the path the model will edit.
func (g *Gatherer) ReadRange(path string, start, end int) (string, plan.SeenFile, error) {
	_, data, err := g.readFile(path)
	if err != nil {
		return "", plan.SeenFile{}, err
	}
	rel, _ := CleanRel(path) // readFile succeeded, so it is clean
	lines := splitLines(data)
	total := len(lines)
	if start < 1 {
		start = 1
	}
	if end < 1 || end > total {
		end = total
	}
	if start > total {
		return "", plan.SeenFile{}, refusal(plan.ErrInvalidInput, "file %q has only %d lines; start_line %d is past its end", rel, total, start)
	}
	if start > end {
		return "", plan.SeenFile{}, refusal(plan.ErrInvalidInput, "start_line %d is after end_line %d", start, end)
	}
	label := fmt.Sprintf("read_file %s lines %d-%d of %d\n", rel, start, end, total)
	return label + numbered(lines, start, end), plan.SeenFile{Path: rel, Whole: start == 1 && end == total}, nil
}

func (g *Gatherer) fulfilRead(req plan.ContextRequest) (string, []plan.SeenFile, error) {
	if req.Path == nil || *req.Path == "" {
		return "", nil, refusal(plan.ErrInvalidInput, "read_file needs a path relative to the project root")
	}
	start, end := 0, 0
	if req.StartLine != nil {
		start = *req.StartLine
	}
	if req.EndLine != nil {
		end = *req.EndLine
	}
	text, seen, err := g.ReadRange(*req.Path, start, end)
	if err != nil {
		return "", nil, err
	}
	return text, []plan.SeenFile{seen}, nil
}

func (g *Gatherer) fulfilSearch(ctx context.Context, req plan.ContextRequest) (string, error) {
	if req.Query == nil || *req.Query == "" {
		return "", refusal(plan.ErrInvalidInput, "search needs a non-empty query")
	}
	glob := ""
	if req.Glob != nil {
		glob = *req.Glob
	}
	res, err := g.Search(ctx, *req.Query, SearchOptions{Glob: glob, Max: g.opts.MaxSearchResults})
	if err != nil {
		return "", err
	}
	return g.FormatSearch(*req.Query, glob, res), nil
}

// FormatSearch renders a search result as the model receives it: a label line with
// the counts, then grep-style groups (`path:line: text` for matches, `path-line-
// text` for the 2 context lines around them, `--` between groups).
func (g *Gatherer) FormatSearch(query, glob string, res SearchResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "search %q", query)
	if glob != "" {
		fmt.Fprintf(&b, " glob %q", glob)
	}
	fmt.Fprintf(&b, ": %d matches in %d files", res.Total, res.Files)
	if len(res.Matches) < res.Total {
		fmt.Fprintf(&b, " (showing the first %d; narrow the query or the glob for more)", len(res.Matches))
	}
	b.WriteString("\n")
	byFile := map[string][]int{}
	var order []string
	for _, m := range res.Matches {
		if _, ok := byFile[m.Path]; !ok {
			order = append(order, m.Path)
		}
		byFile[m.Path] = append(byFile[m.Path], m.Line)
	}
	first := true
	for _, p := range order {
		hits := byFile[p]
		var lines []string
		if _, data, err := g.readFile(p); err == nil {
			lines = splitLines(data)
		}
		if lines == nil { // changed since the scan: show the matches alone
			for _, m := range res.Matches {
				if m.Path == p {
					if !first {
						b.WriteString("--\n")
					}
					first = false
					fmt.Fprintf(&b, "%s:%d: %s\n", p, m.Line, m.Text)
				}
			}
			continue
		}
		isHit := map[int]bool{}
		for _, h := range hits {
			isHit[h] = true
		}
		for _, r := range windows(hits, searchContextLines, len(lines)) {
			if !first {
				b.WriteString("--\n")
			}
			first = false
			for i := r.from; i <= r.to; i++ {
				sep := "-"
				if isHit[i] {
					sep = ":"
				}
				fmt.Fprintf(&b, "%s%s%d%s %s\n", p, sep, i, sep, lines[i-1])
			}
		}
	}
	return b.String()
}

func (g *Gatherer) fulfilLogs(in plan.ProblemInput, req plan.ContextRequest) (string, error) {
	if req.Source == nil || strings.TrimSpace(*req.Source) == "" {
		return "", refusal(plan.ErrInvalidInput, "logs needs a source (%s)", strings.Join(g.logSources(in), ", "))
	}
	n := g.opts.LogLastN
	if req.LastN != nil && *req.LastN > 0 {
		n = min(*req.LastN, 10000)
	}
	return g.Logs(in, *req.Source, n)
}

// logSources lists the names of the logs available for in, sorted.
func (g *Gatherer) logSources(in plan.ProblemInput) []string {
	set := map[string]bool{}
	for _, l := range g.allLogs(in) {
		set[l.Source] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"no logs were attached or configured"}
	}
	return out
}
