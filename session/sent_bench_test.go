package session

import (
	"context"
	"strings"
	"testing"

	codectx "fixplan/context"
	"fixplan/llm/llmtest"
	"fixplan/plan"
	"fixplan/tokens"
)

// BenchmarkTokensPerPlanNoRepeats measures the tokens a scripted two-round plan
// sends (all requests together, counted with o200k_base) with the no-repeat
// rule, and what the same plan would send if each result repeated the lines the
// model already had (the results as the gatherer makes them, before the
// ledger). The project is a 300-line app.py failing at line
// 150, so the base context shows lines 70-230; round 1 reads app.py whole and
// searches for the raise, round 2 reads lines 100-200 again.
func BenchmarkTokensPerPlanNoRepeats(b *testing.B) {
	t := &testing.T{} // reply only marshals a map with it
	root, problem := bigProject(b)
	c := tokens.For("gpt-4o")
	var after, before int
	for b.Loop() {
		srv := llmtest.NewServer(b,
			reply(t, requests(map[string]any{"type": "read_file", "path": "app.py"}, map[string]any{"type": "search", "query": "raise ValueError"})),
			reply(t, requests(map[string]any{"type": "read_file", "path": "app.py", "start_line": 100, "end_line": 200})),
			reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
		s := openWith(b, root, srv, nil)
		rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
		if err != nil {
			b.Fatal(err)
		}
		reqs := srv.Requests()
		after = 0
		for _, r := range reqs {
			var contents []string
			for _, m := range r.Messages {
				contents = append(contents, m.Content)
			}
			after += c.Messages(contents...)
		}
		// the same results as the gatherer makes them: each round's extra tokens
		// travel in every later request
		g, err := codectx.New(root, codectx.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		before = after
		for k, rd := range rec.Rounds {
			extra := 0
			for i, res := range rd.Results {
				orig := g.Fulfil(context.Background(), rec.Input, rd.Requests[i])
				extra += c.Count(orig.Text) - c.Count(res.Text)
			}
			before += extra * (len(reqs) - 1 - k)
		}
		g.Close()
		s.Close()
		if !strings.Contains(reqs[2].LastUser(), "not repeated") {
			b.Fatal("round 2 repeated the lines")
		}
	}
	b.ReportMetric(float64(before), "tokens-before/plan")
	b.ReportMetric(float64(after), "tokens-after/plan")
	b.ReportMetric(100*float64(before-after)/float64(before), "%saved")
}
