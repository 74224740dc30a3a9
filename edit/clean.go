package edit

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"fixplan/plan"
)

// A model-written patch is normalised before go-gitdiff parses it: code fences
// stripped, CRLF turned into LF, a/ b/ or bare paths accepted, /dev/null without git
// headers understood, empty context lines restored, hunk counts recomputed and a
// final newline added. The output is a plain git-style patch.

// ParseDiff reads a model's unified diff: cleaned (cleanPatch), then parsed with
// go-gitdiff into files whose hunks Place puts on the files' bytes. It fails with
// ERR_INVALID_INPUT for a patch it cannot read or that changes no file, and
// ERR_BINARY_CONTENT for a patch of a binary file ("GIT binary patch").
func ParseDiff(patch string) ([]*gitdiff.File, error) {
	cleaned, err := cleanPatch(patch)
	if err != nil {
		return nil, err
	}
	files, _, err := gitdiff.Parse(strings.NewReader(cleaned))
	if err != nil {
		return nil, &plan.Error{Code: plan.ErrInvalidInput, Msg: "the patch is not a valid unified diff", Err: err,
			Hint: "re-plan, or fix the diff by hand"}
	}
	if len(files) == 0 {
		return nil, plan.Errorf(plan.ErrInvalidInput, "the patch holds no file changes")
	}
	return files, nil
}

var hunkRe = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$`)

type cleanHunk struct {
	oldStart, newStart int
	// oldCount and newCount are the header's line counts (1 when it gives none).
	oldCount, newCount int
	comment            string
	lines              []string // with their ' ', '-', '+', '\' prefix
}

type cleanFile struct {
	oldName, newName string // "" = /dev/null
	renameFrom       string
	renameTo         string
	newMode          string
	hunks            []cleanHunk
	sawHeaders       bool
	git              bool // it has a "diff --git" line
	created, deleted bool // "new file mode", "deleted file mode"
}

// stripAB reads a file name from a diff header (diffName) without the a/ or
// b/ prefix it may have; /dev/null is "".
func stripAB(s string, prefix string) string {
	name, _ := diffName(s)
	if name == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(name, prefix)
}

// A time stamp after a file name in a traditional diff header: stampRe after
// a tab, damagedStampRe after spaces instead (a whitespace-damaged GNU diff).
const stampPat = `([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?: [-+][0-9]{2}:?[0-9]{2})?)\s*$`

var (
	stampRe        = regexp.MustCompile(`^` + stampPat)
	damagedStampRe = regexp.MustCompile(`^(.*?)\s+` + stampPat)
)

// diffName reads the file name at the start of s, as a diff header writes it
// (after "--- ", "+++ ", "rename from ", or one of the two in "diff --git"):
// git's C-quoted form ("b/\303\251t\303\251.txt", for names with quotes, tabs
// or bytes beyond ASCII) is unquoted, and what follows the name — a tab and a
// time stamp, a time stamp after spaces, the other name — is returned as rest.
func diffName(s string) (name, rest string) {
	s = strings.TrimLeft(s, " ")
	if strings.HasPrefix(s, `"`) {
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				if n, err := strconv.Unquote(s[:i+1]); err == nil {
					return n, strings.TrimSpace(s[i+1:])
				}
				return strings.Trim(s[:i+1], `"`), strings.TrimSpace(s[i+1:])
			}
		}
	}
	// A name may hold a tab: the time stamp follows the last one.
	if i := strings.LastIndexByte(s, '\t'); i >= 0 && stampRe.MatchString(s[i+1:]) {
		return s[:i], strings.TrimSpace(s[i+1:])
	}
	if name, rest, ok := strings.Cut(s, "\t"); ok {
		return strings.TrimSpace(name), strings.TrimSpace(rest)
	}
	if m := damagedStampRe.FindStringSubmatch(s); m != nil {
		return m[1], m[2]
	}
	return strings.TrimSpace(s), ""
}

