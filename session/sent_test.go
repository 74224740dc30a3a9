package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
)

func str(s string) *string { return &s }

func TestLedgerReadFileSendsOnlyUnsentLines(t *testing.T) {
	l := newSentLedger()
	l.addSection(plan.Section{Title: "File big.py lines 3-5 of 8 (around the stack frames)", Body: "3 | c\n4 | d\n5 | e\n"})
	l.addSection(plan.Section{Title: "Environment", Body: "7 | not a file line\n"})
	res := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("big.py")},
		Text: "read_file big.py lines 1-8 of 8\n1 | a\n2 | b\n3 | c\n4 | d\n5 | e\n6 | f\n7 | g\n8 | h\n"}
	got := l.dedupe(res).Text
	want := "read_file big.py lines 1-8 of 8\n1 | a\n2 | b\n" +
		`[lines 3-5 of big.py: already sent in the base context, section "File big.py lines 3-5 of 8 (around the stack frames)"; not repeated]` + "\n" +
		"6 | f\n7 | g\n8 | h\n"
	if got != want {
		t.Fatalf("dedupe =\n%s\nwant\n%s", got, want)
	}
	// what round 1 sent is remembered too: asking again sends only references
	l.addResult(1, 0, res)
	again := l.dedupe(plan.ContextResult{OK: true, Request: res.Request, Text: "read_file big.py lines 1-2 of 8\n1 | a\n2 | b\n"}).Text
	if again != "read_file big.py lines 1-2 of 8\n[lines 1-2 of big.py: already sent in context round 1, request 1; not repeated]\n" {
		t.Fatalf("second read =\n%s", again)
	}
	// another file, and refusals, are untouched
	other := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("x.py")}, Text: "read_file x.py lines 1-1 of 1\n1 | c\n"}
	if l.dedupe(other).Text != other.Text {
		t.Fatal("a file never sent was changed")
	}
}

func TestLedgerSearchDropsWindowsAlreadySent(t *testing.T) {
	l := newSentLedger()
	l.addSection(plan.Section{Title: "File a-b.py lines 1-6 of 40 (failing test t)", Body: "1 | x\n2 | x\n3 | hit\n4 | x\n5 | x\n6 | x\n"})
	text := "search \"hit\": 2 matches in 2 files\n" +
		"a-b.py-1- x\na-b.py-2- x\na-b.py:3: hit\na-b.py-4- x\na-b.py-5- x\n--\n" +
		"c.py-9- y\nc.py:10: hit\n"
	got := l.dedupe(plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqSearch, Query: str("hit")}, Text: text}).Text
	want := "search \"hit\": 2 matches in 2 files\nc.py-9- y\nc.py:10: hit\n" +
		`[matches whose surrounding lines were already sent, not repeated: a-b.py:3 (the base context, section "File a-b.py lines 1-6 of 40 (failing test t)")]` + "\n"
	if got != want {
		t.Fatalf("dedupe =\n%s\nwant\n%s", got, want)
	}
}

