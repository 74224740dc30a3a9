package plan

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// plainScan is the scan without memory: the value starting at s[i] read on its
// own, byte after byte (quadratic over all starts). brackets must agree with it.
func plainScan(s []byte, i int) (end int, ok bool) {
	var stack []byte
	var st strScan
	for j := i; j < len(s); j++ {
		c := s[j]
		if st.inString(c) {
			continue
		}
		switch c {
		case '{', '[':
			stack = append(stack, closer(c))
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return j, false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j + 1, true
			}
		}
	}
	return len(s), false
}

// What failed scans teach later ones never changes an answer: every start of
// random texts of brackets, quotes and backslashes (random bytes, or a short
// unit repeated with a byte slipped in now and then), asked in order and in a
// random order, gets the plain scan's answer.
func TestBracketsMatchPlainScan(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	alphabets := []string{`{}[]"\ a`, `{[""\`, `[[[]"`, `{{}"\\`, `{}[]`, `{]"\`, `[}"\`, `{{[[}]"\\\`}
	for n := 0; n < 20000; n++ {
		alpha := alphabets[n%len(alphabets)]
		size := 1 + r.Intn(100)
		var b []byte
		if n%2 == 0 {
			for range size {
				b = append(b, alpha[r.Intn(len(alpha))])
			}
		} else {
			unit := make([]byte, 1+r.Intn(8))
			for k := range unit {
				unit[k] = alpha[r.Intn(len(alpha))]
			}
			for len(b) < size {
				b = append(b, unit...)
				if r.Intn(4) == 0 {
					b = append(b, alpha[r.Intn(len(alpha))])
				}
			}
		}
		var starts []int
		for k, c := range b {
			if c == '{' || c == '[' {
				starts = append(starts, k)
			}
		}
		if n%3 == 1 {
			r.Shuffle(len(starts), func(x, y int) { starts[x], starts[y] = starts[y], starts[x] })
		}
		br := newBrackets(b, workBudget(len(b)))
		for _, i := range starts {
			wantEnd, wantOK := plainScan(b, i)
			end, ok, err := br.scan(i)
			if err != nil {
				t.Fatalf("%q from %d: %v", b, i, err)
			}
			if ok != wantOK || ok && end != wantEnd {
				t.Fatalf("%q from %d: (%d, %v), want (%d, %v)", b, i, end, ok, wantEnd, wantOK)
			}
		}
	}
}

// bracketWork counts the bytes the scans of extract read for a reply: a scan
// from each bracket, past the values found.
func bracketWork(s []byte) int {
	br := newBrackets(s, 1<<62)
	for i := 0; i < len(s); i++ {
		if s[i] == '{' || s[i] == '[' {
			if end, ok, _ := br.scan(i); ok {
				i = end - 1
			}
		}
	}
	return 1<<62 - br.steps
}

// hostile are replies that never close their brackets, built to make a scan
// from every bracket read to the end (issue 22: 200 KB of '[' kept the
// extractor busy for minutes, 4 MiB for days).
var hostile = []struct{ name, unit string }{
	{"[", "["},
	{"{", "{"},
	{"mixed", "{[[{"},
	{"quotes", `{"`},
	{"escaped quotes", `{\"`},
	{"keys", `{"a":[`},
	{"strings with brackets", `["{[\"`},
	{"closed and unclosed", `[[]{`},
	{"backslashes", `{"\\\"[`},
	// What the Python-literal and # comment repairs read: quotes of both
	// kinds, triple quotes and comments that never end.
	{"single quotes", `{'`},
	{"triple quotes", `['''{`},
	{"comments", `{# "[`},
}

// The scans of a hostile reply read each byte a few times, whatever its size
// (random texts and a search for the costliest one peaked at 6.4 reads a byte).
func TestBracketWorkIsLinear(t *testing.T) {
	for _, h := range hostile {
		for _, size := range []int{64 << 10, 256 << 10} {
			s := bytes.Repeat([]byte(h.unit), size/len(h.unit))
			if w := bracketWork(s); w > 6*len(s) {
				t.Errorf("%s × %d bytes: the scans read %d bytes (%.1f per byte)", h.name, len(s), w, float64(w)/float64(len(s)))
			}
		}
	}
}

// A reply of unclosed brackets is refused with ERR_JSON_EXTRACT, not searched
// for ever: 200 KB and 4 MiB of each hostile pattern (the old extractor read
// ~2·10¹⁰ and ~8·10¹² bytes for them).
func TestExtractHostileReplies(t *testing.T) {
	sizes := []int{200 << 10, 4 << 20}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, h := range hostile {
		for _, size := range sizes {
			wraps := []string{"%s", "Here is the plan:\n%s", "```json\n%s\n```"}
			if size > 1<<20 {
				wraps = wraps[:1] // 4 MiB: 0.1–0.5 s each on a loaded machine
			}
			for _, wrap := range wraps {
				body := strings.Repeat(h.unit, size/len(h.unit))
				raw := fmt.Sprintf(wrap, body)
				_, err := Parse([]byte(raw))
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Code != ErrJSONExtract {
					t.Fatalf("%s × %d in %q: %v, want ERR_JSON_EXTRACT", h.name, size, wrap, err)
				}
				if len(pe.Issues) != 1 || !strings.HasPrefix(pe.Issues[0], "/: the reply ") {
					t.Errorf("%s × %d: issues %q", h.name, size, pe.Issues)
				}
			}
		}
	}
}

// A cut-off plan buried in unclosed brackets is still reported as truncated.
func TestExtractTruncatedAfterBrackets(t *testing.T) {
	raw := strings.Repeat("[", 200<<10) + `{"mode":"fix-plan","summary":"cut`
	_, err := Parse([]byte(raw))
	var pe *ParseError
	if !errors.As(err, &pe) || !pe.Truncated {
		t.Fatalf("%v, want a truncated reply", err)
	}
}

// A plan after unclosed prose brackets is still found.
func TestExtractPlanAfterUnclosedBrackets(t *testing.T) {
	plan := `{"summary":"after the brackets","plan":[{"step":"s","details":"d"}]}`
	for _, prefix := range []string{strings.Repeat("[", 100<<10), strings.Repeat(`[\"`, 30<<10), `He said "see [1` + "\n"} {
		got, err := Parse([]byte(prefix + "\n" + plan))
		if err != nil {
			t.Fatalf("%.20q…: %v", prefix, err)
		}
		if got.Plan.Summary != "after the brackets" {
			t.Errorf("summary %q", got.Plan.Summary)
		}
	}
}

// The budget stops what memory does not make cheap, with a clear refusal.
func TestExtractWorkBudget(t *testing.T) {
	s := []byte(strings.Repeat("[", 1000))
	br := newBrackets(s, 500)
	if _, _, err := br.scan(0); !errors.Is(err, errWorkBudget) {
		t.Fatalf("scan with 500 steps over 1000 bytes: %v", err)
	}
	e := budgetErr(len(s))
	if e.Code != ErrJSONExtract || !strings.Contains(e.Issues[0], "could not be matched within the work allowed for its 1000 bytes") {
		t.Errorf("budget error %v", e)
	}
}

// BenchmarkExtractUnclosed shows the extraction's time growing with the size of
// a reply of unclosed brackets, not with its square (MB/s stays flat).
func BenchmarkExtractUnclosed(b *testing.B) {
	for _, h := range hostile[:5] {
		for _, size := range []int{64 << 10, 256 << 10, 1 << 20, 4 << 20} {
			raw := bytes.Repeat([]byte(h.unit), size/len(h.unit))
			b.Run(fmt.Sprintf("%s/%dKiB", h.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(raw)))
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := extract(raw); err == nil {
						b.Fatal("extracted a value from unclosed brackets")
					}
				}
			})
		}
	}
}
