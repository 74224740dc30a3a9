// Package ledger is the record of what one conversation has sent the model: which
// numbered lines of which files, where, and with what text, so that a context result
// never repeats lines the model already has (CONTRACT §5). It also reads the text
// format those lines are sent in: base-context file sections ("File PATH lines …"),
// read_file labels and numbered lines ("  12 | text"). Pure: no I/O.
package ledger

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"fixplan/plan"
)

// Ledger remembers which numbered lines of which files the model was sent in
// this conversation, and where, so a context request for lines it already has is
// answered with a short reference instead of the lines again (no repeats). It
// reads the text exactly as sent: base-context file sections ("File PATH lines …")
// and read_file results, whose lines are numbered ("  12 | text"), so a section
// cut by a budget records only the lines that were really sent.
//
// Each line is recorded with a hash of its text: a line counts as already sent
// only while the file's line still reads the same (a hook during the plan, or a
// user's edit after approval, changes it), so the model always gets the current
// lines of a changed file.
type Ledger struct {
	files map[string]map[int]sentLine // path → line → what and where it was sent
}

// sentLine is one line as it was sent: a hash of its text and where.
type sentLine struct {
	hash  uint64
	where string
}

func lineHash(text string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(text))
	return h.Sum64()
}

func New() *Ledger { return &Ledger{files: map[string]map[int]sentLine{}} }

var (
	// FileTitle is a base-context file section: "File PATH lines 1-80, 90-120 of 300 (why)".
	FileTitle = regexp.MustCompile(`^File (.+) lines (\d+-\d+(?:, \d+-\d+)*) of (\d+) \(`)
	// ReadLabel is the label line of a read_file result: "read_file PATH lines A-B of N".
	ReadLabel = regexp.MustCompile(`^read_file (.+) lines (\d+)-(\d+) of (\d+)`)
	// numberedLine is one line of a file as codectx numbers it: "  12 | text".
	numberedLine = regexp.MustCompile(`^ *(\d+) \| `)
)

// AddSection records the lines of one base-context section.
func (l *Ledger) AddSection(s plan.Section) {
	m := FileTitle.FindStringSubmatch(s.Title)
	if m == nil {
		return
	}
	l.AddNumbered(m[1], s.Body, fmt.Sprintf("the base context, section %q", s.Title))
}

// AddResult records the lines of one context result sent as request i of round n.
func (l *Ledger) AddResult(round, i int, res plan.ContextResult) {
	if !res.OK || res.Request.Type != plan.ReqReadFile {
		return
	}
	label, body, _ := strings.Cut(res.Text, "\n")
	m := ReadLabel.FindStringSubmatch(label)
	if m == nil {
		return
	}
	l.AddNumbered(m[1], body, fmt.Sprintf("context round %d, request %d", round, i+1))
}

func (l *Ledger) AddNumbered(path, body, where string) {
	f := l.files[path]
	if f == nil {
		f = map[int]sentLine{}
		l.files[path] = f
	}
	for _, line := range strings.Split(body, "\n") {
		if n, text, ok := Numbered(line); ok {
			if had, ok := f[n]; !ok || had.hash != lineHash(text) { // a changed line is sent again, and recorded as sent there
				f[n] = sentLine{hash: lineHash(text), where: where}
			}
		}
	}
}

// sentAs reports where line n of path was sent when it read text then.
func (l *Ledger) sentAs(path string, n int, text string) (string, bool) {
	s, ok := l.files[path][n]
	if !ok || s.hash != lineHash(text) {
		return "", false
	}
	return s.where, true
}

func LineNumber(line string) (int, bool) {
	n, _, ok := Numbered(line)
	return n, ok
}

// numbered splits "  12 | text" into 12 and text.
func Numbered(line string) (int, string, bool) {
	m := numberedLine.FindStringSubmatch(line)
	if m == nil {
		return 0, "", false
	}
	n, err := strconv.Atoi(m[1])
	return n, line[len(m[0]):], err == nil
}

// Dedupe rewrites a result so it does not repeat lines the model already has:
// a read_file result keeps its label and the lines not sent yet, and each run of
// lines sent before becomes one reference line saying where they were sent; a
// search result drops the groups whose every line was sent before and lists their
// matches in one closing note. Other results come back unchanged.
func (l *Ledger) Dedupe(res plan.ContextResult) plan.ContextResult {
	if !res.OK {
		return res
	}
	switch res.Request.Type {
	case plan.ReqReadFile:
		res.Text = l.dedupeRead(res.Text)
	case plan.ReqSearch:
		res.Text = l.dedupeSearch(res.Text)
	}
	return res
}

