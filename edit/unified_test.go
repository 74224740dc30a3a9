package edit

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// cartPy is the file of the new-user review that found wrong hunk headers.
const cartPy = `"""A shopping cart."""
from shop.pricing import apply_discount, round_money


class Cart:
    def __init__(self):
        self.items = []
        self.discount = 0

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def set_discount(self, percent):
        self.discount = percent

    def subtotal(self):
        total = 0
        for name, price, qty in self.items:
            total += price
        return total

    def total(self):
        amount = self.subtotal()
        if self.discount:
            amount = apply_discount(amount, self.discount)
        return round_money(amount)
`

// The review's case: the proposal adds a line after line 13 and changes line 19
// (one hunk, with unchanged lines between its two edits), then the user appends
// lines at the end. The last hunk's new side starts at line 25, not 20 — the
// preview, the per-hunk review and --show-hunks all showed "+20". Every
// expected header is what `git diff --no-index` prints for the same two files.
func TestPreviewDiffHunkHeaders(t *testing.T) {
	r := func(s, old, new string) string { return strings.Replace(s, old, new, 1) }
	top := func(s string) string { return r(s, `"""A shopping cart."""`, `"""A shopping cart with q."""`) }
	doc := func(s string) string {
		return r(s, "        self.discount = percent\n", "        \"\"\"Doc.\"\"\"\n        self.discount = percent\n")
	}
	qty := func(s string) string { return r(s, "total += price\n", "total += price * qty\n") }
	const end = "\n# end\n"
	tests := []struct {
		name, after string
		want        []string
	}{
		{"proposal and lines appended by hand", qty(doc(cartPy)) + end, []string{"@@ -11,12 +11,13 @@", "@@ -24,3 +25,5 @@"}},
		{"all four", qty(doc(top(cartPy))) + end, []string{"@@ -1,4 +1,4 @@", "@@ -11,12 +11,13 @@", "@@ -24,3 +25,5 @@"}},
		{"append only", cartPy + end, []string{"@@ -24,3 +24,5 @@"}},
		{"top and append", r(cartPy, `"""A shopping cart."""`, `"""X."""`) + end, []string{"@@ -1,4 +1,4 @@", "@@ -24,3 +24,5 @@"}},
		{"insert and append", doc(cartPy) + end, []string{"@@ -11,6 +11,7 @@", "@@ -24,3 +25,5 @@"}},
		{"replace and append", qty(cartPy) + end, []string{"@@ -16,7 +16,7 @@", "@@ -24,3 +24,5 @@"}},
		{"replace only", qty(cartPy), []string{"@@ -16,7 +16,7 @@"}},
		{"insert and a late change", r(doc(cartPy), "        return round_money(amount)\n", "        return round_money(amount)  # r\n"),
			[]string{"@@ -11,6 +11,7 @@", "@@ -23,4 +24,4 @@"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff := Unified("a/cart.py", "b/cart.py", []byte(cartPy), []byte(tt.after))
			var got []string
			for _, h := range HunksOf([]byte(cartPy), []byte(tt.after)) {
				got = append(got, h.Header)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("hunk headers %q, want %q:\n%s", got, tt.want, diff)
			}
			checkDiff(t, cartPy, tt.after, diff)
			if shown := regexp.MustCompile(`(?m)^@@ .* @@$`).FindAllString(diff, -1); fmt.Sprint(shown) != fmt.Sprint(got) {
				t.Errorf("the preview shows %q, the hunks are %q", shown, got)
			}
		})
	}
}

var hunkHeaderRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// checkDiff reads diff, the preview diff from before to after, as a person or
// a tool reading it would: each hunk header's start and count on each side must
// be where the hunk's lines are in before and in after, each hunk changes
// something, hunks come in order without overlapping, and the lines between
// and around hunks are the same on both sides. Together: the diff turns before
// into after, and every line number it shows is right.
func checkDiff(t testing.TB, before, after, diff string) {
	t.Helper()
	a, b := Lines(before), Lines(after)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\nbefore %q\nafter  %q\ndiff:\n%s", fmt.Sprintf(format, args...), before, after, diff)
	}
	same := func(x, y []string) bool { return fmt.Sprintf("%q", x) == fmt.Sprintf("%q", y) }
	type hunk struct {
		header                         string
		oldStart, oldN, newStart, newN int
		old, new                       []string
		changes                        int
	}
	var hs []*hunk
	var cur *hunk
	var last byte
	for _, raw := range strings.SplitAfter(diff, "\n") {
		l := strings.TrimSuffix(raw, "\n")
		if strings.HasPrefix(l, "@@") {
			m := hunkHeaderRE.FindStringSubmatch(l)
			if m == nil {
				fail("unreadable hunk header %q", l)
			}
			n := func(s string) int {
				if s == "" {
					return 1
				}
				v, _ := strconv.Atoi(s)
				return v
			}
			cur = &hunk{header: l, oldStart: n(m[1]), oldN: n(m[2]), newStart: n(m[3]), newN: n(m[4])}
			hs = append(hs, cur)
			last = 0
			continue
		}
		if cur == nil || l == "" {
			continue // file header, or the end of the diff
		}
		switch l[0] {
		case ' ':
			cur.old, cur.new = append(cur.old, l[1:]+"\n"), append(cur.new, l[1:]+"\n")
		case '-':
			cur.old = append(cur.old, l[1:]+"\n")
			cur.changes++
		case '+':
			cur.new = append(cur.new, l[1:]+"\n")
			cur.changes++
		case '\\':
			if l != `\ No newline at end of file` || last == 0 {
				fail("stray line %q", l)
			}
			if last != '+' {
				cur.old[len(cur.old)-1] = strings.TrimSuffix(cur.old[len(cur.old)-1], "\n")
			}
			if last != '-' {
				cur.new[len(cur.new)-1] = strings.TrimSuffix(cur.new[len(cur.new)-1], "\n")
			}
		default:
			fail("line %q in hunk %q is not a diff line", l, cur.header)
		}
		last = l[0]
	}
	if (len(hs) == 0) != (before == after) {
		fail("%d hunks for texts that are equal: %v", len(hs), before == after)
	}
	oldEnd, newEnd := 0, 0 // 0-based line after the previous hunk, each side
	for _, h := range hs {
		if len(h.old) != h.oldN || len(h.new) != h.newN {
			fail("hunk %q has %d old and %d new lines", h.header, len(h.old), len(h.new))
		}
		if h.changes == 0 {
			fail("hunk %q changes nothing", h.header)
		}
		// A side with no lines names the line before the hunk (0: the top).
		oi, ni := h.oldStart-1, h.newStart-1
		if h.oldN == 0 {
			oi = h.oldStart
		}
		if h.newN == 0 {
			ni = h.newStart
		}
		if oi < oldEnd || ni < newEnd || oi+h.oldN > len(a) || ni+h.newN > len(b) {
			fail("hunk %q is out of order or out of the file (previous hunk ended at old line %d, new line %d; %d old, %d new lines)",
				h.header, oldEnd, newEnd, len(a), len(b))
		}
		if !same(a[oldEnd:oi], b[newEnd:ni]) {
			fail("the lines before hunk %q differ between old (from %d) and new (from %d): its new-side start is wrong", h.header, oldEnd+1, newEnd+1)
		}
		if !same(a[oi:oi+h.oldN], h.old) {
			fail("hunk %q: old lines %q are not the old file's %q", h.header, h.old, a[oi:oi+h.oldN])
		}
		if !same(b[ni:ni+h.newN], h.new) {
			fail("hunk %q: new lines %q are not the new file's %q at line %d", h.header, h.new, b[ni:ni+h.newN], ni+1)
		}
		oldEnd, newEnd = oi+h.oldN, ni+h.newN
	}
	if !same(a[oldEnd:], b[newEnd:]) {
		fail("the lines after the last hunk differ")
	}
}

