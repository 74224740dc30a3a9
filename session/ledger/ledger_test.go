package ledger

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/plan"
)

func str(s string) *string { return &s }

func TestLedgerReadFileSendsOnlyUnsentLines(t *testing.T) {
	l := New()
	l.AddSection(plan.Section{Title: "File big.py lines 3-5 of 8 (around the stack frames)", Body: "3 | c\n4 | d\n5 | e\n"})
	l.AddSection(plan.Section{Title: "Environment", Body: "7 | not a file line\n"})
	res := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("big.py")},
		Text: "read_file big.py lines 1-8 of 8\n1 | a\n2 | b\n3 | c\n4 | d\n5 | e\n6 | f\n7 | g\n8 | h\n"}
	got := l.Dedupe(res).Text
	want := "read_file big.py lines 1-8 of 8\n1 | a\n2 | b\n" +
		`[lines 3-5 of big.py: already sent in the base context, section "File big.py lines 3-5 of 8 (around the stack frames)"; not repeated]` + "\n" +
		"6 | f\n7 | g\n8 | h\n"
	if got != want {
		t.Fatalf("dedupe =\n%s\nwant\n%s", got, want)
	}
	// what round 1 sent is remembered too: asking again sends only references
	l.AddResult(1, 0, res)
	again := l.Dedupe(plan.ContextResult{OK: true, Request: res.Request, Text: "read_file big.py lines 1-2 of 8\n1 | a\n2 | b\n"}).Text
	if again != "read_file big.py lines 1-2 of 8\n[lines 1-2 of big.py: already sent in context round 1, request 1; not repeated]\n" {
		t.Fatalf("second read =\n%s", again)
	}
	// another file, and refusals, are untouched
	other := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("x.py")}, Text: "read_file x.py lines 1-1 of 1\n1 | c\n"}
	if l.Dedupe(other).Text != other.Text {
		t.Fatal("a file never sent was changed")
	}
}

func TestLedgerSearchDropsWindowsAlreadySent(t *testing.T) {
	l := New()
	l.AddSection(plan.Section{Title: "File a-b.py lines 1-6 of 40 (failing test t)", Body: "1 | x\n2 | x\n3 | hit\n4 | x\n5 | x\n6 | x\n"})
	text := "search \"hit\": 2 matches in 2 files\n" +
		"a-b.py-1- x\na-b.py-2- x\na-b.py:3: hit\na-b.py-4- x\na-b.py-5- x\n--\n" +
		"c.py-9- y\nc.py:10: hit\n"
	got := l.Dedupe(plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqSearch, Query: str("hit")}, Text: text}).Text
	want := "search \"hit\": 2 matches in 2 files\nc.py-9- y\nc.py:10: hit\n" +
		`[matches whose surrounding lines were already sent, not repeated: a-b.py:3 (the base context, section "File a-b.py lines 1-6 of 40 (failing test t)")]` + "\n"
	if got != want {
		t.Fatalf("dedupe =\n%s\nwant\n%s", got, want)
	}
}

// bigProject is a project with app.py, a 300-line file whose line 150 raises:
// the base context shows lines 70-230 around it.

func TestLedgerOneReferenceForLinesSentInManySections(t *testing.T) {
	l := New()
	var want strings.Builder
	want.WriteString("read_file d.py lines 1-12 of 12\n")
	var body strings.Builder
	for i := 1; i <= 12; i++ {
		line := fmt.Sprintf("%d | x%d = %d", i, i, i)
		if i >= 3 && i <= 10 {
			l.AddSection(plan.Section{Title: fmt.Sprintf("File d.py lines %d-%d of 12 (definition of x%d)", i, i, i), Body: line + "\n"})
		}
		body.WriteString(line + "\n")
	}
	l.AddResult(1, 0, plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("d.py")}, Text: "read_file d.py lines 10-11 of 12\n10 | x10 = 10\n11 | x11 = 11\n"})
	res := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("d.py")}, Text: "read_file d.py lines 1-12 of 12\n" + body.String()}
	got := l.Dedupe(res).Text
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
	l := New()
	l.AddSection(plan.Section{Title: "File a.py lines 1-3 of 3 (failing test t)", Body: "1 | x = 1\n2 | hit = old\n3 | z = 3\n"})
	res := plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqReadFile, Path: str("a.py")},
		Text: "read_file a.py lines 1-3 of 3\n1 | x = 1\n2 | hit = NEW\n3 | z = 3\n"}
	got := l.Dedupe(res).Text
	if !strings.Contains(got, "2 | hit = NEW\n") || strings.Contains(got, "lines 1-3 of a.py: already sent") {
		t.Fatalf("the changed line 2 was not sent again:\n%s", got)
	}
	search := "search \"hit\": 1 match in 1 file\na.py-1- x = 1\na.py:2: hit = NEW\na.py-3- z = 3\n"
	if got := l.Dedupe(plan.ContextResult{OK: true, Request: plan.ContextRequest{Type: plan.ReqSearch, Query: str("hit")}, Text: search}).Text; got != search {
		t.Fatalf("a search window with a changed line was dropped:\n%s", got)
	}
	// once sent again, the new text is what counts
	l.AddResult(1, 0, res)
	if got := l.Dedupe(res).Text; strings.Contains(got, "hit = NEW") {
		t.Fatalf("the new line was repeated after it was sent:\n%s", got)
	}
}
