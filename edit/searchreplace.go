package edit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"fixplan/plan"
)

// Search/replace edits (EDIT_FILE, docs/CONTRACT.md §7.2). Each pair's search is
// matched against the ORIGINAL file, line by line, in layers from strict to loose;
// the first layer with any match decides, and it must match exactly one place. So
// the pairs are independent of their order; two pairs whose places overlap are
// refused; and one refused pair refuses the whole file (and so the plan).
//
// The replacement is fitted to what was found: the search and the replacement are
// compared line by line, lines the model kept are written as the file has them
// (its indentation, trailing whitespace, punctuation and blank lines), and only the
// lines the model added are taken from the replacement — re-indented by the found
// indentation delta and, when a search of the action had typographic quotes,
// dashes or spaces the file does not have, with those put back to ASCII.

// Layers of search/replace matching, strictest first.
const (
	srExact    = iota // the lines as they are
	srTrailing        // ignoring trailing whitespace
	srIndent          // ignoring indentation (never for indentation-sensitive files)
	srUnicode         // also curly quotes, dashes and odd spaces folded to ASCII
	srBlank           // also ignoring blank lines the search lost or added
	srLayers
)

var srLayerNames = [srLayers]string{"exact", "fuzzy: trailing whitespace", "fuzzy: indentation", "fuzzy: Unicode punctuation", "fuzzy: blank lines"}

