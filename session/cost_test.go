package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
	"fixplan/tokens"
)

// problem is the fixture's plan input (f.plan's).
func problem() plan.ProblemInput {
	return plan.ProblemInput{Problem: "test_divide_by_zero fails:\n" + pytestFailure}
}

// received counts a recorded request's messages as fixplan counts them.
func received(r llmtest.Recorded, c tokens.Counter) int {
	contents := make([]string, len(r.Messages))
	for i, m := range r.Messages {
		contents[i] = m.Content
	}
	return c.Messages(contents...)
}

// The estimate is the first request as it is then sent: its messages count what
// the server receives, token for token, and the reply cap is the one sent. (No
// tool is on PATH: a version probe that finishes between the estimate and the
// plan changes the Environment section by a few tokens.)
func TestEstimateIsTheFirstRequestAsSent(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	f := newFixtureWith(t, nil, func(st *Settings) { st.MaxTokens = 2000 }, reply(t, nil))
	est, err := f.s.Estimate(context.Background(), problem())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Fatalf("the estimate sent %d request(s)", n)
	}
	if len(f.ev.ev) != 0 {
		t.Errorf("the estimate reported progress: %+v", f.ev.ev)
	}
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	first := f.srv.Requests()[0]
	c := tokens.For(DefaultSettings().Model)
	if got := received(first, c); est.PromptTokens != got || est.Tokenizer != c.Tokenizer() || c.Estimated() {
		t.Errorf("estimated %d prompt tokens (%s), the server received %d", est.PromptTokens, est.Tokenizer, got)
	}
	if want := tokens.PerMessage + c.Count(string(plan.Schema())); est.SchemaTokens != want {
		t.Errorf("schema tokens = %d, want %d", est.SchemaTokens, want)
	}
	if mt, _ := first.JSON["max_tokens"].(float64); est.ReplyTokens != 2000 || int(mt) != est.ReplyTokens {
		t.Errorf("reply cap estimated %d, sent %v", est.ReplyTokens, first.JSON["max_tokens"])
	}
	if est.FirstTokens != est.PromptTokens+est.SchemaTokens+est.ReplyTokens || est.RoundsTokens <= est.FirstTokens || est.WorstTokens <= est.RoundsTokens ||
		est.WorstRequests != 12 || est.FirstCost != nil || !strings.Contains(strings.Join(est.Notes, "; "), NoPrices) {
		t.Errorf("estimate = %+v", est)
	}
	t.Logf("estimated %d prompt tokens + %d schema + %d reply cap; the server received %d message tokens (it reported %d prompt tokens at 4 bytes a token)",
		est.PromptTokens, est.SchemaTokens, est.ReplyTokens, received(first, c), rec.Calls[0].PromptTokens)
	var announced string
	for _, ev := range f.ev.ev {
		if ev.Stage == StageEstimate {
			announced = ev.Message
		}
	}
	if !strings.HasPrefix(announced, "estimate: the first request takes ") || !strings.Contains(announced, NoPrices) {
		t.Errorf("the plan did not announce its estimate before sending: %q", announced)
	}
}

// worstCase follows the loop: three context-sized growths (two rounds and the
// read of unseen files), then two corrections, each ask with one repair.
func TestWorstCaseFollowsTheLoop(t *testing.T) {
	rounds, all := worstCase(100, 10, 50, 1000, 0)
	// prompts of the six asks: 100, then +50+1000 three times, then +50+2048 twice
	prompts := []int{100, 1150, 2200, 3250, 5348, 7446}
	var want spend
	for _, p := range prompts {
		want = want.add(spend{p + 10, 50}).add(spend{p + 50 + correctionAllowance + 10, 50})
	}
	if all != want {
		t.Errorf("every request = %+v, want %+v", all, want)
	}
	if want := (spend{100 + 1150 + 2200 + 30, 150}); rounds != want {
		t.Errorf("with both rounds = %+v, want %+v", rounds, want)
	}
	// a known window bounds every later prompt (and every repair) to the window less the reply
	if _, bounded := worstCase(100, 10, 50, 1000, 1000); bounded != (spend{110 + 960 + 5*(960+960), 12 * 50}) {
		t.Errorf("with a window of 1000 tokens = %+v", bounded)
	}
}

