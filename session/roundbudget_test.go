package session

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A context round sends at most context_budget bytes of results, request lines
// included: results are cut to their share, and the requests left without room
// are refused together in one line (docs/CONTRACT.md §5.5).
func TestContextRoundIsCappedAtTheContextBudget(t *testing.T) {
	const budget = 6000
	var reqs []map[string]any
	for i := 1; i <= 8; i++ {
		reqs = append(reqs, map[string]any{"type": "read_file", "path": fmt.Sprintf("big%d.py", i)})
	}
	f := newFixtureWith(t, nil, func(st *Settings) { st.ContextBudget = budget }, reply(t, requests(reqs...)), reply(t, nil))
	for i := 1; i <= 8; i++ { // 120 lines of about 40 bytes each
		var b strings.Builder
		for l := 1; l <= 120; l++ {
			fmt.Fprintf(&b, "VALUE_%d_%03d = %q\n", i, l, strings.Repeat("x", 20))
		}
		if err := os.WriteFile(filepath.Join(f.root, fmt.Sprintf("big%d.py", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	last := f.srv.Requests()[1].LastUser()
	body := last[strings.Index(last, "\n--- request"):strings.LastIndex(last, "\n\nAnswer again")]
	if len(body) > budget+200 {
		t.Errorf("the round sent %d bytes of results, over its budget of %d:\n%s", len(body), budget, body)
	}
	if !strings.Contains(body, "…[truncated") {
		t.Errorf("no result was cut to its share:\n%s", body)
	}
	oneLine := regexp.MustCompile(`--- requests \d to 8: NOT FULFILLED: this round's context budget \(6000 bytes\) is used up`)
	if n := strings.Count(body, "NOT FULFILLED"); n != 1 || !oneLine.MatchString(body) {
		t.Errorf("the requests left without room are not refused in one line (%d):\n%s", n, body)
	}
	rd := rec.Rounds[0]
	if len(rd.Results) != 8 || !rd.Results[0].OK || rd.Results[7].OK {
		t.Fatalf("results = %+v", rd.Results)
	}
	for _, res := range rd.Results {
		for _, s := range res.Seen {
			if s.Whole && strings.Contains(res.Text, "…[truncated") {
				t.Errorf("%s was cut but counts as seen whole", s.Path)
			}
		}
	}
}