// punctFold maps the typographic characters models (and the editors text passes
// through) substitute for ASCII punctuation.
var punctFold = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u201f", `"`, "\u2033", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u00a0", " ", "\u2007", " ", "\u2009", " ", "\u200a", " ", "\u202f", " ", "\u3000", " ",
	"\u2026", "...", "\u200b", "", "\ufeff", "",
)

// srKey is a line as a layer compares it.
func srKey(s string, layer int, sensitive bool) string {
	s = strings.TrimSuffix(s, "\r")
	if layer >= srUnicode {
		s = punctFold.Replace(s)
	}
	switch {
	case layer == srExact:
		return s
	case layer >= srIndent && !sensitive:
		return strings.TrimSpace(s)
	}
	return strings.TrimRight(s, " \t")
}

// srLines splits text written by the model into lines: CRLF as LF, one final line
// break dropped.
func srLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// srMatch is where one pair matched: the file lines [start, end), and for each
// search line the file line it stands for (-1: a blank search line with no
// counterpart, at the blank-lines layer).
type srMatch struct {
	pair       int
	start, end int
	at         []int
	layer      int
}

// srIndex is a file's lines keyed for each layer, computed once per file (and
// only for the layers a search gets to), so that matching costs comparisons only.
type srIndex struct {
	lines     []string
	sensitive bool
	keys      [srLayers][]string
	nonBlank  []int // lines whose srBlank key is not blank
}

func (x *srIndex) key(layer int) []string {
	if x.keys[layer] == nil {
		k := make([]string, len(x.lines))
		for i, l := range x.lines {
			k[i] = srKey(l, layer, x.sensitive)
		}
		x.keys[layer] = k
		if layer == srBlank {
			for i, l := range k {
				if strings.TrimSpace(l) != "" {
					x.nonBlank = append(x.nonBlank, i)
				}
			}
		}
	}
	return x.keys[layer]
}

// srFind finds the one place search matches in the file. It returns the match,
// or the places of an ambiguous match, or neither when the search is not in it.
func srFind(x *srIndex, search []string, where srWhere) (m *srMatch, places []int) {
	for layer := srExact; layer < srLayers; layer++ {
		if layer == srIndent && x.sensitive {
			continue // indentation is syntax: the next layers keep it too
		}
		var found []srMatch
		if layer < srBlank {
			found = srContiguous(x, search, layer)
		} else {
			found = srSkipBlank(x, search, layer)
		}
		found = slices.DeleteFunc(found, func(f srMatch) bool {
			return f.start < where.from || (where.atEnd && f.end != len(x.lines))
		})
		switch len(found) {
		case 0:
			continue
		case 1:
			return &found[0], nil
		}
		for _, f := range found {
			places = append(places, f.start+1)
		}
		return nil, places
	}
	return nil, nil
}

// srContiguous lists every run of len(search) lines equal to search at layer.
func srContiguous(x *srIndex, search []string, layer int) []srMatch {
	want := make([]string, len(search))
	for i, s := range search {
		want[i] = srKey(s, layer, x.sensitive)
	}
	keys := x.key(layer)
	var out []srMatch
	for i := 0; i+len(want) <= len(keys); i++ {
		ok := true
		for j := range want {
			if keys[i+j] != want[j] {
				ok = false
				break
			}
		}
		if ok {
			at := make([]int, len(want))
			for j := range at {
				at[j] = i + j
			}
			out = append(out, srMatch{start: i, end: i + len(want), at: at, layer: layer})
		}
	}
	return out
}

// srSkipBlank matches the non-blank search lines to consecutive non-blank file
// lines, whatever blank lines lie between them on either side.
func srSkipBlank(x *srIndex, search []string, layer int) []srMatch {
	var want []string
	var idx []int // search line of each wanted line
	for i, s := range search {
		if k := srKey(s, layer, x.sensitive); strings.TrimSpace(k) != "" {
			want = append(want, k)
			idx = append(idx, i)
		}
	}
	if len(want) == 0 {
		return nil
	}
	keys := x.key(layer)
	nb := x.nonBlank
	var out []srMatch
	for s := 0; s+len(want) <= len(nb); s++ {
		ok := true
		for j := range want {
			if keys[nb[s+j]] != want[j] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		at := make([]int, len(search))
		for i := range at {
			at[i] = -1
		}
		for j, si := range idx {
			at[si] = nb[s+j]
		}
		out = append(out, srMatch{start: nb[s], end: nb[s+len(want)-1] + 1, at: at, layer: layer})
	}
	return out
}

// SearchReplace applies the search/replace pairs of an EDIT_FILE action to
// before (the bytes of rel) all at once, and says for each pair where and at
// which layer it matched. It fails with ERR_PATCH_APPLY_FAILED, naming every
// pair that is missing, ambiguous (with its places) or overlaps another, with
// the closest real lines of the file.
func SearchReplace(rel string, before []byte, edits []plan.Edit) ([]byte, []string, error) {
	return searchReplaceWhere(rel, before, edits, nil)
}

// srWhere narrows where a pair may match, as the *** Begin Patch envelope
// states it: at or after line index from (its @@ anchor line), and ending at
// the end of the file (*** End of File).
type srWhere struct {
	from  int
	atEnd bool
}

// searchReplaceWhere is SearchReplace with where[i] narrowing pair i (nil: none).
func searchReplaceWhere(rel string, before []byte, edits []plan.Edit, where []srWhere) ([]byte, []string, error) {
	lines, finalEOL := splitLines(before)
	sensitive := indentSensitive(rel)
	var matches []srMatch
	var problems []string
	x := &srIndex{lines: lines, sensitive: sensitive}
	for i, e := range edits {
		search := srLines(e.Search)
		var w srWhere
		if i < len(where) {
			w = where[i]
		}
		m, places := srFind(x, search, w)
		switch {
		case m != nil:
			m.pair = i
			matches = append(matches, *m)
		case len(places) > 0:
			problems = append(problems, srProblem(i, search, lines, fmt.Sprintf("its search lines match %d places (lines %s); fixplan does not guess — add surrounding lines so it occurs once", len(places), joinInts(places))))
		default:
			problems = append(problems, srProblem(i, search, lines, "its search lines are not in the file (compared exactly, then ignoring trailing whitespace, indentation, Unicode punctuation and blank lines)"))
		}
	}
	sort.Slice(matches, func(a, b int) bool { return matches[a].start < matches[b].start })
	for k := 1; k < len(matches); k++ {
		if p, q := matches[k-1], matches[k]; q.start < p.end {
			problems = append(problems, fmt.Sprintf("edits %d and %d of %s change overlapping lines (%d-%d and %d-%d); merge them into one pair", min(p.pair, q.pair)+1, max(p.pair, q.pair)+1, rel, p.start+1, p.end, q.start+1, q.end))
		}
	}
	if len(problems) > 0 {
		return nil, nil, srRefusal(rel, problems)
	}
	out := make([]string, 0, len(lines)+32)
	placements := make([]string, len(edits))
	// One search that matched only because curly quotes or long dashes were
	// folded shows the model's text was typographically mangled — all of it.
	typo := false
	for _, m := range matches {
		typo = typo || (m.layer >= srUnicode && foreignTypography(srLines(edits[m.pair].Search), lines[m.start:m.end]))
	}
	cursor := 0
	for _, m := range matches {
		out = append(out, lines[cursor:m.start]...)
		e := edits[m.pair]
		repl, note, why := srFit(lines, srLines(e.Search), srReplaceLines(e.Search, e.Replace), m, sensitive, typo)
		if why != "" {
			problems = append(problems, srProblem(m.pair, srLines(e.Search), lines, why))
			continue
		}
		out = append(out, repl...)
		cursor = m.end
		placements[m.pair] = strings.TrimSpace(fmt.Sprintf("edit %d: %s at line %d %s", m.pair+1, srLayerNames[m.layer], m.start+1, note))
	}
	if len(problems) > 0 {
		return nil, nil, srRefusal(rel, problems)
	}
	out = append(out, lines[cursor:]...)
	eol := "\n"
	if usesCRLF(before) {
		eol = "\r\n"
	}
	var b strings.Builder
	b.Grow(len(before) + 256)
	for i, l := range out {
		b.WriteString(l)
		if i < len(out)-1 || finalEOL {
			b.WriteString(eol)
		}
	}
	return []byte(b.String()), placements, nil
}

func srRefusal(rel string, problems []string) error {
	return (&plan.Error{Code: plan.ErrPatchApplyFailed,
		Msg:   fmt.Sprintf("the edits of %s do not apply, so none was applied\n%s", rel, strings.Join(problems, "\n")),
		Paths: []string{rel}}).
		WithHint("re-plan so the model sees the file as it is now, or edit by hand")
}

// srReplaceLines splits the replacement; an empty replacement deletes the lines.
func srReplaceLines(search, replace string) []string {
	if replace == "" || (replace == "\n" && search != "\n") {
		return nil
	}
	return srLines(replace)
}

// srFit builds the lines that take the place of m: kept lines as the file has
// them, added lines from the replacement fitted to the file. It refuses (why is
// not "") when the search lost blank lines right next to the lines it changes:
// whether the model meant to keep them cannot be known.
func srFit(lines, search, repl []string, m srMatch, sensitive, typo bool) (out []string, note, why string) {
	ops := lineDiff(search, repl)
	ind := indentMap{}
	if m.layer >= srIndent && !sensitive {
		ind = newIndentMap(lines, search, m.at, repl)
		note = ind.note
	}
	// The model's text went through something that made quotes curly (or
	// dashes long): typographic characters the matched lines of the file do not
	// use are put back to ASCII in the added lines too.
	var wrong []string
	if typo {
		region := lines[m.start:m.end]
		for _, s := range repl {
			for _, r := range s {
				if c := string(r); punctFold.Replace(c) != c && !fileHas(region, c) {
					wrong = append(wrong, c, punctFold.Replace(c))
				}
			}
		}
	}
	fold := strings.NewReplacer(wrong...)
	p := m.start // next file line of the region not yet written or dropped
	prevKept, added := true, false
	for _, op := range ops {
		switch op.kind {
		case '=', '-':
			at := m.at[op.a]
			if at < 0 {
				continue // a blank search line the file does not have
			}
			// File lines between matched lines are blank lines the search lost:
			// kept between two kept lines, otherwise nobody knows.
			if at > p {
				if op.kind != '=' || !prevKept || added {
					return nil, "", fmt.Sprintf("its search leaves out the blank line(s) at line %d right next to the lines it changes, so fixplan cannot tell whether they stay; copy the lines with their blank lines", p+1)
				}
				out = append(out, lines[p:at]...)
			}
			if op.kind == '=' {
				out = append(out, lines[at])
			}
			p, prevKept, added = at+1, op.kind == '=', false
		case '+':
			l, ok := ind.fit(repl[op.b])
			if !ok {
				return nil, "", unevenIndent
			}
			if len(wrong) > 0 {
				l = fold.Replace(l)
			}
			out, added = append(out, l), true
		}
	}
	out = append(out, lines[p:m.end]...)
	return out, note, ""
}

// foreignTypography reports a search with typographic punctuation the file's
// matched lines do not have.
func foreignTypography(search, region []string) bool {
	for _, s := range search {
		for _, r := range s {
			if c := string(r); punctFold.Replace(c) != c && !fileHas(region, c) {
				return true
			}
		}
	}
	return false
}

func fileHas(lines []string, c string) bool {
	for _, l := range lines {
		if strings.Contains(l, c) {
			return true
		}
	}
	return false
}

// diffOp is one step of a line diff: '=' (a[a] kept as b[b]), '-' (a[a] removed)
// or '+' (b[b] added).
type diffOp struct {
	kind byte
	a, b int
}

// lineDiff is a longest-common-subsequence diff of two short line lists. Blocks
// too large for the table count as all removed, then all added.
func lineDiff(a, b []string) []diffOp {
	var ops []diffOp
	if len(a)*len(b) > 4<<20 {
		for i := range a {
			ops = append(ops, diffOp{'-', i, 0})
		}
		for j := range b {
			ops = append(ops, diffOp{'+', 0, j})
		}
		return ops
	}
	n, m := len(a), len(b)
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{'=', i, j})
			i++
			j++
		case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
			ops = append(ops, diffOp{'-', i, j})
			i++
		default:
			ops = append(ops, diffOp{'+', i, j})
			j++
		}
	}
	return ops
}

// srProblem describes one refused pair with the closest lines of the file.
func srProblem(i int, search, lines []string, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "edit %d: %s.\nsearch lines:\n", i+1, why)
	for _, s := range limit(search, 12) {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	at, score := closest(lines, search)
	if score == 0 {
		at, score = resembling(lines, search)
	}
	if score > 0 {
		fmt.Fprintf(&b, "closest lines in the file (from line %d):\n", at+1)
		end := min(at+len(search), len(lines))
		for _, l := range limit(lines[at:end], 12) {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func joinInts(ns []int) string {
	s := make([]string, 0, len(ns))
	for i, n := range ns {
		if i == 8 {
			s = append(s, fmt.Sprintf("… %d more", len(ns)-i))
			break
		}
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, ", ")
}