// gitdiffApply applies diff to before with go-gitdiff's strict applier, which
// places each hunk exactly at its header's old line.
func gitdiffApply(t testing.TB, before, diff string) string {
	t.Helper()
	files, _, err := gitdiff.Parse(strings.NewReader(diff))
	if err != nil {
		t.Fatalf("go-gitdiff cannot read the diff: %v\n%s", err, diff)
	}
	if len(files) == 0 {
		return before
	}
	var out bytes.Buffer
	if err := gitdiff.Apply(&out, strings.NewReader(before), files[0]); err != nil {
		t.Fatalf("go-gitdiff cannot apply the diff: %v\nbefore %q\n%s", err, before, diff)
	}
	return out.String()
}

// previewPair makes a random old text and an edit of it: runs of inserted,
// deleted and changed lines, from a few words (repeated lines, where the LCS
// diff decides) and sometimes unique lines (which anchor the patience diff);
// LF or CRLF, with or without a final line ending on each side.
func previewPair(r *rand.Rand) (before, after string) {
	words := []string{"a", "b", "c", "if x:", "    return 1", "", "}", "\t// note"}
	uniq := r.Intn(2) == 0
	gen := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			if uniq && r.Intn(2) == 0 {
				out[i] = fmt.Sprintf("line %d", r.Intn(500))
			} else {
				out[i] = words[r.Intn(len(words))]
			}
		}
		return out
	}
	old := gen(r.Intn(120))
	nw := append([]string(nil), old...)
	for k := r.Intn(10); k > 0; k-- {
		pos := r.Intn(len(nw) + 1)
		switch n := 1 + r.Intn(4); r.Intn(3) {
		case 0:
			nw = append(nw[:pos], append(gen(n), nw[pos:]...)...)
		case 1:
			nw = append(nw[:pos], nw[min(pos+n, len(nw)):]...)
		default:
			for i := pos; i < min(pos+n, len(nw)); i++ {
				nw[i] += "!"
			}
		}
	}
	eol := []string{"\n", "\r\n"}[r.Intn(2)]
	join := func(ls []string) string {
		s := strings.Join(ls, eol)
		if len(ls) > 0 && r.Intn(4) > 0 {
			s += eol
		}
		return s
	}
	return join(old), join(nw)
}

// Property: for random texts and edits, every hunk header of the preview diff
// is right (checkDiff), the hunks are the ones a selection numbers, and a strict
// applier turns before into exactly after.
func TestPreviewDiffProperty(t *testing.T) {
	r := rand.New(rand.NewSource(25))
	n := 3000
	if testing.Short() {
		n = 300 // -short: the first 300 of the same cases
	}
	for i := 0; i < n; i++ {
		before, after := previewPair(r)
		diff := Unified("a/f.txt", "b/f.txt", []byte(before), []byte(after))
		checkDiff(t, before, after, diff)
		hs, err := ParseHunks(diff)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(hs) != fmt.Sprint(HunksOf([]byte(before), []byte(after))) {
			t.Fatalf("case %d: the preview's hunks are not HunksOf's", i)
		}
		if got := gitdiffApply(t, before, diff); got != after {
			t.Fatalf("case %d: applied diff gives %q, want %q\n%s", i, got, after, diff)
		}
	}
}