// estimateFor is the estimate of the fixture's problem.
func estimateFor(t *testing.T, f *fixture) Estimate {
	t.Helper()
	est, err := f.s.Estimate(context.Background(), problem())
	if err != nil {
		t.Fatal(err)
	}
	return est
}

// ceilingFixture is a fixture whose replies are capped at 1000 tokens and whose
// ceiling is set by ceiling from the estimate of its first request, which is
// exactly what the plan then sends.
func ceilingFixture(t *testing.T, ceiling func(est Estimate) Ceiling, replies ...llmtest.Reply) (*fixture, Estimate) {
	t.Helper()
	t.Setenv("PATH", t.TempDir()) // no version probe changes the Environment section after the estimate
	var c Ceiling
	f := newFixtureWith(t, nil, func(st *Settings) {
		st.MaxTokens = 1000
		st.MaxTokensPerPlan, st.MaxCostPerPlan = c.Tokens, c.Cost
	}, replies...)
	est := estimateFor(t, f)
	c = ceiling(est)
	st := f.s.st
	st.MaxTokensPerPlan, st.MaxCostPerPlan = c.Tokens, c.Cost
	f.s.SetModel(f.s.model, st)
	return f, est
}

// A first request over the ceiling is never sent: the error says what it would
// take, the ceiling, and what to do; the estimate said so beforehand.
func TestCeilingStopsTheFirstRequestBeforeItIsSent(t *testing.T) {
	f, est := ceilingFixture(t, func(est Estimate) Ceiling { return Ceiling{Tokens: est.FirstTokens - 1} })
	if again := estimateFor(t, f); !again.OverCeiling || !again.RoundsOverCeiling || !strings.Contains(again.Summary(), "nothing will be sent") {
		t.Errorf("the estimate does not warn: %+v", again)
	}
	_, err := f.plan(t)
	var pe *plan.Error
	if !errors.As(err, &pe) || pe.Code != plan.ErrCeiling {
		t.Fatalf("Plan = %v, want ERR_CEILING", err)
	}
	// token counts are written with thousands separators, as the window's estimate writes them
	want := fmt.Sprintf("the first request of this plan would take up to %s tokens (%s in, up to 1,000 out), over your ceiling of %s tokens per plan; nothing was sent",
		TokensText(est.FirstTokens), TokensText(est.FirstTokens-1000), TokensText(est.FirstTokens-1))
	if est.FirstTokens >= 1000 && !strings.Contains(want, ",") {
		t.Fatalf("want %q has no thousands separator", want)
	}
	if pe.Msg != want || !strings.Contains(pe.Hint, "raise max tokens per plan in Settings (or fixplan plan --max-tokens N)") || !strings.Contains(pe.Hint, "shorten the problem") {
		t.Errorf("error = %q (hint %q)\nwant %q", pe.Msg, pe.Hint, want)
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("the server received %d request(s)", n)
	}
	if entries, _ := os.ReadDir(filepath.Join(f.root, ".fixplan", "plans")); len(entries) != 0 {
		t.Errorf("a record was saved for a plan that sent nothing: %v", entries)
	}
}

// The ceiling in cost: the same, worded in cost at the Settings prices.
func TestCostCeilingStopsTheFirstRequest(t *testing.T) {
	f := newFixtureWith(t, nil, func(st *Settings) {
		st.MaxTokens, st.PriceInput, st.PriceOutput, st.MaxCostPerPlan = 1000, 10, 30, 0.001
	})
	est := estimateFor(t, f)
	if est.FirstCost == nil || *est.FirstCost <= 0.001 || !est.OverCeiling || len(est.Notes) != 0 {
		t.Fatalf("estimate = %+v", est)
	}
	_, err := f.plan(t)
	if plan.CodeOf(err) != plan.ErrCeiling || !strings.Contains(err.Error(), "over your ceiling of 0.001 per plan (at your Settings prices); nothing was sent") ||
		!strings.Contains(err.Error(), "would take up to "+CostText(*est.FirstCost)+", ") {
		t.Fatalf("Plan = %v", err)
	}
}

// withUsage makes a reply report this usage, so the plan's spending is known.
func withUsage(r llmtest.Reply, in, out int) llmtest.Reply {
	r.PromptTokens, r.CompletionTokens = in, out
	return r
}

