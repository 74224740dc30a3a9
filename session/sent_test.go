package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	if !strings.Contains(results, "[lines 70-230 of app.py: already sent in the base context, section \"File app.py lines 70-230 of 300 (around the stack frames)\"; not repeated]") {
		t.Fatalf("round 1 results do not refer to the lines already sent:\n%.2000s", results)
	}
	if !strings.Contains(results, " 69 | x69 = 69") || !strings.Contains(results, "231 | x231 = 231") || strings.Contains(results, " 70 | x70 = 70") {
		t.Fatalf("round 1 results do not hold exactly the unsent lines:\n%.3000s", results)
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