func (l *Ledger) dedupeRead(text string) string {
	label, body, _ := strings.Cut(text, "\n")
	m := ReadLabel.FindStringSubmatch(label)
	if m == nil {
		return text
	}
	path := m[1]
	if len(l.files[path]) == 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(label)
	b.WriteByte('\n')
	// Runs of consecutive already-sent lines, flushed as one reference each. A run
	// spans lines sent in different places (the base context may show a file in
	// many one-line definition sections): one reference per place made the
	// "deduplicated" text longer than the lines it replaced.
	runFrom, runTo := 0, 0
	var runWhere []string
	flush := func() {
		if runFrom == 0 {
			return
		}
		span := fmt.Sprintf("line %d", runFrom)
		if runTo > runFrom {
			span = fmt.Sprintf("lines %d-%d", runFrom, runTo)
		}
		fmt.Fprintf(&b, "[%s of %s: already sent in %s; not repeated]\n", span, path, wherePhrase(runWhere))
		runFrom, runWhere = 0, nil
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if body == "" {
		lines = nil
	}
	for _, line := range lines {
		n, lineText, ok := Numbered(line)
		where, was := l.sentAs(path, n, lineText)
		if !ok || !was {
			flush()
			b.WriteString(line)
			b.WriteByte('\n')
			continue
		}
		if runFrom != 0 && n != runTo+1 {
			flush()
		}
		if runFrom == 0 {
			runFrom = n
		}
		if !slices.Contains(runWhere, where) {
			runWhere = append(runWhere, where)
		}
		runTo = n
	}
	flush()
	return b.String()
}

// wherePhrase says where a run of lines was sent: the one place as recorded, or
// for several places "the base context" and the context rounds, each once.
func wherePhrase(wheres []string) string {
	if len(wheres) == 1 {
		return wheres[0]
	}
	var parts []string
	for _, w := range wheres {
		if strings.HasPrefix(w, "the base context") {
			w = "the base context"
		}
		if !slices.Contains(parts, w) {
			parts = append(parts, w)
		}
	}
	return strings.Join(parts, " and ")
}

// DedupeSearch drops the search groups (separated by "--") whose every line the
// model already has. Lines are "path:12: text" (a match) or "path-11- text".
func (l *Ledger) dedupeSearch(text string) string {
	label, body, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(label, "search ") || len(l.files) == 0 {
		return text
	}
	var groups [][]string
	cur := []string{}
	for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if line == "--" {
			groups = append(groups, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, line)
	}
	groups = append(groups, cur)
	var kept [][]string
	var dropped []string // "path:12 (where)"
	for _, g := range groups {
		if len(g) == 0 || (len(g) == 1 && g[0] == "") {
			continue
		}
		refs, all := l.groupSent(g)
		if !all {
			kept = append(kept, g)
			continue
		}
		dropped = append(dropped, refs...)
	}
	if len(dropped) == 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(label)
	b.WriteByte('\n')
	for i, g := range kept {
		if i > 0 {
			b.WriteString("--\n")
		}
		for _, line := range g {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "[matches whose surrounding lines were already sent, not repeated: %s]\n", strings.Join(dropped, "; "))
	return b.String()
}

// groupSent reports whether every line of a search group was sent before, and
// the group's matches as "path:line (where)".
func (l *Ledger) groupSent(g []string) (refs []string, all bool) {
	for _, line := range g {
		path, n, text, match, ok := l.searchLine(line)
		if !ok {
			return nil, false
		}
		where, was := l.sentAs(path, n, text)
		if !was {
			return nil, false
		}
		if match {
			refs = append(refs, fmt.Sprintf("%s:%d (%s)", path, n, where))
		}
	}
	return refs, true
}

// searchLine parses one grep-style line against the paths the ledger knows (a
// path may itself contain ':' or '-').
func (l *Ledger) searchLine(line string) (path string, n int, text string, match, ok bool) {
	paths := make([]string, 0, len(l.files))
	for p := range l.files {
		if strings.HasPrefix(line, p) {
			paths = append(paths, p)
		}
	}
	slices.SortFunc(paths, func(a, b string) int { return len(b) - len(a) }) // the longest path first
	for _, p := range paths {
		rest := line[len(p):]
		if len(rest) < 3 || (rest[0] != ':' && rest[0] != '-') {
			continue
		}
		sep := rest[0]
		end := strings.IndexByte(rest[1:], sep)
		if end < 1 {
			continue
		}
		num, err := strconv.Atoi(rest[1 : 1+end])
		if err != nil {
			continue
		}
		text := strings.TrimPrefix(rest[2+end:], " ")
		return p, num, text, sep == ':', true
	}
	return "", 0, "", false, false
}