// A context round that would cross the ceiling is not sent: the model is asked
// for its final plan without it (that request fits), the round is recorded as
// not sent, and the record says the ceiling stopped it.
func TestCeilingStopsAContextRoundBeforeItIsSent(t *testing.T) {
	read := requests(map[string]any{"type": "read_file", "path": "big.py"})
	var est Estimate
	// After the first request (reported as its estimate: prompt and 100 out), the
	// final-plan request without the context needs about the first prompt, the
	// reply and a short note; the round adds a 24 KiB file (several thousand tokens).
	f, est := ceilingFixture(t, func(e Estimate) Ceiling {
		est = e
		spent := e.PromptTokens + e.SchemaTokens + 100
		return Ceiling{Tokens: spent + e.PromptTokens + e.SchemaTokens + 1000 + 1500}
	})
	f.srv.Add(withUsage(reply(t, read), est.PromptTokens+est.SchemaTokens, 100), reply(t, nil))
	writeBig(t, f.root)
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	last := reqs[1].LastUser()
	if !strings.HasPrefix(last, "CONTEXT NOT SENT") || strings.Contains(string(reqs[1].Body), "VALUE_") {
		t.Errorf("request 2 carries the round or lacks the note:\n%s", last)
	}
	if len(rec.Rounds) != 1 || rec.Rounds[0].Results[0].OK || !strings.HasPrefix(rec.Rounds[0].Results[0].Error, "not sent: context round 1 was not sent: with ") {
		t.Errorf("round = %+v", rec.Rounds)
	}
	if u := rec.Usage; u.CeilingTokens == 0 || !strings.HasPrefix(u.Stopped, "context round 1 was not sent: with ") || !strings.Contains(u.Stopped, "tokens per plan") {
		t.Errorf("usage = %+v", u)
	}
	if !hasWarning(rec, "the model was asked for its final plan without that context") || len(rec.Changes) != 1 {
		t.Errorf("warnings = %q, changes = %d", rec.Warnings, len(rec.Changes))
	}
	if spent := rec.Usage.PromptTokens + rec.Usage.CompletionTokens; spent > rec.Usage.CeilingTokens {
		t.Errorf("the plan spent %d tokens, over its ceiling of %d", spent, rec.Usage.CeilingTokens)
	}
}

// When not even the final-plan request fits, the plan is the reply that asked
// for the context, as it is: one request, nothing lost.
func TestCeilingKeepsTheLastPlanWhenNothingMoreFits(t *testing.T) {
	read := requests(map[string]any{"type": "read_file", "path": "big.py"})
	var est Estimate
	f, est := ceilingFixture(t, func(e Estimate) Ceiling {
		est = e
		return Ceiling{Tokens: 2*(e.PromptTokens+e.SchemaTokens) + 100 + 1000}
	})
	asked := reply(t, func(m map[string]any) {
		read(m)
		m["summary"] = "probably divide(); I want to see big.py"
	})
	f.srv.Add(withUsage(asked, est.PromptTokens+est.SchemaTokens, 100))
	writeBig(t, f.root)
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	if rec.Plan.Summary != "probably divide(); I want to see big.py" || len(rec.Unfulfilled) != 1 || !hasWarning(rec, "the plan is the model's reply that asked for that context") {
		t.Errorf("record = %+v", rec)
	}
	saved, err := f.s.Load(rec.ID)
	if err != nil || saved.State != plan.StateDraft || saved.Usage.Stopped == "" {
		t.Fatalf("saved = %+v, %v", saved, err)
	}
}

