package main

import (
	"fmt"
	"io"

	"fixplan/plan"
	"fixplan/session"
	"fixplan/tokens"
)

// countedBy words a tokenizer name for people: "counted with o200k_base" or
// "estimated at 3.2 bytes a token".
func countedBy(tokenizer string) string {
	if tokenizer == "" || tokenizer == tokens.Estimate {
		return fmt.Sprintf("estimated at %.1f bytes a token", tokens.BytesPerToken)
	}
	return "counted with " + tokenizer
}

// printContextTokens prints what each base-context section costs the model
// (`fixplan context base`), counted for model, and fills each section's count.
func printContextTokens(w io.Writer, g *plan.Gathered, model string) {
	c := tokens.For(model)
	total := 0
	for i := range g.Sections {
		g.Sections[i].Tokens = session.SectionTokens(c, g.Sections[i])
		total += g.Sections[i].Tokens
	}
	name := model
	if name == "" {
		name = "an unnamed model"
	}
	fmt.Fprintf(w, "tokens: %s for %s (%s)\n", session.TokensText(total), name, countedBy(c.Tokenizer()))
	for _, s := range g.Sections {
		fmt.Fprintf(w, "  %7s  %s\n", session.TokensText(s.Tokens), s.Title)
	}
}

// printUsage prints a plan's cost: the context sent per section and per round,
// the model's tokens in and out, the cost when prices are set, and the window
// the prompt was fitted to.
func printUsage(w io.Writer, r *plan.Record) {
	u := r.Usage
	if u != nil && len(r.Base.Sections) > 0 {
		total := 0
		for _, s := range r.Base.Sections {
			total += s.Tokens
		}
		fmt.Fprintf(w, "\nContext sent: %d section(s), %s tokens (%s)\n", len(r.Base.Sections), session.TokensText(total), countedBy(u.Tokenizer))
		for _, s := range r.Base.Sections {
			fmt.Fprintf(w, "  %7s  %s\n", session.TokensText(s.Tokens), s.Title)
		}
		for i, rd := range r.Rounds {
			n := 0
			for _, res := range rd.Results {
				n += res.Tokens
			}
			fmt.Fprintf(w, "  %7s  context round %d (%d result(s))\n", session.TokensText(n), i+1, len(rd.Results))
		}
		if u.RepeatsAvoided > 0 {
			fmt.Fprintf(w, "  %s tokens of lines the model already had were not sent again\n", session.TokensText(u.RepeatsAvoided))
		}
	}
	if len(r.Calls) == 0 {
		return
	}
	in, out := 0, 0
	for _, c := range r.Calls {
		in, out = in+c.PromptTokens, out+c.CompletionTokens
	}
	fmt.Fprintf(w, "\nModel: %s, %d request(s), %s tokens in, %s out", r.Calls[len(r.Calls)-1].Model, len(r.Calls), session.TokensText(in), session.TokensText(out))
	if u != nil && u.Counted {
		fmt.Fprint(w, " (the provider reported no usage; counted by fixplan)")
	}
	if u != nil && u.Cost != nil {
		fmt.Fprintf(w, ", cost %.4f at the prices in Settings", *u.Cost)
	}
	fmt.Fprintln(w)
	if u != nil && u.Window > 0 {
		fmt.Fprintf(w, "Window: %s tokens (%s)", session.TokensText(u.Window), u.WindowSource)
		if u.Compact {
			fmt.Fprint(w, "; the compact prompt was used")
		}
		fmt.Fprintln(w)
	}
	if u != nil && (u.CeilingTokens > 0 || u.CeilingCost > 0) {
		fmt.Fprintf(w, "Ceiling: %s", session.Ceiling{Tokens: u.CeilingTokens, Cost: u.CeilingCost})
		if u.Stopped != "" {
			fmt.Fprint(w, "; it kept a request from being sent (see the warnings)")
		}
		fmt.Fprintln(w)
	}
}

// printEstimate prints what a plan would cost (`fixplan plan --estimate`):
// the first request, the worst cases, the window, the ceiling and the notes.
func printEstimate(w io.Writer, e session.Estimate, st session.Settings) {
	cost := func(c *float64) string {
		if c == nil {
			return ""
		}
		return fmt.Sprintf(", cost %s", session.CostText(*c))
	}
	name := st.Model
	if name == "" {
		name = "an unnamed model"
	}
	fmt.Fprintf(w, "Estimate for %s (%s); nothing was sent.\n", name, countedBy(e.Tokenizer))
	reply := fmt.Sprintf("up to %s out", session.TokensText(e.ReplyTokens))
	if e.ReplyTokens == 0 {
		reply = "a reply of no set size (not counted)"
	}
	fmt.Fprintf(w, "  first request: %s tokens in (%s of messages, %s of the plan's JSON schema) and %s: %s tokens%s\n",
		session.TokensText(e.PromptTokens+e.SchemaTokens), session.TokensText(e.PromptTokens), session.TokensText(e.SchemaTokens), reply, session.TokensText(e.FirstTokens), cost(e.FirstCost))
	fmt.Fprintf(w, "  with both context rounds (3 requests): up to %s tokens%s\n", session.TokensText(e.RoundsTokens), cost(e.RoundsCost))
	fmt.Fprintf(w, "  every request the loop can make (%d: repairs, the read of unseen files, corrections): up to %s tokens%s\n",
		e.WorstRequests, session.TokensText(e.WorstTokens), cost(e.WorstCost))
	fmt.Fprintf(w, "  a context round adds at most %s tokens of results (context_budget %s bytes)\n", session.TokensText(e.RoundContextTokens), session.TokensText(st.ContextBudget))
	if e.Window > 0 {
		fmt.Fprintf(w, "Window: %s tokens (%s)\n", session.TokensText(e.Window), e.WindowSource)
	}
	if e.CeilingTokens > 0 || e.CeilingCost > 0 {
		fmt.Fprintf(w, "Ceiling: %s", session.Ceiling{Tokens: e.CeilingTokens, Cost: e.CeilingCost})
		switch {
		case e.OverCeiling:
			fmt.Fprint(w, " — the first request alone crosses it: nothing would be sent")
		case e.RoundsOverCeiling:
			fmt.Fprint(w, " — the context rounds may cross it: a round that would is not sent")
		default:
			fmt.Fprint(w, " — the plan stays within it with both context rounds")
		}
		fmt.Fprintln(w)
	}
	if e.OverWindow {
		fmt.Fprintln(w, "The first request does not fit the model's window: planning would stop before sending.")
	}
	for _, n := range e.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
}