// git applies every preview diff of random edits with no hunk moved ("Hunk #2
// succeeded at 25 (offset 5 lines)" is what git said to a diff whose new-side
// start was wrong: it looks for a hunk at its new-side line) and the files
// become exactly the new texts.
func TestPreviewDiffGitApply(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("this test checks the preview diffs with git apply: install git (apt-get install git)")
	}
	r := rand.New(rand.NewSource(26))
	dir := t.TempDir()
	var patch strings.Builder
	want := map[string]string{}
	n := 400
	if testing.Short() {
		n = 40 // -short: the first 40 of the same files
	}
	for i := 0; i < n; i++ {
		before, after := previewPair(r)
		p := fmt.Sprintf("f%03d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = after
		if before != after {
			// As the preview shows an updated file: a git header, then the diff.
			patch.WriteString("diff --git a/" + p + " b/" + p + "\n" + Unified("a/"+p, "b/"+p, []byte(before), []byte(after)))
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "all.patch"), []byte(patch.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(git, "apply", "-v", "all.patch")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_DIR="+filepath.Join(dir, "no-repo"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "succeeded at") {
		t.Errorf("git had to move hunks, so their headers are wrong:\n%s", out)
	}
	for p, w := range want {
		got, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != w {
			t.Errorf("%s after git apply is %q, want %q", p, got, w)
		}
	}
}

// FuzzPreviewDiff: for any two texts, the preview diff's hunk headers are right
// (checkDiff), HunksOf numbers exactly the diff's hunks, and the diff applied
// strictly to before gives after byte for byte.
func FuzzPreviewDiff(f *testing.F) {
	f.Add(cartPy, strings.Replace(strings.Replace(cartPy, "        self.discount = percent\n", "        \"\"\"Doc.\"\"\"\n        self.discount = percent\n", 1),
		"total += price\n", "total += price * qty\n", 1)+"\n# end\n")
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("x\r\ny\r\n", "x\r\nz")
	f.Add("", "new\n")
	f.Add("old\n", "")
	f.Add("one\n\n\ntwo", "one\n\n\nthree\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nx\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ny\n12\n13\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		diff := Unified("a/f", "b/f", []byte(before), []byte(after))
		checkDiff(t, before, after, diff)
		var headers []string
		for _, h := range HunksOf([]byte(before), []byte(after)) {
			headers = append(headers, h.Header)
		}
		if shown := regexp.MustCompile(`(?m)^@@ .* @@$`).FindAllString(diff, -1); fmt.Sprint(shown) != fmt.Sprint(headers) {
			t.Fatalf("the diff shows %q, HunksOf numbers %q", shown, headers)
		}
		if got := gitdiffApply(t, before, diff); got != after {
			t.Fatalf("applied diff gives %q, want %q\n%s", got, after, diff)
		}
	})
}

// A draft previewed before the new-side starts were counted right stored
// "@@ -24,3 +20,5 @@"; its hunks are the same as now, so it is the same diff.
// A stored diff whose hunks differ (an old line, a body line, a count) is not.
func TestSameDiff(t *testing.T) {
	after := strings.Replace(strings.Replace(cartPy, "        self.discount = percent\n", "        \"\"\"Doc.\"\"\"\n        self.discount = percent\n", 1),
		"total += price\n", "total += price * qty\n", 1) + "\n# end\n"
	now := Unified("a/cart.py", "b/cart.py", []byte(cartPy), []byte(after))
	old := strings.Replace(now, "@@ -24,3 +25,5 @@", "@@ -24,3 +20,5 @@", 1)
	if old == now {
		t.Fatalf("the diff has no hunk @@ -24,3 +25,5 @@:\n%s", now)
	}
	if !SameDiff(old, now) || !SameDiff(now, now) {
		t.Errorf("a stored diff that differs only in new-side starts is not the same diff")
	}
	for _, bad := range []string{
		strings.Replace(now, "@@ -24,3 +25,5 @@", "@@ -23,3 +25,5 @@", 1),
		strings.Replace(now, "+# end", "+# END", 1),
		strings.Replace(now, "@@ -24,3 +25,5 @@", "@@ -24,3 +25,4 @@", 1),
	} {
		if SameDiff(bad, now) {
			t.Errorf("a stored diff with other hunks passes as the preview:\n%s", bad)
		}
	}
}
