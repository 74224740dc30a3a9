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
	fmt.Fprintf(w, "tokens: %d for %s (%s)\n", total, name, countedBy(c.Tokenizer()))
	for _, s := range g.Sections {
		fmt.Fprintf(w, "  %6d  %s\n", s.Tokens, s.Title)
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
		fmt.Fprintf(w, "\nContext sent: %d section(s), %d tokens (%s)\n", len(r.Base.Sections), total, countedBy(u.Tokenizer))
		for _, s := range r.Base.Sections {
			fmt.Fprintf(w, "  %6d  %s\n", s.Tokens, s.Title)
		}
		for i, rd := range r.Rounds {
			n := 0
			for _, res := range rd.Results {
				n += res.Tokens
			}
			fmt.Fprintf(w, "  %6d  context round %d (%d result(s))\n", n, i+1, len(rd.Results))
		}
		if u.RepeatsAvoided > 0 {
			fmt.Fprintf(w, "  %d tokens of lines the model already had were not sent again\n", u.RepeatsAvoided)
		}
	}
	if len(r.Calls) == 0 {
		return
	}
	in, out := 0, 0
	for _, c := range r.Calls {
		in, out = in+c.PromptTokens, out+c.CompletionTokens
	}
	fmt.Fprintf(w, "\nModel: %s, %d request(s), %d tokens in, %d out", r.Calls[len(r.Calls)-1].Model, len(r.Calls), in, out)
	if u != nil && u.Counted {
		fmt.Fprint(w, " (the provider reported no usage; counted by fixplan)")
	}
	if u != nil && u.Cost != nil {
		fmt.Fprintf(w, ", cost %.4f at the prices in Settings", *u.Cost)
	}
	fmt.Fprintln(w)
	if u != nil && u.Window > 0 {
		fmt.Fprintf(w, "Window: %d tokens (%s)", u.Window, u.WindowSource)
		if u.Compact {
			fmt.Fprint(w, "; the compact prompt was used")
		}
		fmt.Fprintln(w)
	}
}