// bigProject is a project with app.py, a 300-line file whose line 150 raises:
// the base context shows lines 70-230 around it.
func bigProject(t testing.TB) (string, string) {
	t.Helper()
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		if i == 150 {
			b.WriteString("    raise ValueError('boom')  # line 150\n")
			continue
		}
		fmt.Fprintf(&b, "x%d = %d  # filler line %d\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(root, "app.py"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	problem := "Traceback (most recent call last):\n  File \"app.py\", line 150, in <module>\n    raise ValueError('boom')\nValueError: boom\n"
	return root, problem
}

func openWith(t testing.TB, root string, srv *llmtest.Server, mod func(*Settings)) *Session {
	t.Helper()
	m, err := openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake-model", APIKey: apiKey, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(t.TempDir(), "preferences.json")
	st := DefaultSettings()
	st.BaseURL, st.Model = srv.URL(), "fake-model"
	if mod != nil {
		mod(&st)
	}
	s, err := Open(root, st, m, nil, Options{UserPrefsPath: user, ConfigDir: filepath.Dir(user)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The model asks for a whole file the base context already showed in part: round
// 2's request carries only the lines it did not have, and a reference for the rest.
func TestPlanDoesNotRepeatLinesAlreadySent(t *testing.T) {
	root, problem := bigProject(t)
	srv := llmtest.NewServer(t,
		reply(t, requests(map[string]any{"type": "read_file", "path": "app.py"}, map[string]any{"type": "search", "query": "raise ValueError"})),
		reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	s := openWith(t, root, srv, nil)
	rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(srv.Requests()[0].LastUser(), "raise ValueError('boom')  # line 150") {
		t.Fatal("the base context did not show the failing line")
	}
	second := srv.Requests()[1]
	results := second.LastUser()
	// The base context shows lines 70-230 around the stack frame, and definitions
	// of names used there in sections of their own: one reference covers them all.
	ref := regexp.MustCompile(`\[lines (\d+)-(\d+) of app\.py: already sent in the base context[^\]]*; not repeated\]`).FindAllStringSubmatch(results, -1)
	if len(ref) != 1 {
		t.Fatalf("round 1 results do not refer once to the lines already sent:\n%.2000s", results)
	}
	from, _ := strconv.Atoi(ref[0][1])
	to, _ := strconv.Atoi(ref[0][2])
	if from > 70 || to < 230 {
		t.Fatalf("the reference covers lines %d-%d, want at least 70-230", from, to)
	}
	for n := 1; n <= 300; n++ {
		has := strings.Contains(results, fmt.Sprintf("\n%3d | x%d = %d", n, n, n))
		if in := n >= from && n <= to; has == in {
			t.Fatalf("line %d: sent again %v, inside the reference %v:\n%.3000s", n, has, in, results)
		}
	}
	if n := strings.Count(string(second.Body), "# filler line 100"); n != 1 {
		t.Fatalf("line 100 went to the model %d times in request 2, want once", n)
	}
	if !strings.Contains(results, "[matches whose surrounding lines were already sent, not repeated: app.py:150") {
		t.Fatalf("the search repeated the window around line 150:\n%.3000s", results)
	}
	if rec.Usage == nil || rec.Usage.RepeatsAvoided <= 0 {
		t.Fatalf("usage = %+v, want the repeats avoided counted", rec.Usage)
	}
	// the record keeps exactly what was sent
	if !strings.Contains(rec.Rounds[0].Results[0].Text, "not repeated") || rec.Rounds[0].Results[0].Tokens == 0 {
		t.Fatalf("recorded result = %+v", rec.Rounds[0].Results[0])
	}
}

// A read of one line the base context already showed is not replaced by a
// reference longer than the line: the model gets the line, and no negative
// "tokens not sent again" is reported (it read "-8 tokens the model already had").
func TestPlanSendsAShortRepeatRatherThanALongerReference(t *testing.T) {
	root, problem := bigProject(t)
	srv := llmtest.NewServer(t,
		reply(t, requests(map[string]any{"type": "read_file", "path": "app.py", "start_line": 150, "end_line": 150})),
		reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	s := openWith(t, root, srv, nil)
	rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
	if err != nil {
		t.Fatal(err)
	}
	results := srv.Requests()[1].LastUser()
	if !strings.Contains(results, "150 | ") || strings.Contains(results, "not repeated") {
		t.Fatalf("round 1 result should carry line 150 itself:\n%.2000s", results)
	}
	if rec.Usage == nil || rec.Usage.RepeatsAvoided != 0 {
		t.Fatalf("usage = %+v, want no repeats avoided (and never a negative count)", rec.Usage)
	}
}

// Lines the base context showed in many one-line sections (definitions) are one
// reference, not one per line: a reference per line made the "deduplicated"
// result longer than the lines themselves.
func TestLedgerOneReferenceForLinesSentInManySections(t *testing.T) {
	l := newSentLedger()
	var want strings.Builder
	want.WriteString("read_file d.py lines 1-12 of 12\n")
	var body strings.Builder
	for i := 1; i <= 12; i++ {
		line := fmt.Sprintf("%d | x%d = %d", i, i, i)
		if i >= 3 && i <= 10 {
			l.addSection(plan.Section{Title: fmt.Sprintf("File d.py lines %d-%d of 12 (definition of x%d)", i, i, i), Body: line + "\n"})
		}
		body.WriteString(line + "\n")
	}
	l.addResult(1, 0, plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("d.py")}, Text: "read_file d.py lines 10-11 of 12\n10 | x10 = 10\n11 | x11 = 11\n"})
	res := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("d.py")}, Text: "read_file d.py lines 1-12 of 12\n" + body.String()}
	got := l.dedupe(res).Text
	exp := "read_file d.py lines 1-12 of 12\n1 | x1 = 1\n2 | x2 = 2\n" +
		"[lines 3-11 of d.py: already sent in the base context and context round 1, request 1; not repeated]\n" +
		"12 | x12 = 12\n"
	if got != exp {
		t.Fatalf("dedupe =\n%s\nwant\n%s", got, exp)
	}
}

// A line whose text changed since it was sent (a hook during the plan, an edit
// after approval) is not "already sent": the model gets the current line, in a
// read and in a search.
func TestLedgerSendsChangedLinesAgain(t *testing.T) {
	l := newSentLedger()
	l.addSection(plan.Section{Title: "File a.py lines 1-3 of 3 (failing test t)", Body: "1 | x = 1\n2 | hit = old\n3 | z = 3\n"})
	res := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("a.py")},
		Text: "read_file a.py lines 1-3 of 3\n1 | x = 1\n2 | hit = NEW\n3 | z = 3\n"}
	got := l.dedupe(res).Text
	if !strings.Contains(got, "2 | hit = NEW\n") || strings.Contains(got, "lines 1-3 of a.py: already sent") {
		t.Fatalf("the changed line 2 was not sent again:\n%s", got)
	}
	search := "search \"hit\": 1 match in 1 file\na.py-1- x = 1\na.py:2: hit = NEW\na.py-3- z = 3\n"
	if got := l.dedupe(plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqSearch, Query: str("hit")}, Text: search}).Text; got != search {
		t.Fatalf("a search window with a changed line was dropped:\n%s", got)
	}
	// once sent again, the new text is what counts
	l.addResult(1, 0, res)
	if got := l.dedupe(res).Text; strings.Contains(got, "hit = NEW") {
		t.Fatalf("the new line was repeated after it was sent:\n%s", got)
	}
}