// An invalid first reply whose repair would cross the ceiling: the reply is
// saved in a failed record and the error says so.
func TestCeilingStopsARepairAndKeepsTheReply(t *testing.T) {
	var est Estimate
	f, est := ceilingFixture(t, func(e Estimate) Ceiling {
		est = e
		return Ceiling{Tokens: e.FirstTokens + 50}
	})
	f.srv.Add(withUsage(llmtest.Reply{Content: "I think divide() needs a guard."}, est.PromptTokens+est.SchemaTokens, 10))
	rec, err := f.plan(t)
	if plan.CodeOf(err) != plan.ErrCeiling || !strings.Contains(err.Error(), "the model's reply is not a usable plan, and the request to repair it would take up to ") ||
		!strings.Contains(err.Error(), "the reply was saved in plan "+rec.ID) {
		t.Fatalf("Plan = %v", err)
	}
	if n := len(f.srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	saved, lerr := f.s.Load(rec.ID)
	if lerr != nil || saved.State != plan.StateFailed || saved.Raw != "I think divide() needs a guard." || !strings.HasPrefix(saved.Usage.Stopped, "the request to repair the model's invalid reply was not sent") {
		t.Fatalf("saved = %+v, %v", saved, lerr)
	}
}

// writeBig writes big.py, 24 KiB of lines the model asks to read.
func writeBig(t *testing.T, root string) {
	t.Helper()
	var b strings.Builder
	for l := 1; b.Len() < 24<<10; l++ {
		fmt.Fprintf(&b, "VALUE_%04d = %q\n", l, strings.Repeat("x", 30))
	}
	if err := os.WriteFile(filepath.Join(root, "big.py"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func hasWarning(rec *plan.Record, w string) bool {
	for _, x := range rec.Warnings {
		if strings.Contains(x, w) {
			return true
		}
	}
	return false
}

// A correction request the ceiling stops is not sent: the changes that do not
// apply are left out as when the correction fails, and the rest of the plan kept.
func TestCeilingStopsACorrectionAndDropsTheChanges(t *testing.T) {
	var est Estimate
	f, est := ceilingFixture(t, func(e Estimate) Ceiling {
		est = e
		return Ceiling{Tokens: e.FirstTokens + 50}
	})
	bad := reply(t, func(m map[string]any) {
		m["proposed_changes"] = map[string]any{"patch": "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n-def nothing():\n+def other():\n", "actions": []any{}, "commands_to_run": []any{}}
	})
	f.srv.Add(withUsage(bad, est.PromptTokens+est.SchemaTokens, 10))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	if len(rec.Changes) != 0 || !hasWarning(rec, noteChangesDropped) || hasWarning(rec, noteChangesRepaired) ||
		!strings.HasPrefix(rec.Usage.Stopped, "the request to correct the changes that do not apply was not sent: with ") {
		t.Errorf("record: changes %d, warnings %q, stopped %q", len(rec.Changes), rec.Warnings, rec.Usage.Stopped)
	}
}

// A provider that reports no usage (most servers when streaming): fixplan counts
// each request as the ceiling counts it — the messages as sent and the schema
// that goes with them — so what the plan has spent is not undercounted.
func TestSelfCountedUsageCountsTheSchema(t *testing.T) {
	f, est := ceilingFixture(t, func(e Estimate) Ceiling { return Ceiling{Tokens: 10 * e.WorstTokens} })
	r := reply(t, nil)
	r.NoUsage = true
	f.srv.Add(r)
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Calls) != 1 || !rec.Usage.Counted {
		t.Fatalf("calls = %+v, usage = %+v", rec.Calls, rec.Usage)
	}
	if got, want := rec.Calls[0].PromptTokens, est.PromptTokens+est.SchemaTokens; got != want {
		t.Errorf("the request counted %d prompt tokens, want %d (%d of messages and %d of the schema, as the estimate and the ceiling count it)",
			got, want, est.PromptTokens, est.SchemaTokens)
	}
}

// A cost ceiling with no reply cap sets the cap to what the ceiling leaves; the
// request that takes exactly that is within the ceiling, at any ceiling — the
// float sum of its parts came out a hair over (3, 5, 1e12 with a 3,780-token
// prompt at 2.5/10) and refused it.
func TestCostCapStaysWithinTheCeiling(t *testing.T) {
	in, out := 2.5, 10.0
	for _, prompt := range []int{1100, 2758, 3780, 50000} {
		for _, ceiling := range []float64{0.05, 0.1, 0.5, 1, 2, 3, 5, 7, 10, 20, 1e6, 1e9, 1e12, 1e14, 1e18} {
			p := spend{prompt, 0}.cost(in, out)
			if p >= ceiling {
				continue
			}
			c := costCap(ceiling-p, out)
			if req := (spend{prompt, c}); overCost(req.cost(in, out), ceiling) || c < MinReply {
				t.Errorf("prompt %d, ceiling %v: a reply cap of %d makes the request cost %v, over the ceiling", prompt, ceiling, c, req.cost(in, out))
			}
		}
	}
}

func TestCostCeilingWithoutAReplyCapAdmitsTheFirstRequest(t *testing.T) {
	for _, ceiling := range []float64{3, 5, 1e12} {
		f := newFixtureWith(t, nil, func(st *Settings) {
			st.MaxTokens, st.PriceInput, st.PriceOutput, st.MaxCostPerPlan = 0, 2.5, 10, ceiling
		}, reply(t, nil))
		if _, err := f.plan(t); err != nil {
			t.Errorf("ceiling %v: Plan = %v", ceiling, err)
		}
	}
}

// Retries after a timeout may be billed like the request: a plan retries only
// as often as the ceiling holds whole requests, and counts the failed attempts'
// prompts as spent.
func TestRetriesStayWithinTheCeiling(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var c Ceiling
	f := newFixtureWith(t, func(cfg *openai.Config) { cfg.Timeout, cfg.MaxRetries = 300*time.Millisecond, 5 }, func(st *Settings) {
		st.MaxTokens = 1000
	}, llmtest.Reply{Delay: 2 * time.Second}, llmtest.Reply{Delay: 2 * time.Second}) // a third request finds no reply: the server fails the test
	est := estimateFor(t, f)
	c = Ceiling{Tokens: 2*est.FirstTokens + est.FirstTokens/2} // two whole requests, not three
	st := f.s.st
	st.MaxTokensPerPlan = c.Tokens
	f.s.SetModel(f.s.model, st)
	_, err := f.plan(t)
	if err == nil {
		t.Fatal("the plan succeeded: its retries went past the ceiling")
	}
	if n := len(f.srv.Requests()); n != 2 {
		t.Errorf("the server received %d requests; the ceiling holds 2", n)
	}
}

// A window that holds the messages and the reply but not the schema besides: the
// plan is sent (the schema goes as the response format), and the estimate says
// why its first request's tokens can be more than the window.
func TestEstimateSaysTheSchemaIsNotInTheWindow(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	f := newFixtureWith(t, nil, func(st *Settings) { st.MaxTokens = 1000 }, reply(t, nil))
	est := estimateFor(t, f)
	st := f.s.st
	st.ContextWindow = est.PromptTokens + 2*est.ReplyTokens + 200 // a reply cap of a quarter of it, at most max tokens
	f.s.SetModel(f.s.model, st)
	again := estimateFor(t, f)
	if again.OverWindow || again.FirstTokens <= again.Window {
		t.Fatalf("estimate = %+v; want a first request over the window's figure that still fits", again)
	}
	found := false
	for _, n := range again.Notes {
		found = found || strings.Contains(n, "of JSON schema go as the response format and are counted here for the cost, not against the window")
	}
	if !found {
		t.Errorf("the estimate does not say why its first request is over the window: %q", again.Notes)
	}
	if _, err := f.plan(t); err != nil {
		t.Errorf("Plan = %v", err)
	}
}

// Token counts read the same in the Go side's messages as in the window's estimate.
func TestTokensTextGroupsThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 12573: "12,573", 151204: "151,204", 1187022: "1,187,022", -4096: "-4,096"} {
		if got := TokensText(n); got != want {
			t.Errorf("TokensText(%d) = %q, want %q", n, got, want)
		}
	}
	if got := (Ceiling{Tokens: 10000, Cost: 0.05}).String(); got != "10,000 tokens or 0.05 per plan" {
		t.Errorf("Ceiling.String() = %q", got)
	}
	e := Estimate{PromptTokens: 3100, SchemaTokens: 1658, ReplyTokens: 8192, FirstTokens: 12950, RoundsTokens: 151204, WorstRequests: 12, WorstTokens: 1187022, Tokenizer: "o200k_base"}
	if s := e.Summary(); !strings.HasPrefix(s, "estimate: the first request takes 4,758 tokens in and up to 8,192 out (12,950); with both context rounds up to 151,204 tokens; every request the loop can make (12) up to 1,187,022") {
		t.Errorf("Summary() = %q", s)
	}
}