// cleanPatch returns the normalised patch. It fails with ERR_INVALID_INPUT for a
// hunk header without line numbers, binary patches, and patches without files.
func cleanPatch(patch string) (string, error) {
	patch = strings.ReplaceAll(patch, "\r\n", "\n")
	lines := strings.Split(patch, "\n")
	var files []*cleanFile
	var cur *cleanFile
	var hunk *cleanHunk
	var last *cleanHunk // the hunk the patch ends in, if it does
	gitNames := func(l string) (string, string) {
		rest := strings.TrimPrefix(l, "diff --git ")
		if strings.HasPrefix(rest, `"`) {
			a, b := diffName(rest)
			return strings.TrimPrefix(a, "a/"), stripAB(b, "b/")
		}
		if i := strings.Index(rest, " b/"); i >= 0 && strings.HasPrefix(rest, "a/") {
			return rest[2:i], stripAB(rest[i+1:], "b/")
		}
		f := strings.Fields(rest)
		if len(f) == 2 {
			return stripAB(f[0], "a/"), stripAB(f[1], "b/")
		}
		return "", ""
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "```"):
			hunk = nil
			continue
		case strings.HasPrefix(l, "diff --git "):
			o, n := gitNames(l)
			cur = &cleanFile{oldName: o, newName: n, git: true}
			files = append(files, cur)
			hunk = nil
			continue
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			if cur == nil || cur.sawHeaders || len(cur.hunks) > 0 {
				cur = &cleanFile{}
				files = append(files, cur)
			}
			o, n := stripAB(l[4:], "a/"), stripAB(lines[i+1][4:], "b/")
			// The ---/+++ names of a "diff --git" section are the ones its
			// header names (or /dev/null): which file another one means
			// cannot be known.
			if cur.git && (o != "" && cur.oldName != "" && o != cur.oldName || n != "" && cur.newName != "" && n != cur.newName) {
				return "", (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the patch's lines %q and %q name other files than its header %q", l, lines[i+1], "diff --git a/"+cur.oldName+" b/"+cur.newName), Paths: []string{cur.newName}}).
					WithHint("re-plan, or make the ---/+++ names those of the diff --git line")
			}
			cur.oldName, cur.newName = o, n
			if !cur.git {
				cur.oldName, cur.newName = traditionalNames(cur.oldName, cur.newName)
			}
			// GNU diff -N writes a file that is not there as an empty one
			// dated the epoch: the patch creates or deletes it.
			_, oldStamp := diffName(l[4:])
			_, newStamp := diffName(lines[i+1][4:])
			switch {
			case epochStamp(oldStamp):
				cur.oldName = ""
			case epochStamp(newStamp):
				cur.newName = ""
			}
			cur.sawHeaders = true
			hunk = nil
			i++
			continue
		case strings.HasPrefix(l, "@@"):
			if cur == nil {
				return "", plan.Errorf(plan.ErrInvalidInput, "the patch has a hunk (%s) before any file header (--- / +++)", l).
					WithHint("a unified diff needs --- a/FILE and +++ b/FILE lines before its hunks")
			}
			m := hunkRe.FindStringSubmatch(strings.TrimRight(l, " "))
			if m == nil {
				return "", plan.Errorf(plan.ErrInvalidInput, "hunk header %q has no line numbers", l).
					WithHint("each hunk needs a header like @@ -12,5 +12,6 @@")
			}
			ost, _ := strconv.Atoi(m[1])
			ns, _ := strconv.Atoi(m[3])
			oc, nc := 1, 1
			if m[2] != "" {
				oc, _ = strconv.Atoi(m[2])
			}
			if m[4] != "" {
				nc, _ = strconv.Atoi(m[4])
			}
			cur.hunks = append(cur.hunks, cleanHunk{oldStart: ost, newStart: ns, oldCount: oc, newCount: nc, comment: m[5]})
			hunk = &cur.hunks[len(cur.hunks)-1]
			continue
		case strings.HasPrefix(l, "GIT binary patch") || (strings.HasPrefix(l, "Binary files ") && strings.HasSuffix(l, " differ")):
			return "", plan.Errorf(plan.ErrBinaryContent, "the patch changes a binary file").WithHint("fixplan only edits text files")
		}
		if cur != nil && hunk == nil {
			switch {
			case strings.HasPrefix(l, "copy from "), strings.HasPrefix(l, "copy to "):
				// Read as a rename, a copy would delete the file it copies.
				name := cur.newName
				if name == "" {
					name = cur.oldName
				}
				return "", (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the patch copies a file (%q); fixplan does not copy files", l), Paths: []string{name}}).
					WithHint("re-plan: create the new file with its whole content (--- /dev/null)")
			case strings.HasPrefix(l, "rename from "):
				cur.renameFrom, _ = diffName(strings.TrimPrefix(l, "rename from "))
			case strings.HasPrefix(l, "rename to "):
				cur.renameTo, _ = diffName(strings.TrimPrefix(l, "rename to "))
			case strings.HasPrefix(l, "new file mode "):
				cur.newMode = strings.TrimPrefix(l, "new file mode ")
				cur.oldName, cur.created = "", true
			case strings.HasPrefix(l, "new mode "):
				cur.newMode = strings.TrimPrefix(l, "new mode ")
			case strings.HasPrefix(l, "deleted file mode "):
				cur.newName, cur.deleted = "", true
			}
			continue
		}
		if hunk == nil {
			continue // prose before or between files
		}
		switch {
		case l == "":
			// A blank line inside a hunk is an empty context line whose space was lost,
			// unless it ends the patch — then it is one only when the header counts
			// it: blank context lines after a change are what anchors the hunk
			// (a hunk with no context after its change must end the file).
			if onlySpace(lines[i+1:]) {
				hunk.lines = append(hunk.lines, lostBlankContext(hunk, lines[i:])...)
				last, hunk = hunk, nil
				continue
			}
			hunk.lines = append(hunk.lines, " ")
		case l[0] == ' ' || l[0] == '-' || l[0] == '+' || l[0] == '\\':
			hunk.lines = append(hunk.lines, l)
		default:
			hunk = nil // prose after a hunk
		}
	}
	if hunk != nil {
		last = hunk
	}
	if err := cutOff(files, last); err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(len(patch) + 64*len(files)) // the cleaned patch is about as long
	n := 0
	for _, f := range files {
		if f.renameFrom != "" && f.renameTo != "" {
			if f.created || f.deleted {
				return "", (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the patch both renames %s to %s and creates or deletes it", f.renameFrom, f.renameTo), Paths: []string{f.renameTo}}).
					WithHint("re-plan: a rename has no \"new file mode\" or \"deleted file mode\" line")
			}
			f.oldName, f.newName = f.renameFrom, f.renameTo
		}
		if f.oldName == "" && f.newName == "" {
			continue
		}
		if m := strings.TrimSpace(f.newMode); m != "" && !regularMode(m) {
			name := f.newName
			if name == "" {
				name = f.oldName
			}
			return "", (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the patch gives %s the mode %s; fixplan only writes regular files (100644, 100755)", name, m), Paths: []string{name}}).
				WithHint("create links and submodules by hand")
		}
		if len(f.hunks) == 0 && f.renameFrom == "" && !(f.oldName == "" && f.newName != "") {
			continue
		}
		n++
		o, nn := f.oldName, f.newName
		a, bb := quoteName("a/"+o), quoteName("b/"+nn)
		if o == "" {
			a, o = "/dev/null", nn
		}
		if nn == "" {
			bb, nn = "/dev/null", o
		}
		fmt.Fprintf(&b, "diff --git %s %s\n", quoteName("a/"+o), quoteName("b/"+nn))
		switch {
		case f.oldName == "":
			mode := f.newMode
			if mode == "" {
				mode = "100644"
			}
			fmt.Fprintf(&b, "new file mode %s\n", mode)
		case f.newName == "":
			b.WriteString("deleted file mode 100644\n")
		case f.oldName != f.newName:
			fmt.Fprintf(&b, "rename from %s\nrename to %s\n", quoteName(f.oldName), quoteName(f.newName))
		}
		if len(f.hunks) > 0 {
			fmt.Fprintf(&b, "--- %s\n+++ %s\n", a, bb)
		}
		for _, h := range f.hunks {
			oc, nc := countSides(h.lines)
			ost, ns := h.oldStart, h.newStart
			if oc == 0 && ost > 0 && f.oldName == "" {
				ost = 0
			}
			if nc == 0 && f.newName == "" {
				ns = 0
			}
			if oc > 0 && ost == 0 {
				ost = 1
			}
			if nc > 0 && ns == 0 {
				ns = 1
			}
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@%s\n", ost, oc, ns, nc, h.comment)
			for _, l := range h.lines {
				b.WriteString(l)
				b.WriteByte('\n')
			}
		}
	}
	if n == 0 {
		return "", plan.Errorf(plan.ErrInvalidInput, "the patch holds no file changes").
			WithHint("a unified diff needs --- a/FILE, +++ b/FILE and @@ hunks")
	}
	return b.String(), nil
}

// quoteName writes a name for the cleaned patch: quoted, as git quotes it (in
// the syntax go-gitdiff reads back), when it holds a quote, a backslash, a
// control character or space at either end; as it is otherwise.
func quoteName(n string) string {
	if strings.TrimSpace(n) != n || strings.ContainsAny(n, "\"\\") || strings.ContainsFunc(n, unicode.IsControl) {
		return strconv.Quote(n)
	}
	return n
}

// traditionalNames reads the two names of a diff without a "diff --git" line
// (diff -u, diff -ruN) as git apply reads them: one file, never a rename.
// Names that differ only in their first folder ("--- linux-old/mm/a.c",
// "+++ linux/mm/a.c": two trees diffed) lose it; otherwise the file is the new
// name, unless the old one is the new one cut short ("a.c" for "a.c.orig").
func traditionalNames(o, n string) (string, string) {
	if o == "" || n == "" || o == n {
		return o, n
	}
	oi, ni := strings.IndexByte(o, '/'), strings.IndexByte(n, '/')
	if oi > 0 && ni > 0 && o[oi:] == n[ni:] {
		return o[oi+1:], n[ni+1:]
	}
	if strings.HasPrefix(n, o) {
		return o, o
	}
	return n, n
}

// epochStamp reports the time stamp of the Unix epoch in any zone
// ("1969-12-31 16:00:00.000000000 -0800"), which GNU diff -N gives a file that
// is not there.
func epochStamp(stamp string) bool {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700", "2006-01-02 15:04:05.999999999 -07:00"} {
		if t, err := time.Parse(layout, stamp); err == nil {
			return t.Unix() == 0 && t.Nanosecond() == 0
		}
	}
	return false
}

// lostBlankContext returns the empty context lines h's header counts beyond its
// lines when the patch ends with blank lines (rest: the patch's last lines,
// blank; the one after its final line break is not a line): as many as both
// counts lack, when they lack the same number and the patch has that many.
func lostBlankContext(h *cleanHunk, rest []string) []string {
	oc, nc := countSides(h.lines)
	k := h.oldCount - oc
	if k <= 0 || h.newCount-nc != k || k > len(rest)-1 {
		return nil
	}
	out := make([]string, k)
	for i := range out {
		out[i] = " "
	}
	return out
}

// cutOff refuses a patch whose text ends inside the last hunk, h, of a file
// it creates: fewer lines than the hunk's header says, and no fence, prose or
// other hunk after them. Counts are recomputed for what models miscount in the
// middle of a diff, but a created file is not placed anywhere, so nothing
// else would notice a reply cut off there, and the file would be written cut
// off. (A changed file's hunk cut inside a change has no context after it,
// so it must end the file: mustEnd.)
func cutOff(files []*cleanFile, h *cleanHunk) error {
	if h == nil || len(files) == 0 {
		return nil
	}
	f := files[len(files)-1]
	if len(f.hunks) == 0 || &f.hunks[len(f.hunks)-1] != h || f.oldName != "" || f.newName == "" || (f.renameFrom != "" && f.renameTo != "") {
		return nil
	}
	oc, nc := countSides(h.lines)
	if nc >= h.newCount && oc >= h.oldCount {
		return nil
	}
	return (&plan.Error{Code: plan.ErrInvalidInput, Paths: []string{f.newName},
		Msg: fmt.Sprintf("the diff for %s ends inside a hunk: its header (@@ -%d,%d +%d,%d @@) says %d line(s), %d are there — the reply looks cut off, so none of it is applied",
			f.newName, h.oldStart, h.oldCount, h.newStart, h.newCount, h.newCount, nc)}).
		WithHint("re-plan; a complete hunk has as many lines as its header says")
}

// countSides counts a hunk's lines on its old and new side.
func countSides(lines []string) (oc, nc int) {
	for _, l := range lines {
		switch l[0] {
		case ' ':
			oc, nc = oc+1, nc+1
		case '-':
			oc++
		case '+':
			nc++
		}
	}
	return oc, nc
}

// onlySpace reports whether every line is blank (without joining them: a patch
// with many blank lines would otherwise copy its rest once per blank line).
func onlySpace(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// regularMode reports a git mode of a regular file ("100644", "100755", or bare
// permission bits); links (120000) and submodules (160000) are not.
func regularMode(m string) bool {
	v, err := strconv.ParseUint(m, 8, 32)
	return err == nil && (v&0o170000 == 0o100000 || v <= 0o777)
}
