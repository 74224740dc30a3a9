package edit

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
)

// lines builds "l1\nl2\n…ln\n" with the given line replaced (1-based → text).
func lines(n int, repl map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if r, ok := repl[i]; ok {
			b.WriteString(r)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

func TestSelectHunks(t *testing.T) {
	before := lines(20, nil)
	// Three hunks: line 2 changed, a line added after 10, line 19 removed.
	after := lines(20, map[int]string{2: "TWO\n", 10: "line 10\nadded\n", 19: ""})
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	noEOL := func(s string) string { return strings.TrimSuffix(s, "\n") }
	tests := []struct {
		name          string
		before, after string
		accept        []int
		want          string
	}{
		{"all", before, after, []int{1, 2, 3}, after},
		{"none", before, after, nil, before},
		{"reject first", before, after, []int{2, 3}, lines(20, map[int]string{10: "line 10\nadded\n", 19: ""})},
		{"reject middle", before, after, []int{1, 3}, lines(20, map[int]string{2: "TWO\n", 19: ""})},
		{"reject last", before, after, []int{1, 2}, lines(20, map[int]string{2: "TWO\n", 10: "line 10\nadded\n"})},
		{"only middle", before, after, []int{2}, lines(20, map[int]string{10: "line 10\nadded\n"})},
		{"crlf reject middle", crlf(before), crlf(after), []int{1, 3}, crlf(lines(20, map[int]string{2: "TWO\n", 19: ""}))},
		{"crlf all", crlf(before), crlf(after), []int{1, 2, 3}, crlf(after)},
		{"no final newline, last hunk rejected", noEOL(before), noEOL(lines(20, map[int]string{2: "TWO\n", 20: "LAST\n"})), []int{1},
			noEOL(lines(20, map[int]string{2: "TWO\n"}))},
		{"no final newline, last hunk accepted", noEOL(before), noEOL(lines(20, map[int]string{2: "TWO\n", 20: "LAST\n"})), []int{2},
			noEOL(lines(20, map[int]string{20: "LAST\n"}))},
		{"final newline added, rejected", noEOL(before), lines(20, map[int]string{2: "TWO\n"}), []int{1},
			noEOL(lines(20, map[int]string{2: "TWO\n"}))},
		{"final newline added, accepted", noEOL(before), lines(20, map[int]string{2: "TWO\n"}), []int{2},
			lines(20, nil)},
		{"new file, accepted", "", "a\nb\n", []int{1}, "a\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SelectHunks([]byte(tt.before), []byte(tt.after), tt.accept)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q\ndiff:\n%s", got, tt.want, udiff.Unified("want", "got", tt.want, string(got)))
			}
		})
	}
}

func TestSelectHunksRefusesUnknownHunk(t *testing.T) {
	before, after := lines(20, nil), lines(20, map[int]string{2: "TWO\n"})
	for _, n := range []int{0, 2, -1} {
		if _, err := SelectHunks([]byte(before), []byte(after), []int{n}); err == nil || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("hunk %d: err = %v", n, err)
		}
	}
}

// Property: for random texts and edits (LF or CRLF, with or without a final
// newline), accepting every hunk gives after and accepting none gives before.
func TestSelectHunksProperty(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	words := []string{"a", "b", "c", "if x:", "    return 1", "", "}", "\t// note"}
	gen := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = words[r.Intn(len(words))]
		}
		return out
	}
	join := func(ls []string, eol string, final bool) string {
		s := strings.Join(ls, eol)
		if final && len(ls) > 0 {
			s += eol
		}
		return s
	}
	for i := 0; i < 500; i++ {
		old := gen(r.Intn(60))
		nw := append([]string(nil), old...)
		for k := r.Intn(6); k > 0; k-- {
			switch pos := r.Intn(len(nw) + 1); r.Intn(3) {
			case 0:
				nw = append(nw[:pos], append(gen(1+r.Intn(3)), nw[pos:]...)...)
			case 1:
				if pos < len(nw) {
					nw = append(nw[:pos], nw[pos+1:]...)
				}
			default:
				if pos < len(nw) {
					nw[pos] = words[r.Intn(len(words))] + "!"
				}
			}
		}
		eol := []string{"\n", "\r\n"}[r.Intn(2)]
		before := join(old, eol, r.Intn(4) > 0)
		after := join(nw, eol, r.Intn(4) > 0)
		hs := HunksOf([]byte(before), []byte(after))
		all := make([]int, len(hs))
		for j := range hs {
			all[j] = j + 1
		}
		if got, err := SelectHunks([]byte(before), []byte(after), all); err != nil || string(got) != after {
			t.Fatalf("case %d: all hunks: %v\nbefore %q\nafter  %q\ngot    %q", i, err, before, after, got)
		}
		if got, err := SelectHunks([]byte(before), []byte(after), nil); err != nil || string(got) != before {
			t.Fatalf("case %d: no hunk: %v\nbefore %q\ngot    %q", i, err, before, got)
		}
	}
}

// Several separate edits that change more lines in all than udiff's own search
// handles (about 50) stay separate hunks in the preview diff, so each can be
// accepted or rejected on its own (udiff alone merges some of them into one
// block).
func TestManySeparateEditsStaySeparateHunks(t *testing.T) {
	repl := map[int]string{}
	for block := 0; block < 6; block++ {
		for k := 0; k < 12; k++ {
			n := 10 + block*60 + k
			repl[n] = fmt.Sprintf("rewritten %d\n", n)
		}
	}
	before, after := lines(400, nil), lines(400, repl)
	hs := HunksOf([]byte(before), []byte(after))
	if len(hs) != 6 {
		t.Fatalf("the diff shows %d hunks, want 6:\n%s", len(hs), Unified("a", "b", []byte(before), []byte(after)))
	}
	for _, h := range hs {
		if len(h.Old) != 18 || len(h.New) != 18 { // 12 changed lines and 3 lines of context each side
			t.Errorf("hunk %d: %d old, %d new lines", h.N, len(h.Old), len(h.New))
		}
	}
	// Rejecting the third block keeps exactly its original lines.
	got, err := SelectHunks([]byte(before), []byte(after), []int{1, 2, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{}
	for n, l := range repl {
		if n < 130 || n >= 142 {
			want[n] = l
		}
	}
	if string(got) != lines(400, want) {
		t.Errorf("rejecting hunk 3 gave:\n%s", udiff.Unified("want", "got", lines(400, want), string(got)))
	}
}

// FuzzSelectHunks: for any two texts, accepting every hunk of the preview diff
// gives the new text and accepting none the old one, byte for byte.
func FuzzSelectHunks(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("x\r\ny\r\n", "x\r\nz")
	f.Add("", "new\n")
	f.Add("one\n\n\ntwo", "one\n\n\nthree\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		hs := HunksOf([]byte(before), []byte(after))
		all := make([]int, len(hs))
		for i := range hs {
			all[i] = i + 1
		}
		if got, err := SelectHunks([]byte(before), []byte(after), all); err != nil || string(got) != after {
			t.Fatalf("all hunks: %v\nbefore %q\nafter  %q\ngot    %q", err, before, after, got)
		}
		if got, err := SelectHunks([]byte(before), []byte(after), nil); err != nil || string(got) != before {
			t.Fatalf("no hunk: %v\nbefore %q\ngot    %q", err, before, got)
		}
	})
}
