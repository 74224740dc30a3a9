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
